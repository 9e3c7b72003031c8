/**
 * A year of trades for one customer, seeded in bulk for the tier-volume measurement (issue 43): each a
 * real balanced journal posted by the ledger's own function (ledger_post_journal, so every invariant of
 * the checker holds after it) and its `trades` row, written by SQL in batches, not through the app (100,000
 * trades over HTTP would take half an hour). The customer's running totals are then recomputed from
 * their trades with migration 0035's backfill, so they agree with the trades however they were written.
 */
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.js';

/** Each seeded trade: a market buy of 0.0005 BTC for £10 at £20,000, no fee. */
const SEED_SATOSHI = 50_000n;
const SEED_PENCE = 1_000n;
const BATCH = 10_000;

export type Seeded = { trades: number; seconds: number; volumePence: string };

/** `count` trades of `userId` (who must hold count × £10), in batches of 10,000 statements' worth each. */
export async function seedTrades(
  db: Kysely<DB>,
  userId: number,
  count: number,
  progress: (done: number) => void,
): Promise<Seeded> {
  const started = performance.now();
  for (let from = 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    await sql`
      WITH posted AS (
        SELECT n, p.journal_id
        FROM generate_series(${from}::integer, ${to}::integer) AS n,
        LATERAL ledger_post_journal(
          'bench:seed:' || ${userId}::integer || ':' || n, 'bench-seed', 'trade', NULL, NULL, '{}'::jsonb,
          ARRAY['GBP', 'GBP', 'BTC', 'BTC'], ARRAY['available', 'inventory', 'inventory', 'available'],
          ARRAY[${userId}::integer, NULL, NULL, ${userId}::integer], ARRAY['', '', '', ''],
          ARRAY[${(-SEED_PENCE).toString()}, ${SEED_PENCE.toString()}, ${(-SEED_SATOSHI).toString()}, ${SEED_SATOSHI.toString()}]::numeric[],
          NULL, NULL) AS p
      )
      INSERT INTO trades (user_id, kind, side, asset, fiat, price, quantity, notional, fee, total, fee_percent,
                          gbp_value, idempotency_key, request_hash, journal_id)
      SELECT ${userId}::integer, 'market', 'buy', 'BTC', 'GBP', '20000', ${SEED_SATOSHI.toString()}::numeric,
             ${SEED_PENCE.toString()}::numeric, 0, ${SEED_PENCE.toString()}::numeric, '0',
             ${SEED_PENCE.toString()}::numeric, 'bench:seed:' || n, 'bench-seed', journal_id
      FROM posted`.execute(db);
    progress(to);
  }
  // Migration 0035's backfill for this customer: the totals are what their trades add up to.
  await sql`
    INSERT INTO trading_volumes (user_id, year, gbp_value)
    SELECT user_id, extract(year FROM created_at)::integer, sum(gbp_value)
    FROM trades WHERE user_id = ${userId}::integer GROUP BY 1, 2
    ON CONFLICT (user_id, year) DO UPDATE SET gbp_value = excluded.gbp_value`.execute(db);
  await sql`ANALYZE`.execute(db);
  const total = await sql<{ volume: string }>`
    SELECT coalesce(sum(gbp_value), 0)::text AS volume FROM trading_volumes
    WHERE user_id = ${userId}::integer AND year = extract(year FROM now())::integer`.execute(db);
  return {
    trades: count,
    seconds: (performance.now() - started) / 1000,
    volumePence: total.rows[0]?.volume ?? '0',
  };
}

export type VolumeReads = { customer: number; sumMs: number; totalMs: number };

/** Median of `times` runs of a read, in ms, after one unmeasured run. */
async function medianMs(times: number, read: () => Promise<unknown>): Promise<number> {
  await read();
  const runs: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await read();
    runs.push(performance.now() - started);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)] ?? Number.NaN;
}

/**
 * The year's volume of a customer read both ways, each timed from the app's side of the connection: the
 * sum over the year's trades that every quote ran before issue 43, and the running total it reads now.
 */
export async function timeVolumeReads(db: Kysely<DB>, userId: number): Promise<VolumeReads> {
  const sumMs = await medianMs(21, () =>
    sql`/* bench */ SELECT coalesce(sum(gbp_value), 0)::text FROM trades
      WHERE user_id = ${userId}::integer AND created_at >= date_trunc('year', now())`.execute(db),
  );
  const totalMs = await medianMs(21, () =>
    sql`/* bench */ SELECT gbp_value FROM trading_volumes
      WHERE user_id = ${userId}::integer AND year = extract(year FROM now())::integer`.execute(db),
  );
  return { customer: userId, sumMs, totalMs };
}
