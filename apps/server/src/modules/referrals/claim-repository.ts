import type { Kysely } from 'kysely';
import type { AffiliateClaimsTable, DB, RowOf } from '../../db/schema.js';

export type ClaimRow = RowOf<AffiliateClaimsTable>;

/** A claim with the customer's name, e-mail and hold, as the back office lists it. */
export type ClaimWithUser = ClaimRow & {
  email: string;
  first_name: string;
  last_name: string;
  block_status: number;
};

const CLAIM_COLUMNS = [
  'id',
  'user_id',
  'idempotency_key',
  'request_hash',
  'amount',
  'status',
  'hold_id',
  'bank_account_id',
  'name_of_account',
  'sort_code',
  'account_number',
  'journal_id',
  'rejected_reason',
  'created_at',
  'paid_at',
  'rejected_at',
] as const;

/** The customers' claims of their referral balance, and the back office's decisions on them. */
export function createReferralClaimRepository(db: Kysely<DB>) {
  return {
    findClaimByKey(executor: Kysely<DB>, userId: number, key: string) {
      return executor
        .selectFrom('affiliate_claims')
        .select(CLAIM_COLUMNS)
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
    },

    insertClaim(
      executor: Kysely<DB>,
      values: {
        user_id: number;
        idempotency_key: string;
        request_hash: string;
        amount: string;
        hold_id: string;
        bank_account_id: number;
        name_of_account: string;
        sort_code: string;
        account_number: string;
      },
    ): Promise<ClaimRow> {
      return executor
        .insertInto('affiliate_claims')
        .values(values)
        .returning(CLAIM_COLUMNS)
        .executeTakeFirstOrThrow();
    },

    listClaimsOf(userId: number) {
      return db
        .selectFrom('affiliate_claims')
        .select(CLAIM_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('seq', 'desc')
        .limit(100)
        .execute();
    },

    listClaims(status: 'waiting' | 'paid' | 'rejected') {
      return db
        .selectFrom('affiliate_claims as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select(CLAIM_COLUMNS.map((column) => `c.${column}` as const))
        .select(['u.email', 'u.first_name', 'u.last_name', 'u.block_status'])
        .where('c.status', '=', status)
        .orderBy('c.seq', status === 'waiting' ? 'asc' : 'desc')
        .limit(500)
        .execute();
    },

    async lockClaim(executor: Kysely<DB>, id: string): Promise<ClaimRow | undefined> {
      return executor
        .selectFrom('affiliate_claims')
        .select(CLAIM_COLUMNS)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    findClaimWithUser(id: string, executor: Kysely<DB> = db) {
      return executor
        .selectFrom('affiliate_claims as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select(CLAIM_COLUMNS.map((column) => `c.${column}` as const))
        .select(['u.email', 'u.first_name', 'u.last_name', 'u.block_status'])
        .where('c.id', '=', id)
        .executeTakeFirst();
    },

    async updateClaim(
      executor: Kysely<DB>,
      id: string,
      values: Partial<
        Pick<ClaimRow, 'status' | 'journal_id' | 'paid_at' | 'rejected_at' | 'rejected_reason'>
      >,
    ): Promise<void> {
      await executor.updateTable('affiliate_claims').set(values).where('id', '=', id).execute();
    },
  };
}
