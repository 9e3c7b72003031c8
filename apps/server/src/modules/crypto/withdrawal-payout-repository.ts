import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CryptoWithdrawalRow } from './withdrawal-repository.js';

/** A coin's automatic payout limits (decision 131), in minor units; null: not set, so nothing is sent. */
export type PayoutLimits = {
  asset: string;
  confirmations: number;
  auto_payout: boolean;
  payout_max_per_withdrawal: string | null;
  payout_daily_total: string | null;
  hot_wallet_ceiling: string | null;
};

/** The queries of the payout job: what it may send, what it sent today, what it waits to see confirmed. */
export function createPayoutRepository(db: Kysely<DB>) {
  return {
    findLimits(asset: string, executor: Kysely<DB> = db): Promise<PayoutLimits | undefined> {
      return executor
        .selectFrom('coins')
        .select([
          'asset',
          'confirmations',
          'auto_payout',
          'payout_max_per_withdrawal',
          'payout_daily_total',
          'hot_wallet_ceiling',
        ])
        .where('asset', '=', asset)
        .executeTakeFirst();
    },

    async updateLimits(
      executor: Kysely<DB>,
      asset: string,
      values: Omit<PayoutLimits, 'asset' | 'confirmations'>,
    ): Promise<void> {
      await executor.updateTable('coins').set(values).where('asset', '=', asset).execute();
    },

    /** Approved withdrawals of `asset` the job may take, oldest first: not left to staff. */
    listSendable(asset: string, limit = 20) {
      return db
        .selectFrom('crypto_withdrawals')
        .select(['id', 'payout_raw'])
        .where('asset', '=', asset)
        .where('status', '=', 'approved')
        .where('payout_by_staff', '=', false)
        .orderBy('seq')
        .limit(limit)
        .execute();
    },

    /** Sent by the job and not yet confirmed. */
    listUnconfirmed(asset: string, limit = 100) {
      return db
        .selectFrom('crypto_withdrawals')
        .select(['id', 'payout_txid', 'payout_raw'])
        .where('asset', '=', asset)
        .where('status', '=', 'sent')
        .where('payout_txid', 'is not', null)
        .orderBy('seq')
        .limit(limit)
        .execute();
    },

    /** Locks a withdrawal for the job; undefined when another instance holds it (SKIP LOCKED). */
    claim(executor: Kysely<DB>, id: string): Promise<CryptoWithdrawalRow | undefined> {
      return executor
        .selectFrom('crypto_withdrawals')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
    },

    /** What the job signed of `asset` in the 24 hours before `now` (net, minor units), however it ended but refused. */
    async signedToday(executor: Kysely<DB>, asset: string, now: Date): Promise<bigint> {
      const row = await executor
        .selectFrom('crypto_withdrawals')
        .select(sql<string>`coalesce(sum(amount - fee), 0)::text`.as('total'))
        .where('asset', '=', asset)
        .where('payout_txid', 'is not', null)
        .where('payout_signed_at', '>', new Date(now.getTime() - 86_400_000))
        .executeTakeFirstOrThrow();
      return BigInt(row.total);
    },
  };
}

export type PayoutRepository = ReturnType<typeof createPayoutRepository>;
