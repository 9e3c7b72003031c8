import { sql, type Kysely } from 'kysely';
import type { AutoTradeConversionStatus, DB } from '../../db/schema.js';

export type AutoTradeRow = {
  id: number;
  user_id: number;
  type: 'buy' | 'sell';
  asset: string;
  created_at: Date;
  coin_name: string;
};

export type AutoTradeCustomer = {
  id: number;
  has_totp: boolean;
  platform_2fa_mobile: boolean;
};

/** A credited deposit an active auto trade has not looked at yet. */
export type PendingDeposit = {
  auto_trade_id: number;
  user_id: number;
  type: 'buy' | 'sell';
  asset: string;
  source: 'fiat' | 'crypto';
  deposit_id: string;
  /** The deposit's asset: the fiat currency for a buy, the coin for a sell. */
  deposit_asset: string;
  amount: string;
};

export type AutoTradeRepository = ReturnType<typeof createAutoTradeRepository>;

export function createAutoTradeRepository(db: Kysely<DB>) {
  const activeOf = (executor: Kysely<DB>, userId: number) =>
    executor
      .selectFrom('auto_trades')
      .innerJoin('coins', 'coins.asset', 'auto_trades.asset')
      .select([
        'auto_trades.id',
        'auto_trades.user_id',
        'auto_trades.type',
        'auto_trades.asset',
        'auto_trades.created_at',
        'coins.name as coin_name',
      ])
      .where('auto_trades.user_id', '=', userId)
      .where('auto_trades.cancelled_at', 'is', null)
      .orderBy('auto_trades.seq');

  return {
    async findCustomer(userId: number): Promise<AutoTradeCustomer | undefined> {
      return db
        .selectFrom('users')
        .select(['id', sql<boolean>`totp_secret_encrypted IS NOT NULL`.as('has_totp'), 'platform_2fa_mobile'])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    async listActive(userId: number, executor: Kysely<DB> = db): Promise<AutoTradeRow[]> {
      return activeOf(executor, userId).execute();
    },

    /** The customer's row locked: two requests at once count the same active entries. */
    async lockCustomer(trx: Kysely<DB>, userId: number): Promise<void> {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    },

    async insert(trx: Kysely<DB>, row: { user_id: number; type: 'buy' | 'sell'; asset: string }) {
      return trx.insertInto('auto_trades').values(row).returning('id').executeTakeFirstOrThrow();
    },

    async cancel(userId: number, id: number): Promise<boolean> {
      const result = await db
        .updateTable('auto_trades')
        .set({ cancelled_at: new Date() })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('cancelled_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Credited deposits that arrived after an active auto trade was made and
     * that no auto trade has looked at: fiat deposits (any currency; credited
     * when recorded, or when staff resolved them out of suspense) for auto
     * buys, deposits of the coin for auto sells. Oldest first.
     */
    async listPendingDeposits(limit: number): Promise<PendingDeposit[]> {
      const fiat = await db
        .selectFrom('auto_trades')
        .innerJoin('fiat_deposits', 'fiat_deposits.user_id', 'auto_trades.user_id')
        .select([
          'auto_trades.id as auto_trade_id',
          'auto_trades.user_id',
          'auto_trades.type',
          'auto_trades.asset',
          sql<'fiat'>`'fiat'`.as('source'),
          sql<string>`fiat_deposits.id::text`.as('deposit_id'),
          'fiat_deposits.currency as deposit_asset',
          'fiat_deposits.amount',
        ])
        .where('auto_trades.type', '=', 'buy')
        .where('auto_trades.cancelled_at', 'is', null)
        .where('fiat_deposits.status', '=', 'credited')
        .where(
          sql<boolean>`coalesce(fiat_deposits.resolved_at, fiat_deposits.created_at) >= auto_trades.created_at`,
        )
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('auto_trade_conversions')
                .select('auto_trade_conversions.id')
                .where('auto_trade_conversions.source', '=', 'fiat')
                .where('auto_trade_conversions.deposit_id', '=', sql<string>`fiat_deposits.id::text`),
            ),
          ),
        )
        .orderBy('fiat_deposits.seq')
        .limit(limit)
        .execute();
      const crypto = await db
        .selectFrom('auto_trades')
        .innerJoin('crypto_deposits', (join) =>
          join
            .onRef('crypto_deposits.user_id', '=', 'auto_trades.user_id')
            .onRef('crypto_deposits.asset', '=', 'auto_trades.asset'),
        )
        .select([
          'auto_trades.id as auto_trade_id',
          'auto_trades.user_id',
          'auto_trades.type',
          'auto_trades.asset',
          sql<'crypto'>`'crypto'`.as('source'),
          sql<string>`crypto_deposits.id::text`.as('deposit_id'),
          'crypto_deposits.asset as deposit_asset',
          'crypto_deposits.amount',
        ])
        .where('auto_trades.type', '=', 'sell')
        .where('auto_trades.cancelled_at', 'is', null)
        .where('crypto_deposits.status', '=', 'credited')
        .where(
          sql<boolean>`coalesce(crypto_deposits.credited_at, crypto_deposits.created_at) >= auto_trades.created_at`,
        )
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('auto_trade_conversions')
                .select('auto_trade_conversions.id')
                .where('auto_trade_conversions.source', '=', 'crypto')
                .where('auto_trade_conversions.deposit_id', '=', sql<string>`crypto_deposits.id::text`),
            ),
          ),
        )
        .orderBy('crypto_deposits.seq')
        .limit(limit)
        .execute();
      return [...fiat, ...crypto];
    },

    /** Claims a deposit for conversion; false when another run (or instance) already has it. */
    async claim(deposit: PendingDeposit): Promise<string | undefined> {
      const row = await db
        .insertInto('auto_trade_conversions')
        .values({
          auto_trade_id: deposit.auto_trade_id,
          user_id: deposit.user_id,
          source: deposit.source,
          deposit_id: deposit.deposit_id,
          status: 'pending',
        })
        .onConflict((conflict) => conflict.columns(['source', 'deposit_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    async finish(
      id: string,
      outcome: {
        status: Exclude<AutoTradeConversionStatus, 'pending'>;
        trade_id: string | null;
        reason: string | null;
      },
    ): Promise<void> {
      await db
        .updateTable('auto_trade_conversions')
        .set({ ...outcome, finished_at: new Date() })
        .where('id', '=', id)
        .execute();
    },

    async setQuote(id: string, quoteId: string): Promise<void> {
      await db
        .updateTable('auto_trade_conversions')
        .set({ quote_id: quoteId })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Conversions left pending by a run that stopped (a crash, a restart)
     * more than `staleSeconds` ago, re-claimed: of several instances one gets each.
     */
    async reclaimStale(staleSeconds: number, limit: number) {
      return db
        .updateTable('auto_trade_conversions')
        .set({ claimed_at: sql<Date>`now()` })
        .where(
          'id',
          'in',
          db
            .selectFrom('auto_trade_conversions')
            .select('id')
            .where('status', '=', 'pending')
            .where('claimed_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)
            .orderBy('seq')
            .limit(limit),
        )
        .where('status', '=', 'pending')
        .where('claimed_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)
        .returning(['id', 'auto_trade_id', 'user_id', 'source', 'deposit_id', 'quote_id'])
        .execute();
    },

    /** The trade a quote became, if it was executed (a read of the trading module's rows). */
    async findTradeOfQuote(quoteId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('trades')
        .select('id')
        .where('quote_id', '=', quoteId)
        .executeTakeFirst();
      return row?.id;
    },

    async findAutoTrade(id: number) {
      return db
        .selectFrom('auto_trades')
        .select(['id', 'user_id', 'type', 'asset'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async findDeposit(source: 'fiat' | 'crypto', depositId: string) {
      return source === 'fiat'
        ? db
            .selectFrom('fiat_deposits')
            .select(['currency as asset', 'amount'])
            .where('id', '=', depositId)
            .executeTakeFirst()
        : db
            .selectFrom('crypto_deposits')
            .select(['asset', 'amount'])
            .where('id', '=', depositId)
            .executeTakeFirst();
    },

    async listConversions(userId: number) {
      return db
        .selectFrom('auto_trade_conversions')
        .select(['source', 'deposit_id', 'status', 'trade_id', 'reason'])
        .where('user_id', '=', userId)
        .orderBy('seq')
        .execute();
    },
  };
}
