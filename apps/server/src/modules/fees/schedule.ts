import { FEE_TIERS, type FeeSchedule, type FeeTier, type TradingPlatform } from '@florin/domain';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * How long an instance prices by the schedule it read: the instance that saves a change forgets it at once,
 * the others within this long (as they do the market's spreads).
 */
const SCHEDULE_CACHE_MS = 5_000;

/** The fee schedule staff keep in the back office (`fee_schedule`), read by every quote through a short cache. */
export function createFeeScheduleStore(db: Kysely<DB>, now: () => number = Date.now) {
  let cached: { schedule: FeeSchedule; readAt: number } | null = null;
  // Counts `forget` calls: a read that began before a change committed must not be kept after it.
  let generation = 0;

  async function read(executor: Kysely<DB>): Promise<FeeSchedule> {
    const rows = await executor
      .selectFrom('fee_schedule')
      .select(['platform', 'tier', 'fee_percent'])
      .execute();
    const column = (platform: TradingPlatform): Record<FeeTier, string> => {
      const percents = new Map(rows.filter((row) => row.platform === platform).map((row) => [row.tier, row]));
      const entry = (tier: FeeTier): string => {
        const row = percents.get(tier);
        if (!row) throw new Error(`the fee schedule has no fee for platform ${platform}, tier ${tier}`);
        return row.fee_percent;
      };
      return { 1: entry(1), 2: entry(2), 3: entry(3), 4: entry(4) };
    };
    return { 1: column(1), 2: column(2) };
  }

  return {
    async current(): Promise<FeeSchedule> {
      if (cached && now() - cached.readAt < SCHEDULE_CACHE_MS) return cached.schedule;
      const [readAt, readIn] = [now(), generation];
      const schedule = await read(db);
      if (readIn === generation) cached = { schedule, readAt };
      return schedule;
    },

    /** Locked for a change: two staff saving at once apply one after the other. */
    async lock(trx: Kysely<DB>): Promise<FeeSchedule> {
      await trx.selectFrom('fee_schedule').select('tier').forUpdate().execute();
      return read(trx);
    },

    /** Replaces the whole schedule in the caller's transaction, answering it as stored; `forget` once it commits. */
    async replace(trx: Kysely<DB>, schedule: FeeSchedule): Promise<FeeSchedule> {
      for (const platform of [1, 2] as const) {
        for (const tier of FEE_TIERS) {
          await trx
            .updateTable('fee_schedule')
            .set({ fee_percent: schedule[platform][tier], updated_at: new Date() })
            .where('platform', '=', platform)
            .where('tier', '=', tier)
            .execute();
        }
      }
      return read(trx);
    },

    /** After a change commits: this instance prices by the new schedule from the next quote. */
    forget(): void {
      cached = null;
      generation += 1;
    },
  };
}

export type FeeScheduleStore = ReturnType<typeof createFeeScheduleStore>;
