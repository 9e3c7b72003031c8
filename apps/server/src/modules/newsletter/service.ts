import type { Kysely } from 'kysely';
import {
  AppError,
  NEWSLETTER_CONFIRM_DAYS,
  NEWSLETTER_CSV_COLUMNS,
  NEWSLETTER_TEXTS,
  type NewsletterCounts,
  type NewsletterSubscriber,
} from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import { csvLine } from '../../http/csv.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { Notifier } from '../notifications/service.js';
import type { Limit, RateLimiter } from '../../security/rate-limits.js';
import { hashToken, randomToken, type SecretBox } from '../../security/secret-box.js';
import type { NewsletterRepository, SubscriberRow } from './repository.js';

/**
 * Per IP, like the other anonymous forms (registration: 10 an hour). Per address, a quiet cap: past
 * it the answer stays the same but nothing is mailed or changed, so nobody can flood someone's inbox
 * and the answer still says nothing about the address.
 */
export const NEWSLETTER_LIMITS = {
  signUpsPerIp: { name: 'newsletter:ip', max: 10, windowMinutes: 60 },
  mailsPerAddress: { name: 'newsletter:email', max: 3, windowMinutes: 60 },
} as const satisfies Record<string, Limit>;

const CONFIRM_LINK_MS = NEWSLETTER_CONFIRM_DAYS * 24 * 60 * 60 * 1000;

export type NewsletterServiceDeps = {
  db: Kysely<DB>;
  repository: NewsletterRepository;
  notifier: Notifier;
  limits: RateLimiter;
  secretBox: SecretBox;
  publicUrl: string;
};

export type NewsletterService = ReturnType<typeof createNewsletterService>;

/** What a sign-up leads to, mailed once the change has committed. */
type Outcome =
  | { mail: 'confirm'; email: string; confirmToken: string; unsubscribeToken: string }
  | { mail: 'already_subscribed'; email: string; unsubscribeToken: string }
  | { mail: 'none' };

function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/**
 * The newsletter (issue 12): double opt-in sign-ups, confirmation, unsubscribe,
 * and the back office's counts and CSV export of confirmed subscribers.
 */
export function createNewsletterService(deps: NewsletterServiceDeps) {
  const { db, repository, notifier, limits, secretBox } = deps;
  const confirmUrl = (token: string) => `${deps.publicUrl}/newsletter/confirm/${token}`;
  const unsubscribeUrl = (token: string) => `${deps.publicUrl}/newsletter/unsubscribe/${token}`;

  function newConfirmLink() {
    const token = randomToken();
    return { token, link: { hash: hashToken(token), expiresAt: new Date(Date.now() + CONFIRM_LINK_MS) } };
  }

  /** The subscriber's own unsubscribe token, for the link in a mail. */
  const unsubscribeTokenOf = (row: Pick<SubscriberRow, 'unsubscribe_token_encrypted'>) =>
    secretBox.decrypt(row.unsubscribe_token_encrypted);

  /** False once the address has had its mails for the hour: then nothing happens at all. */
  async function mayMail(email: string): Promise<boolean> {
    try {
      await limits.take(NEWSLETTER_LIMITS.mailsPerAddress, email);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'RATE_LIMITED') return false;
      throw error;
    }
  }

  async function sendOutcome(outcome: Outcome): Promise<void> {
    if (outcome.mail === 'confirm')
      await notifier.notifyAddress(outcome.email, 'newsletter_confirm', {
        confirmUrl: confirmUrl(outcome.confirmToken),
        unsubscribeUrl: unsubscribeUrl(outcome.unsubscribeToken),
        days: NEWSLETTER_CONFIRM_DAYS,
      });
    else if (outcome.mail === 'already_subscribed')
      await notifier.notifyAddress(outcome.email, 'newsletter_already_subscribed', {
        unsubscribeUrl: unsubscribeUrl(outcome.unsubscribeToken),
      });
  }

  return {
    /** Always ends the same way for the caller, whatever the address's state (no enumeration). */
    async subscribe(email: string, ip: string): Promise<void> {
      await limits.take(NEWSLETTER_LIMITS.signUpsPerIp, ip);
      if (!(await mayMail(email))) return;
      const consent = { text: NEWSLETTER_TEXTS.consent, at: new Date(), ip };
      const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
        const confirm = newConfirmLink();
        const existing = await repository.findByEmailForUpdate(trx, email);
        if (!existing) {
          const unsubscribeToken = randomToken();
          const inserted = await repository.insertPending(trx, {
            email,
            confirm: confirm.link,
            unsubscribeHash: hashToken(unsubscribeToken),
            unsubscribeEncrypted: secretBox.encrypt(unsubscribeToken),
            consent,
          });
          // Another sign-up of the same address committed first: its mail is on its way.
          if (!inserted) return { mail: 'none' };
          return { mail: 'confirm', email, confirmToken: confirm.token, unsubscribeToken };
        }
        const unsubscribeToken = unsubscribeTokenOf(existing);
        // Confirmed stays confirmed: no new consent or link is needed; the mail says so.
        if (existing.status === 'confirmed')
          return { mail: 'already_subscribed', email: existing.email, unsubscribeToken };
        await repository.renewPending(trx, existing, confirm.link, consent);
        return { mail: 'confirm', email: existing.email, confirmToken: confirm.token, unsubscribeToken };
      });
      await sendOutcome(outcome);
    },

    /** Single use: the link is spent by confirming, and a new sign-up replaces it. */
    async confirm(token: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const row = await repository.findByConfirmHashForUpdate(trx, hashToken(token));
        if (!row) throw new AppError('NOT_FOUND', NEWSLETTER_TEXTS.confirmLinkInvalid);
        if (row.is_expired) throw new AppError('CONFLICT', NEWSLETTER_TEXTS.confirmLinkExpired);
        await repository.markConfirmed(trx, row);
      });
    },

    /** May be used again: a second click answers the same. */
    async unsubscribe(token: string): Promise<void> {
      if (!(await repository.unsubscribe(hashToken(token))))
        throw new AppError('NOT_FOUND', NEWSLETTER_TEXTS.unsubscribeLinkInvalid);
    },

    // ---- back office ----

    async list(
      skip: number,
      take: number,
      search?: string,
    ): Promise<{
      counts: NewsletterCounts;
      data: NewsletterSubscriber[];
      total: number;
      skip: number;
      take: number;
    }> {
      const counts = await repository.countByStatus();
      const page = await repository.listPage(skip, take, search);
      return {
        counts,
        data: page.rows.map((row) => ({
          id: row.id,
          email: row.email,
          status: row.status,
          consent_at: row.consent_at.toISOString(),
          confirmed_at: iso(row.confirmed_at),
          unsubscribed_at: iso(row.unsubscribed_at),
        })),
        total: page.total,
        skip,
        take,
      };
    },

    /** The confirmed addresses as CSV, safe to open in a spreadsheet; each export is audited (personal data). */
    async exportConfirmed(actor: AuditActor): Promise<{ filename: string; csv: string }> {
      const rows = await repository.listConfirmed();
      await recordAudit(db, {
        ...actor,
        action: 'newsletter.exported',
        targetType: 'newsletter',
        targetId: null,
        after: { subscribers: rows.length },
      });
      const lines = rows.map((row) =>
        csvLine([row.email, iso(row.confirmed_at) ?? '', row.consent_text, row.consent_at.toISOString()]),
      );
      return {
        filename: `newsletter-subscribers-${new Date().toISOString().slice(0, 10)}.csv`,
        csv: csvLine(NEWSLETTER_CSV_COLUMNS) + lines.join(''),
      };
    },
  };
}
