import type { Kysely, Selectable } from 'kysely';
import type { EnquiryBody, EnquiryType } from '@florin/contracts';
import type { DB, EnquiriesTable } from '../../db/schema.js';

export type EnquiryRow = Selectable<EnquiriesTable>;

const COLUMNS = [
  'id',
  'type',
  'first_name',
  'last_name',
  'email',
  'message',
  'created_at',
  'forwarded_at',
] as const;

/** The only place the enquiries module builds queries. */
export function createEnquiryRepository(db: Kysely<DB>) {
  const filtered = (type: EnquiryType | undefined) => {
    const query = db.selectFrom('enquiries');
    return type ? query.where('type', '=', type) : query;
  };

  return {
    /** Runs `work` in one transaction: the enquiry and its mails commit together. */
    transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    insert(type: EnquiryType, body: EnquiryBody, executor: Kysely<DB> = db): Promise<EnquiryRow> {
      return executor
        .insertInto('enquiries')
        .values({ type, ...body })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    },

    async markForwarded(id: number): Promise<void> {
      await db.updateTable('enquiries').set({ forwarded_at: new Date() }).where('id', '=', id).execute();
    },

    async count(type: EnquiryType | undefined): Promise<number> {
      const row = await filtered(type)
        .select((eb) => eb.fn.countAll<string>().as('rows'))
        .executeTakeFirstOrThrow();
      return Number(row.rows); // a row count (PostgreSQL's bigint arrives as text), not money
    },

    /** Newest first. */
    listPage(type: EnquiryType | undefined, limit: number, offset: number): Promise<EnquiryRow[]> {
      return filtered(type).select(COLUMNS).orderBy('id', 'desc').limit(limit).offset(offset).execute();
    },
  };
}

export type EnquiryRepository = ReturnType<typeof createEnquiryRepository>;
