import { sql, type Kysely, type QueryCreator, type RawBuilder, type Selectable } from 'kysely';
import { createCachedRead, NO_CACHE_SIGNALS, type CacheSignals } from '../../db/cached-read.js';
import type { SqlFact } from '../../db/sql-fact.js';

/** ledger_post_journal's call (the ledger's postJournalWithin), whose journal_id a trade's row takes. */
type JournalCall = RawBuilder<{ journal_id: string; replayed: boolean }>;
import { insertWithDrawnIds } from '../../db/drawn-ids.js';
import type { DB, OrdersTable, TradeQuotesTable, TradesTable, RowOf } from '../../db/schema.js';
import { addToTradingVolumes } from '../trading-volume/service.js';

export type QuoteRow = Selectable<TradeQuotesTable>;
export type TradeRow = RowOf<TradesTable>;
export type OrderRow = RowOf<OrdersTable>;

/** The customer facts trading reads: may they trade, on which platform, at which fee. */
export type Trader = {
  id: number;
  first_name: string;
  email: string;
  status: number;
  block_status: number;
  is_sow_reset: number;
  /** From then on the account may only withdraw (issue 13): no trade, not even its auto trades. */
  terminated_at: Date | null;
  platform: number;
  custom_fee_percent: string | null;
  login_notifications: boolean;
  loginout_notifications: boolean;
};

export type TradeCoin = {
  asset: string;
  coin_id: string;
  active: boolean;
  disable_buy: boolean;
  disable_sell: boolean;
  amount_min: string;
  amount_max: string | null;
  platform_fee: string | null;
};

export type TradingRepository = ReturnType<typeof createTradingRepository>;

type NewTrade = Omit<TradeRow, 'id' | 'created_at'>;

/** The columns a trade is written with, each with its PostgreSQL type for the array that carries it. */
const TRADE_COLUMNS = [
  ['user_id', 'integer'],
  ['kind', 'text'],
  ['side', 'text'],
  ['asset', 'text'],
  ['fiat', 'text'],
  ['price', 'text'],
  ['quantity', 'numeric'],
  ['notional', 'numeric'],
  ['fee', 'numeric'],
  ['total', 'numeric'],
  ['fee_percent', 'text'],
  ['gbp_value', 'numeric'],
  ['quote_id', 'text'],
  ['order_id', 'bigint'],
  ['idempotency_key', 'text'],
  ['request_hash', 'text'],
  ['journal_id', 'bigint'],
] as const satisfies readonly (readonly [keyof NewTrade, string])[];

/**
 * Trades in one statement of one array a column, as the ledger writes entries: a tick's fills are hundreds of
 * trades, and a VALUES list would send 17 parameters a trade for PostgreSQL to parse and type one by one.
 * The same statement adds them to their customers' tier volumes (issue 43): no trade without its total.
 */
function writeTrades(
  executor: Kysely<DB>,
  values: readonly NewTrade[],
  options: {
    ids?: readonly string[];
    journal?: JournalCall;
    alsoWrite?: readonly RawBuilder<unknown>[];
  } = {},
) {
  const { ids, journal, alsoWrite = [] } = options;
  const arrays = TRADE_COLUMNS.map(([column, type]) =>
    // One trade posted by the same statement (insertTrade) takes its journal's id from the call.
    column === 'journal_id' && journal
      ? sql`ARRAY[(SELECT journal_id FROM journal)]::bigint[]`
      : sql`${values.map((row) => row[column])}::${sql.raw(type)}[]`,
  );
  const columns = TRADE_COLUMNS.map(([column]) => column);
  let writer: QueryCreator<DB> = journal ? executor.with('journal', () => sql`(${journal})`) : executor;
  // Other modules' inserts that belong to the trade (its mail and notification), in the same statement.
  alsoWrite.forEach((statement, index) => {
    writer = writer.with(`also_${index}`, () => sql`(${statement})`);
  });
  return (
    writer
      .with('inserted', (db) => {
        const insert = db.insertInto('trades');
        // Ids drawn by the caller (the fills, decision 136): migration 0026's trigger is skipped, and an id an
        // older trade has leaves its row out, for the caller to draw again.
        return (
          ids
            ? insert
                .columns(['id', ...columns])
                .expression(sql`SELECT * FROM unnest(${[...ids]}::bigint[], ${sql.join(arrays)})`)
                .onConflict((conflict) => conflict.column('id').doNothing())
            : insert.columns(columns).expression(sql`SELECT * FROM unnest(${sql.join(arrays)})`)
        ).returningAll();
      })
      .with('volumes', () => addToTradingVolumes('inserted'))
      // An instant trade uses its quote up in the same statement (issue 43): no trade without it, nor it without one.
      .with('used', (db) =>
        db
          .updateTable('trade_quotes')
          .set({ executed_at: sql<Date>`now()` })
          .where('id', 'in', (eb) => eb.selectFrom('inserted').select('inserted.quote_id')),
      )
      .selectFrom('inserted')
      .selectAll('inserted')
      // The customer's year total after an order's trade: below the source-of-wealth threshold, nothing to check.
      // Not for a set of fills (they do not read it): the CTE has no index, so each row would scan it whole.
      .select(
        (journal
          ? sql<string>`(SELECT max(volumes.gbp_value)::text FROM volumes WHERE volumes.user_id = inserted.user_id)`
          : sql<string>`NULL::text`
        ).as('year_volume'),
      )
      .execute()
  );
}

