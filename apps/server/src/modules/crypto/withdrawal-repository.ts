import { sql, type Kysely, type Updateable } from 'kysely';
import { CRYPTO_WITHDRAWAL_TRANSITIONS } from '@florin/contracts';
import type { CryptoWithdrawalStatus, CryptoWithdrawalsTable, DB, RowOf } from '../../db/schema.js';
import { statesThatMayBecome } from '../../lifecycle.js';
import { createCryptoActivityRepository } from './activity-repository.js';
import { createCryptoWithdrawalAdminRepository } from './withdrawal-admin-repository.js';

export type { AdminCryptoWithdrawalRow } from './withdrawal-admin-repository.js';

export type CryptoWithdrawalRow = RowOf<CryptoWithdrawalsTable>;

/** The customer facts a crypto withdrawal reads: may they move money, their second factor, where to mail. */
export type WithdrawCustomer = {
  id: number;
  first_name: string;
  email: string;
  status: number;
  block_status: number;
  is_sow_reset: number;
  two_factor_reset_at: Date | null;
  security_changed_at: Date | null;
  has_totp: boolean;
  platform_2fa_mobile: boolean;
  login_notifications: boolean;
  loginout_notifications: boolean;
};

export type WithdrawCoinRules = {
  asset: string;
  coin_id: string;
  active: boolean;
  disable_withdraw: boolean;
  withdraw_fee: string;
  amount_min: string;
  withdraw_daily_limit: string | null;
  auto_approve_whitelisted: boolean;
};

/** Statuses whose coins have left, or may still leave: what counts against the daily limit. */
const COUNTED_STATUSES: CryptoWithdrawalStatus[] = ['pending', 'approved', 'sent', 'confirmed'];

export type CryptoWithdrawalRepository = ReturnType<typeof createCryptoWithdrawalRepository>;

/**
 * The crypto withdrawal queries: customers, coins, destinations and the withdrawals here, the activity
 * list (activity-repository.ts) and the back office's lists (withdrawal-admin-repository.ts) beside it.
 */
