import { sql, type Kysely } from 'kysely';
import type { CandleResolution } from '@florin/contracts';
import type { DB } from '../../db/schema.js';

export type CoinRow = {
  coin_id: string;
  asset: string;
  name: string;
  scale: number;
  platform_fee: string | null;
  ask_spread: string;
  bid_spread: string;
  amount_min: string;
  amount_max: string | null;
};

const PERIOD_SECONDS: Record<CandleResolution, number> = { minute: 60, hour: 3600, day: 86_400 };

export type TickRow = { symbol: string; at: Date; price: string };

export type CandleRecord = {
  symbol: string;
  resolution: CandleResolution;
  start_at: Date;
  open: string;
  high: string;
  low: string;
  close: string;
};

export function createMarketRepository(db: Kysely<DB>) {
  return {
    async listActiveCoins(): Promise<CoinRow[]> {
      return db
        .selectFrom('coins')
        .innerJoin('assets', 'assets.code', 'coins.asset')
        .select([
          'coins.coin_id',
          'coins.asset',
          'coins.name',
          'assets.scale',
          'coins.platform_fee',
          'coins.ask_spread',
          'coins.bid_spread',
          'coins.amount_min',
          'coins.amount_max',
        ])
        .where('coins.active', '=', true)
        .orderBy('coins.sort_order')
        .execute();
    },

    async listActiveFiats(): Promise<string[]> {
      const rows = await db
        .selectFrom('currencies')
        .select('code')
        .where('active', '=', true)
        .orderBy('sort_order')
        .execute();
      return rows.map((row) => row.code);
    },

    /**
     * Folds a batch of ticks (at most one per symbol) into their minute, hour
     * and day candles in one statement: the first tick of a period opens it,
     * later ones stretch high and low and move the close.
     */
    async foldTicks(ticks: readonly TickRow[]): Promise<void> {
      if (ticks.length === 0) return;
      await sql`
        INSERT INTO candles (symbol, resolution, start_at, open, high, low, close, last_tick_at)
        SELECT tick.symbol, period.resolution, date_trunc(period.resolution, tick.at, 'UTC'),
               tick.price, tick.price, tick.price, tick.price, tick.at
        FROM unnest(${ticks.map((tick) => tick.symbol)}::text[],
                    ${ticks.map((tick) => tick.at.toISOString())}::timestamptz[],
                    ${ticks.map((tick) => tick.price)}::numeric[]) AS tick (symbol, at, price)
        CROSS JOIN (VALUES ('minute'), ('hour'), ('day')) AS period (resolution)
        ON CONFLICT (symbol, resolution, start_at) DO UPDATE SET
          high = greatest(candles.high, excluded.high),
          low = least(candles.low, excluded.low),
          close = CASE WHEN excluded.last_tick_at >= candles.last_tick_at THEN excluded.close ELSE candles.close END,
          last_tick_at = greatest(candles.last_tick_at, excluded.last_tick_at)
      `.execute(db);
    },

    /**
     * The newest `limit` rows starting at or before `to`, oldest first, each
     * merging `aggregate` consecutive periods (aligned to the unix epoch, so
     * 4-hour rows start at 00:00, 04:00, … UTC).
     */
    async listCandles(query: {
      symbol: string;
      resolution: CandleResolution;
      to: Date;
      limit: number;
      aggregate?: number;
    }): Promise<CandleRecord[]> {
      const aggregate = query.aggregate ?? 1;
      const bucketSeconds = PERIOD_SECONDS[query.resolution] * aggregate;
      const toSeconds = Math.floor(query.to.getTime() / 1000);
      // Bounded below too, so the newest rows never scan the pair's whole minute history.
      const from = new Date((Math.floor(toSeconds / bucketSeconds) - query.limit + 1) * bucketSeconds * 1000);
      const rows = await sql<CandleRecord>`
        SELECT symbol, resolution,
               to_timestamp(floor(extract(epoch FROM start_at) / ${bucketSeconds}) * ${bucketSeconds}) AS start_at,
               (array_agg(open ORDER BY start_at))[1] AS open,
               max(high) AS high,
               min(low) AS low,
               (array_agg(close ORDER BY start_at DESC))[1] AS close
        FROM candles
        WHERE symbol = ${query.symbol} AND resolution = ${query.resolution}
          AND start_at >= ${from.toISOString()}::timestamptz AND start_at <= ${query.to.toISOString()}::timestamptz
        GROUP BY symbol, resolution, 3
        ORDER BY 3 DESC
        LIMIT ${query.limit}
      `.execute(db);
      return rows.rows.reverse();
    },

    /** The last stored close of every pair (the day row's close is the latest tick's price). */
    async listLastCloses(): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('candles')
        .distinctOn('symbol')
        .select(['symbol', 'close'])
        .where('resolution', '=', 'day')
        .orderBy('symbol')
        .orderBy('start_at', 'desc')
        .execute();
      return new Map(rows.map((row) => [row.symbol, row.close]));
    },

    async hasAnyCandle(): Promise<boolean> {
      const row = await db.selectFrom('candles').select('symbol').limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /** Bulk insert for the history backfill; rows already there are left alone. */
    async insertCandles(candles: readonly CandleRecord[]): Promise<void> {
      if (candles.length === 0) return;
      await sql`
        INSERT INTO candles (symbol, resolution, start_at, open, high, low, close, last_tick_at)
        SELECT * , start_at FROM unnest(
          ${candles.map((candle) => candle.symbol)}::text[],
          ${candles.map((candle) => candle.resolution)}::text[],
          ${candles.map((candle) => candle.start_at.toISOString())}::timestamptz[],
          ${candles.map((candle) => candle.open)}::numeric[],
          ${candles.map((candle) => candle.high)}::numeric[],
          ${candles.map((candle) => candle.low)}::numeric[],
          ${candles.map((candle) => candle.close)}::numeric[]
        ) AS candle (symbol, resolution, start_at, open, high, low, close)
        ON CONFLICT DO NOTHING
      `.execute(db);
    },
  };
}

export type MarketRepository = ReturnType<typeof createMarketRepository>;
