import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The customer's ledger accounts and entries, read for staff. */
export function createComplianceLedgerRepository(db: Kysely<DB>) {
  return {
    /** The customer's ledger accounts (created as money first moves for them). */
    listAccounts(userId: number) {
      return db
        .selectFrom('accounts')
        .select(['asset', 'kind', 'reference'])
        .where('owner_user_id', '=', String(userId))
        .orderBy('asset')
        .orderBy('kind')
        .orderBy('reference')
        .execute();
    },

    async countLedgerEntries(userId: number): Promise<number> {
      const row = await db
        .selectFrom('entries')
        .innerJoin('accounts', 'accounts.id', 'entries.account_id')
        .where('accounts.owner_user_id', '=', String(userId))
        .select((eb) => eb.fn.countAll<string>().as('rows'))
        .executeTakeFirstOrThrow();
      return Number(row.rows); // a count of rows, not money
    },

    listLedgerEntries(userId: number, limit: number, offset: number) {
      return db
        .selectFrom('entries')
        .innerJoin('accounts', 'accounts.id', 'entries.account_id')
        .innerJoin('journals', 'journals.id', 'entries.journal_id')
        .where('accounts.owner_user_id', '=', String(userId))
        .select([
          'entries.id as entry_id',
          'entries.journal_id',
          'journals.kind',
          'journals.reference',
          'entries.asset',
          'accounts.kind as account_kind',
          'entries.amount',
          'entries.balance_after',
          'entries.created_at',
        ])
        .orderBy('entries.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };
}