export function createCryptoWithdrawalRepository(db: Kysely<DB>) {
  function customers(executor: Kysely<DB>) {
    return executor
      .selectFrom('users')
      .select([
        'id',
        'first_name',
        'email',
        'status',
        'block_status',
        'is_sow_reset',
        'two_factor_reset_at',
        'security_changed_at',
        sql<boolean>`totp_secret_encrypted IS NOT NULL`.as('has_totp'),
        'platform_2fa_mobile',
        'login_notifications',
        'loginout_notifications',
      ]);
  }

  return {
    findCustomer(userId: number, executor: Kysely<DB> = db): Promise<WithdrawCustomer | undefined> {
      return customers(executor).where('id', '=', userId).executeTakeFirst();
    },

    /**
     * Locks the customer's row: one customer's withdrawal requests are decided one at a time.
     * NO KEY UPDATE: a trade or commission inserted meanwhile, which refers to the customer, need not wait for it.
     */
    async lockCustomer(executor: Kysely<DB>, userId: number): Promise<WithdrawCustomer | undefined> {
      return customers(executor).where('id', '=', userId).forNoKeyUpdate().executeTakeFirst();
    },

    findCoin(asset: string, executor: Kysely<DB> = db): Promise<WithdrawCoinRules | undefined> {
      return executor
        .selectFrom('coins')
        .select([
          'asset',
          'coin_id',
          'active',
          'disable_withdraw',
          'withdraw_fee',
          'amount_min',
          'withdraw_daily_limit',
          'auto_approve_whitelisted',
        ])
        .where('asset', '=', asset)
        .executeTakeFirst();
    },

    listCoins(): Promise<WithdrawCoinRules[]> {
      return db
        .selectFrom('coins')
        .select([
          'asset',
          'coin_id',
          'active',
          'disable_withdraw',
          'withdraw_fee',
          'amount_min',
          'withdraw_daily_limit',
          'auto_approve_whitelisted',
        ])
        .orderBy('sort_order')
        .execute();
    },

    async updateCoinSettings(
      executor: Kysely<DB>,
      asset: string,
      values: { withdraw_daily_limit: string; auto_approve_whitelisted: boolean },
    ): Promise<void> {
      await executor.updateTable('coins').set(values).where('asset', '=', asset).execute();
    },

    /**
     * Whether `address` (normalised, any case for ETH) is one of this customer's own Florin deposit
     * addresses. At XRP's shared house address the tag tells customers apart: another customer's tag
     * is theirs, no tag is still the customer's own address (the coins would wait in suspense).
     */
    async isOwnDepositAddress(
      userId: number,
      asset: string,
      address: string,
      tag: string | null,
    ): Promise<boolean> {
      const row = await db
        .selectFrom('deposit_addresses')
        .select('id')
        .where('user_id', '=', userId)
        .where('asset', '=', asset)
        .where(sql<string>`lower(address)`, '=', address.toLowerCase())
        .$if(tag !== null, (query) => query.where('tag', '=', tag))
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Whether an XRP destination tag is some customer's (tags are kept without leading zeros). */
    async isCustomerTag(tag: string): Promise<boolean> {
      const row = await db
        .selectFrom('deposit_addresses')
        .select('id')
        .where('asset', '=', 'XRP')
        .where('tag', '=', tag)
        .executeTakeFirst();
      return row !== undefined;
    },

    findByKey(executor: Kysely<DB>, userId: number, idempotencyKey: string) {
      return executor
        .selectFrom('crypto_withdrawals')
        .selectAll()
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirst();
    },

    find(id: string, executor: Kysely<DB> = db): Promise<CryptoWithdrawalRow | undefined> {
      return executor.selectFrom('crypto_withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
    },

    lock(executor: Kysely<DB>, id: string): Promise<CryptoWithdrawalRow | undefined> {
      return executor
        .selectFrom('crypto_withdrawals')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    insert(
      executor: Kysely<DB>,
      values: Omit<
        CryptoWithdrawalRow,
        | 'id'
        | 'journal_id'
        | 'verified_at'
        | 'requested_at'
        | 'needs_second_approval'
        | 'auto_approved'
        | 'approved_by'
        | 'approved_at'
        | 'second_approved_by'
        | 'second_approved_at'
        | 'sent_by'
        | 'sent_at'
        | 'txid'
        | 'confirmed_by'
        | 'confirmed_at'
        | 'rejected_by'
        | 'rejected_at'
        | 'reject_reason'
        | 'cancelled_at'
        | 'created_at'
        | 'payout_raw'
        | 'payout_txid'
        | 'payout_signed_at'
        | 'payout_by_staff'
      >,
    ): Promise<CryptoWithdrawalRow> {
      return executor
        .insertInto('crypto_withdrawals')
        .values(values)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    update(
      executor: Kysely<DB>,
      id: string,
      values: Updateable<CryptoWithdrawalsTable>,
    ): Promise<CryptoWithdrawalRow> {
      return executor
        .updateTable('crypto_withdrawals')
        .set(values)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** What the customer withdrew of `asset` in the 24 hours before `now` (minor units), this one excluded. */
    async withdrawnToday(executor: Kysely<DB>, userId: number, asset: string, exceptId: string, now: Date) {
      const row = await executor
        .selectFrom('crypto_withdrawals')
        .select(sql<string>`coalesce(sum(amount), 0)::text`.as('total'))
        .where('user_id', '=', userId)
        .where('asset', '=', asset)
        .where('id', '<>', exceptId)
        .where('status', 'in', COUNTED_STATUSES)
        .where('requested_at', '>', new Date(now.getTime() - 86_400_000))
        .executeTakeFirstOrThrow();
      return BigInt(row.total);
    },

    /** Withdrawals whose code or 2FA had not come by `now` (the customer's, or everyone's). */
    listUnconfirmedPastDue(now: Date, userId?: number) {
      let query = db
        .selectFrom('crypto_withdrawals')
        .select(['id', 'user_id'])
        .where('status', 'in', statesThatMayBecome(CRYPTO_WITHDRAWAL_TRANSITIONS, 'expired'))
        .where('verify_by', '<=', now);
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      return query.orderBy('seq').limit(500).execute();
    },

    ...createCryptoActivityRepository(db),
    ...createCryptoWithdrawalAdminRepository(db),
  };
}
