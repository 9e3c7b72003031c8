import { sql, type Kysely, type RawBuilder } from 'kysely';
import { SOURCE_OF_WEALTH_THRESHOLD_GBP } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { z } from 'zod';
import type { DB } from '../../db/schema.js';
import type { SqlFact } from '../../db/sql-fact.js';

export { tradingVolumeDomainCheck } from './domain-check.js';

const SOURCE_OF_WEALTH_THRESHOLD_PENCE = parseAmount(String(SOURCE_OF_WEALTH_THRESHOLD_GBP), 'GBP');

/** This calendar year in the database's time zone (UTC on our servers), as the trades' years are counted. */
const THIS_YEAR = sql<number>`extract(year FROM now())::integer`;

/**
 * Adds the trades a statement inserts to their customers' running totals (migration 0035): the body of a
 * common table expression beside the insert, whose rows (user_id, created_at, gbp_value) the CTE `inserted`
 * names, so the trades and their totals are written by one statement and cannot part. One row a customer and
 * year however many trades, taken in key order so that two passes lock shared rows in the same order.
 */
export function addToTradingVolumes(inserted: string): RawBuilder<Record<string, unknown>> {
  // In parentheses: Kysely writes a raw CTE body as it is.
  return sql`(
    INSERT INTO trading_volumes (user_id, year, gbp_value)
    SELECT user_id, extract(year FROM created_at)::integer, sum(gbp_value)
    FROM ${sql.table(inserted)} GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, year) DO UPDATE SET gbp_value = trading_volumes.gbp_value + excluded.gbp_value
    RETURNING user_id, gbp_value)`;
}

/** Whether a year total (pence) is over spec 000 section 9's £15,000: only then may a trade ask for source of wealth. */
export function isOverSourceOfWealthThreshold(yearVolume: bigint): boolean {
  return yearVolume > SOURCE_OF_WEALTH_THRESHOLD_PENCE;
}

/**
 * This calendar year's trading volume per customer, in pence, from the
 * running totals the trades' insert keeps: trading reads it for the fee tier,
 * KYC and compliance for the £15,000 source-of-wealth threshold (spec 000
 * section 9). A module of its own so that none of them calls back into
 * another for it (issue 42); a primary-key read, however many trades
 * (issue 43).
 */
export function createTradingVolumes(db: Kysely<DB>) {
  function thisYearsTotals(executor: Kysely<DB>) {
    return executor.selectFrom('trading_volumes').where('year', '=', THIS_YEAR);
  }

  return {
    /** This calendar year's trading volume in pence: the tier comes from it. */
    async volumeThisYear(userId: number, executor: Kysely<DB> = db): Promise<bigint> {
      const row = await thisYearsTotals(executor)
        .select('gbp_value')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return BigInt(row?.gbp_value ?? 0);
    },

    /** volumeThisYear, read inside another module's statement (a quote's single read). */
    volumeThisYearFact: (userId: number): SqlFact<bigint> => ({
      select: sql<string>`coalesce((SELECT gbp_value FROM trading_volumes WHERE user_id = ${userId} AND year = ${THIS_YEAR}), 0)::text`,
      read: (raw) => BigInt(z.string().parse(raw)),
    }),

    /** Those of these customers whose trades this calendar year exceed the threshold, in one query. */
    async listOverSourceOfWealthThreshold(
      userIds: readonly number[],
      executor: Kysely<DB> = db,
    ): Promise<number[]> {
      if (userIds.length === 0) return [];
      const rows = await thisYearsTotals(executor)
        .select('user_id')
        .where('user_id', '=', sql<number>`any(${[...userIds]}::integer[])`)
        .where('gbp_value', '>', SOURCE_OF_WEALTH_THRESHOLD_PENCE.toString())
        .execute();
      return rows.map((row) => row.user_id);
    },
  };
}

export type TradingVolumes = ReturnType<typeof createTradingVolumes>;
