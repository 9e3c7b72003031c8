import { sql, type Kysely } from 'kysely';
import { SOURCE_OF_WEALTH_THRESHOLD_GBP } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import type { DB } from '../../db/schema.js';

const SOURCE_OF_WEALTH_THRESHOLD_PENCE = parseAmount(String(SOURCE_OF_WEALTH_THRESHOLD_GBP), 'GBP');

/**
 * This calendar year's trading volume per customer, in pence, from the trades
 * as executed: trading reads it for the fee tier, KYC and compliance for the
 * £15,000 source-of-wealth threshold (spec 000 section 9). A module of its own
 * so that none of them calls back into another for it (issue 42).
 */
export function createTradingVolumes(db: Kysely<DB>) {
  /** This calendar year's trades: the volume the tier and the threshold read, buys and sells alike. */
  function thisYearsTrades(executor: Kysely<DB>) {
    return executor.selectFrom('trades').where('created_at', '>=', sql<Date>`date_trunc('year', now())`);
  }

  return {
    /** This calendar year's trading volume in pence: the tier comes from it. */
    async volumeThisYear(userId: number, executor: Kysely<DB> = db): Promise<bigint> {
      const row = await thisYearsTrades(executor)
        .select(sql<string>`coalesce(sum(gbp_value), 0)::text`.as('total'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return BigInt(row.total);
    },

    /** Those of these customers whose trades this calendar year exceed the threshold, in one query. */
    async listOverSourceOfWealthThreshold(
      userIds: readonly number[],
      executor: Kysely<DB> = db,
    ): Promise<number[]> {
      if (userIds.length === 0) return [];
      const rows = await thisYearsTrades(executor)
        .select('user_id')
        .where('user_id', '=', sql<number>`any(${[...userIds]}::integer[])`)
        .groupBy('user_id')
        .having(sql<string>`sum(gbp_value)`, '>', SOURCE_OF_WEALTH_THRESHOLD_PENCE.toString())
        .execute();
      return rows.map((row) => row.user_id);
    },
  };
}

export type TradingVolumes = ReturnType<typeof createTradingVolumes>;