/** A set of trades (a tick's fills) in one statement, their ids drawn in it rather than by a trigger a row. */
async function insertTrades(executor: Kysely<DB>, values: readonly NewTrade[]): Promise<TradeRow[]> {
  if (values.length === 0) return [];
  const written = new Map<string, TradeRow>();
  const ids = await insertWithDrawnIds(values, async (drawn) => {
    const rows = await writeTrades(
      executor,
      drawn.map(({ row }) => row),
      { ids: drawn.map(({ id }) => id) },
    );
    for (const { year_volume: _yearVolume, ...trade } of rows) written.set(String(trade.id), trade);
    return rows.map((row) => String(row.id));
  });
  return ids.flatMap((id) => written.get(id) ?? []);
}

/**
 * Locks the customer's quote and the customer (one customer's orders are decided one at a time) in one
 * statement (issue 43); undefined when there is no such quote of theirs.
 */
async function lockQuoteAndTrader(
  executor: Kysely<DB>,
  id: string,
  userId: number,
  mayBeAskedBySourceOfWealth: SqlFact<boolean>,
): Promise<{ quote: QuoteRow & { expired: boolean }; trader: Trader; mayBeAsked: boolean } | undefined> {
  const row = await executor
    .selectFrom('trade_quotes')
    .innerJoin('users', 'users.id', 'trade_quotes.user_id')
    .selectAll('trade_quotes')
    .select(sql<boolean>`trade_quotes.expires_at <= now()`.as('expired'))
    .select(mayBeAskedBySourceOfWealth.select.as('may_be_asked'))
    .select([
      'users.first_name',
      'users.email',
      'users.status',
      'users.block_status',
      'users.is_sow_reset',
      'users.terminated_at',
      'users.platform',
      'users.custom_fee_percent',
      'users.login_notifications',
      'users.loginout_notifications',
    ])
    .where('trade_quotes.id', '=', id)
    .where('users.id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return undefined;
  const { first_name, email, status, block_status, is_sow_reset, terminated_at, platform, ...rest } = row;
  const { custom_fee_percent, login_notifications, loginout_notifications, may_be_asked, ...quote } = rest;
  return {
    quote,
    mayBeAsked: mayBeAskedBySourceOfWealth.read(may_be_asked),
    trader: {
      id: userId,
      first_name,
      email,
      status,
      block_status,
      is_sow_reset,
      terminated_at,
      platform,
      custom_fee_percent,
      login_notifications,
      loginout_notifications,
    },
  };
}

function traders(executor: Kysely<DB>) {
  return executor
    .selectFrom('users')
    .select([
      'id',
      'first_name',
      'email',
      'status',
      'block_status',
      'is_sow_reset',
      'terminated_at',
      'platform',
      'custom_fee_percent',
      'login_notifications',
      'loginout_notifications',
    ]);
}

/**
 * The customer with facts other modules own, in one statement (issue 43: a quote's reads). Each fact
 * is its module's scalar subquery, read back by that module's `read`.
 */
async function findTraderWithFacts<F extends Record<string, SqlFact<unknown>>>(
  executor: Kysely<DB>,
  userId: number,
  facts: F,
): Promise<{ trader: Trader; facts: { [K in keyof F]: ReturnType<F[K]['read']> } } | undefined> {
  const names = Object.keys(facts);
  const row = await traders(executor)
    .select(names.map((name, index) => (facts[name] as SqlFact<unknown>).select.as(`fact_${index}`)))
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const read: Record<string, unknown> = {};
  const trader: Record<string, unknown> = { ...row };
  names.forEach((name, index) => {
    read[name] = (facts[name] as SqlFact<unknown>).read(trader[`fact_${index}`]);
    delete trader[`fact_${index}`];
  });
  return { trader: trader as Trader, facts: read as { [K in keyof F]: ReturnType<F[K]['read']> } };
}

/** How long an instance may quote by the coins it read (decision 133); a change drops them at once. */
export const COINS_CACHE_SECONDS = 30;

/** `signals`: the cache triggers' NOTIFY (decision 133); without them the coins are read every time. */
export function createTradingRepository(db: Kysely<DB>, signals: CacheSignals = NO_CACHE_SIGNALS) {
  function coins(executor: Kysely<DB>): Promise<TradeCoin[]> {
    return executor
      .selectFrom('coins')
      .select([
        'asset',
        'coin_id',
        'active',
        'disable_buy',
        'disable_sell',
        'amount_min',
        'amount_max',
        'platform_fee',
      ])
      .orderBy('sort_order')
      .execute();
  }
  const cachedCoins = createCachedRead({
    topic: 'coins',
    maxAgeMs: COINS_CACHE_SECONDS * 1000,
    signals,
    load: () => coins(db),
  });

  return {
    findTrader(userId: number, executor: Kysely<DB> = db): Promise<Trader | undefined> {
      return traders(executor).where('id', '=', userId).executeTakeFirst();
    },

    findTraderWithFacts: <F extends Record<string, SqlFact<unknown>>>(userId: number, facts: F) =>
      findTraderWithFacts(db, userId, facts),

    findTraders(executor: Kysely<DB>, userIds: readonly number[]): Promise<Trader[]> {
      return traders(executor)
        .where('id', '=', sql<number>`any(${[...userIds]}::integer[])`)
        .execute();
    },

    /** Locks the customer's row: one customer's orders are decided one at a time. */
    lockTrader(executor: Kysely<DB>, userId: number): Promise<Trader | undefined> {
      return traders(executor).where('id', '=', userId).forUpdate().executeTakeFirst();
    },

    /** Through the cache, but in a transaction as that transaction sees them. */
    listCoins(executor: Kysely<DB> = db): Promise<TradeCoin[]> {
      return executor === db ? cachedCoins.get() : coins(executor);
    },

    async insertQuote(values: Omit<QuoteRow, 'executed_at' | 'created_at'>): Promise<QuoteRow> {
      return db.insertInto('trade_quotes').values(values).returningAll().executeTakeFirstOrThrow();
    },

    lockQuoteAndTrader,

    /** One trade, with its customer's year total (pence) after it. */
    /**
     * One trade, its journal posted by the same statement (`journal`: the ledger's postJournalWithin call), and
     * `alsoWrite`, other modules' inserts that go with it (its mail).
     */
    async insertTrade(
      executor: Kysely<DB>,
      values: Omit<NewTrade, 'journal_id'>,
      written: { journal: JournalCall; alsoWrite: readonly RawBuilder<unknown>[] },
    ): Promise<{ trade: TradeRow; yearVolume: bigint }> {
      const [row] = await writeTrades(executor, [{ ...values, journal_id: '' }], written);
      if (!row) throw new Error('trade not written');
      const { year_volume: yearVolume, ...trade } = row;
      return { trade, yearVolume: BigInt(yearVolume) };
    },

    insertTrades,

    findTradeByKey(executor: Kysely<DB>, userId: number, key: string): Promise<TradeRow | undefined> {
      return executor
        .selectFrom('trades')
        .selectAll()
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
    },

    /** The customer's trades of a coin in the order they happened: the pooled cost basis is built from them. */
    listTradesOf(userId: number, asset?: string): Promise<TradeRow[]> {
      let query = db.selectFrom('trades').selectAll().where('user_id', '=', userId);
      if (asset) query = query.where('asset', '=', asset);
      return query.orderBy('seq').execute();
    },

    /** The coins the customer has a balance of (posted, holds included), in minor units. */
    async coinHoldings(userId: number): Promise<{ asset: string; posted: bigint }[]> {
      const rows = await db
        .selectFrom('accounts')
        .innerJoin('assets', 'assets.code', 'accounts.asset')
        .select(['accounts.asset', sql<string>`sum(accounts.posted)::text`.as('posted')])
        .where('accounts.owner_user_id', '=', String(userId))
        .where('assets.kind', '=', 'coin')
        .groupBy('accounts.asset')
        .execute();
      return rows
        .map((row) => ({ asset: row.asset, posted: BigInt(row.posted) }))
        .filter((row) => row.posted > 0n);
    },

    // ---- orders ----

    findOrderByKey(executor: Kysely<DB>, userId: number, key: string): Promise<OrderRow | undefined> {
      return executor
        .selectFrom('orders')
        .selectAll()
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
    },

    insertOrder(
      executor: Kysely<DB>,
      values: Omit<OrderRow, 'id' | 'created_at' | 'filled_at' | 'cancelled_at'>,
    ): Promise<OrderRow> {
      return executor.insertInto('orders').values(values).returningAll().executeTakeFirstOrThrow();
    },

    findOrder(id: string, executor: Kysely<DB> = db): Promise<OrderRow | undefined> {
      return executor.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
    },

    lockOrder(executor: Kysely<DB>, id: string): Promise<OrderRow | undefined> {
      return executor.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    /** The open ones of these orders, locked in write order (the order every writer of several orders locks them in). */
    lockOpenOrders(executor: Kysely<DB>, ids: readonly string[]): Promise<OrderRow[]> {
      return executor
        .selectFrom('orders')
        .selectAll()
        .where('id', '=', sql<string>`any(${[...ids]}::bigint[])`)
        .where('status', '=', 'open')
        .orderBy('seq')
        .forUpdate()
        .execute();
    },

    async markOrdersFilled(executor: Kysely<DB>, ids: readonly string[]): Promise<void> {
      await executor
        .updateTable('orders')
        .set({ status: 'filled', filled_at: new Date() })
        .where('id', '=', sql<string>`any(${[...ids]}::bigint[])`)
        .execute();
    },

    async updateOrder(
      executor: Kysely<DB>,
      id: string,
      values: Partial<Pick<OrderRow, 'status' | 'filled_at' | 'cancelled_at'>>,
    ): Promise<OrderRow> {
      return executor
        .updateTable('orders')
        .set(values)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async countOrders(userId: number, status: string, asset?: string): Promise<number> {
      let query = db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('user_id', '=', userId)
        .where('status', '=', status as OrderRow['status']);
      if (asset) query = query.where('asset', '=', asset);
      return Number((await query.executeTakeFirstOrThrow()).count);
    },

    listOrders(userId: number, status: string, asset: string | undefined, limit: number, offset: number) {
      let query = db
        .selectFrom('orders')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', '=', status as OrderRow['status']);
      if (asset) query = query.where('asset', '=', asset);
      return query.orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(limit).offset(offset).execute();
    },

    /**
     * Open orders of a pair that this customer's price has reached at `mid`:
     * a buy limit at or above their ask, a sell limit at or below their bid,
     * a stop at or above their bid (it sells once the bid falls to it). Each
     * order's bid and ask come from the coin's spreads times the multiplier
     * fixed on the order, computed in SQL so one query finds them all. In
     * the order they were placed, from after `afterSeq`: a pass reads on
     * from the last order it read.
     */
    listCrossedOrders(
      asset: string,
      fiat: string,
      mid: string,
      limit: number,
      afterSeq: string | null = null,
    ) {
      const ask = sql<string>`(${mid}::numeric * (1 + coins.ask_spread / 100 * orders.spread_multiplier::numeric))`;
      const bid = sql<string>`(${mid}::numeric * (1 - coins.bid_spread / 100 * orders.spread_multiplier::numeric))`;
      return db
        .selectFrom('orders')
        .innerJoin('coins', 'coins.asset', 'orders.asset')
        .select(['orders.id', 'orders.user_id', 'orders.seq'])
        .where('orders.asset', '=', asset)
        .$if(afterSeq !== null, (query) => query.where('orders.seq', '>', afterSeq as string))
        .where('orders.fiat', '=', fiat)
        .where('orders.status', '=', 'open')
        .where((eb) =>
          eb.or([
            eb.and([
              eb('orders.type', '=', 'limit'),
              eb('orders.side', '=', 'buy'),
              sql<boolean>`orders.price::numeric >= ${ask}`,
            ]),
            eb.and([
              eb('orders.type', '=', 'limit'),
              eb('orders.side', '=', 'sell'),
              sql<boolean>`orders.price::numeric <= ${bid}`,
            ]),
            eb.and([eb('orders.type', '=', 'stop'), sql<boolean>`orders.price::numeric >= ${bid}`]),
          ]),
        )
        .orderBy('orders.seq')
        .limit(limit)
        .execute();
    },

    listExpiredOrders(limit: number) {
      return db
        .selectFrom('orders')
        .select(['id'])
        .where('status', '=', 'open')
        .where('expires_at', '<=', sql<Date>`now()`)
        .orderBy('seq')
        .limit(limit)
        .execute();
    },
  };
}
