import {
  ENQUIRIES_PAGE_SIZE,
  ENQUIRY_TEXTS,
  listEnquiries,
  type Enquiry,
  type EnquiryBody,
  type EnquiryType,
  type Page,
} from '@florin/contracts';
import type { Limit, RateLimiter } from '../../security/rate-limits.js';
import type { EnquiryMailer } from './mail.js';
import type { EnquiryRepository, EnquiryRow } from './repository.js';

/**
 * Anyone may send an enquiry, and each one mails an address the sender chose:
 * a few an hour from one IP address, and a few an hour to one e-mail address
 * from anywhere, so the form can neither flood our mailboxes nor be used to
 * flood someone else's. Counted in the database, so every instance shares them.
 */
export const ENQUIRY_LIMITS = {
  perIp: { name: 'enquiry:ip', max: 5, windowMinutes: 60 },
  perEmail: { name: 'enquiry:email', max: 5, windowMinutes: 60 },
} as const satisfies Record<string, Limit>;

export type EnquiryServiceDeps = {
  repository: EnquiryRepository;
  limits: RateLimiter;
  mail: EnquiryMailer;
};

export type EnquiryService = ReturnType<typeof createEnquiryService>;

function toEnquiry(row: EnquiryRow): Enquiry {
  return {
    ...row,
    created_at: row.created_at.toISOString(),
    forwarded_at: row.forwarded_at === null ? null : row.forwarded_at.toISOString(),
  };
}

function pageUrl(type: EnquiryType | undefined, page: number): string {
  const search = new URLSearchParams({ page: String(page) });
  if (type) search.set('type', type);
  return `${listEnquiries.path}?${search.toString()}`;
}

export function createEnquiryService(deps: EnquiryServiceDeps) {
  const { repository, limits, mail } = deps;
  return {
    /**
     * Keeps the enquiry with its mails in the outbox, then sends them: the row is what counts, so a
     * mail that fails never loses an enquiry (the back office lists it unforwarded, the outbox retries).
     */
    async send(type: EnquiryType, body: EnquiryBody, meta: { ip: string }): Promise<{ message: string }> {
      await limits.take(ENQUIRY_LIMITS.perIp, meta.ip);
      await limits.take(ENQUIRY_LIMITS.perEmail, body.email);
      const { enquiry, mails } = await repository.transaction(async (trx) => {
        const inserted = await repository.insert(type, body, trx);
        return { enquiry: inserted, mails: await mail.queue(trx, inserted) };
      });
      if (await mail.deliver(mails)) await repository.markForwarded(enquiry.id);
      return { message: ENQUIRY_TEXTS.sent };
    },

    async list(query: { page: number; type?: EnquiryType }): Promise<Page<Enquiry>> {
      const { page, type } = query;
      const total = await repository.count(type);
      const lastPage = Math.max(1, Math.ceil(total / ENQUIRIES_PAGE_SIZE));
      const rows = await repository.listPage(type, ENQUIRIES_PAGE_SIZE, (page - 1) * ENQUIRIES_PAGE_SIZE);
      return {
        data: rows.map(toEnquiry),
        current_page: page,
        last_page: lastPage,
        per_page: ENQUIRIES_PAGE_SIZE,
        total,
        next_page_url: page < lastPage ? pageUrl(type, page + 1) : null,
        prev_page_url: page > 1 ? pageUrl(type, Math.min(page - 1, lastPage)) : null,
      };
    },
  };
}
