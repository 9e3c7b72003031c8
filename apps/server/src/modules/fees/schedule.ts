import { FEE_TIERS, type FeeSchedule, type FeeTier, type TradingPlatform } from '@florin/domain';
import type { Kysely } from 'kysely';
import { NO_CACHE_SIGNALS, type CacheSignals } from '../../db/cached-read.js';
import type { DB } from '../../db/schema.js';

/**
 * How long an instance prices by the schedule it read: the instance that saves a change forgets it at once,
 * the others when its trigger's NOTIFY reaches them (decision 133), or within this long if they do not hear it.
 */
const SCHEDULE_CACHE_MS = 5_000;

/**
 * The fee schedule staff keep in the back office (`fee_schedule`), read by every quote through a short cache.
 * `signals`: the cache triggers' NOTIFY (decision 133), which makes every instance forget it at once.
 */
export function createFeeScheduleStore(
  db: Kysely<DB>,
  now: () => number = Date.now,
  signals: CacheSignals = NO_CACHE_SIGNALS,
) {
  let cached: { schedule: FeeSchedule; readAt: number } | null = null;
  // Counts `forget` calls: a read that began before a change committed must not be kept after it.
  let generation = 0;
  const forget = () => {
    cached = null;
    generation += 1;
  };
  signals.subscribe((topic) => {
    if (topic === 'fee_schedule' || topic === 'everything') forget();
  });

  /** The whole schedule; `forUpdate` locks its rows, so two staff saving at once apply one after the other. */
  async function read(executor: Kysely<DB>, forUpdate = false): Promise<FeeSchedule> {
    const rows = await executor
      .selectFrom('fee_schedule')
      .select(['platform', 'tier', 'fee_percent'])
      .$if(forUpdate, (query) => query.forUpdate())
      .execute();
    const fee = (platform: TradingPlatform, tier: FeeTier): string => {
      const row = rows.find((candidate) => candidate.platform === platform && candidate.tier === tier);
      if (!row) throw new Error(`the fee schedule has no fee for platform ${platform}, tier ${tier}`);
      return row.fee_percent;
    };
    const column = (platform: TradingPlatform) => ({
      1: fee(platform, 1),
      2: fee(platform, 2),
      3: fee(platform, 3),
      4: fee(platform, 4),
    });
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

    /** As stored now, past the cache: what the back office shows, edits and takes the revision of. */
    stored: (): Promise<FeeSchedule> => read(db),

    /** Read under a lock for a change, in the caller's transaction. */
    lock: (trx: Kysely<DB>): Promise<FeeSchedule> => read(trx, true),

    /** Replaces the whole schedule in the caller's transaction, answering it as stored; `forget` once it commits. */
    async replace(trx: Kysely<DB>, schedule: FeeSchedule): Promise<FeeSchedule> {
      const updatedAt = new Date();
      const rows = ([1, 2] as const).flatMap((platform) =>
        FEE_TIERS.map((tier) => ({
          platform,
          tier,
          fee_percent: schedule[platform][tier],
          updated_at: updatedAt,
        })),
      );
      // One statement for the eight fees: each row is there already (migration 0029), so each is updated.
      await trx
        .insertInto('fee_schedule')
        .values(rows)
        .onConflict((conflict) =>
          conflict.columns(['platform', 'tier']).doUpdateSet((update) => ({
            fee_percent: update.ref('excluded.fee_percent'),
            updated_at: update.ref('excluded.updated_at'),
          })),
        )
        .execute();
      return read(trx);
    },

    /** After a change commits: this instance prices by the new schedule from the next quote. */
    forget,
  };
}

export type FeeScheduleStore = ReturnType<typeof createFeeScheduleStore>;
