import {
  ADMIN_TRADING_TEXTS,
  AppError,
  type CustomFeePlan,
  type FeeScheduleRow,
  type UpdateFeeScheduleBody,
} from '@florin/contracts';
import {
  checkFeeColumn,
  FEE_TIERS,
  formatAmount,
  TIER_VOLUME_BOUNDS,
  type FeeSchedule,
  type FeeTier,
} from '@florin/domain';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { FeePlanRow } from './admin-repository.js';
import { checkRevision, percentOf, revisionOf, type TradingAdminDeps } from './admin-shared.js';
import type { Answer } from './shared.js';

function toFeePlan(row: FeePlanRow): CustomFeePlan {
  return {
    user_id: row.id,
    email: row.email,
    name: `${row.first_name} ${row.last_name}`.trim(),
    platform: row.platform,
    custom_fee_percent: percentOf(row.custom_fee_percent),
  };
}

/** The schedule beside the tiers' volume bands, as the back office shows it. */
function scheduleRows(schedule: FeeSchedule): FeeScheduleRow[] {
  return TIER_VOLUME_BOUNDS.map((band) => ({
    tier: band.tier,
    volume_from: formatAmount(band.from, 'GBP'),
    volume_to: band.to === null ? null : formatAmount(band.to, 'GBP'),
    instant_percent: schedule[1][band.tier],
    trading_percent: schedule[2][band.tier],
  }));
}

/** Both columns as the save sends them: what the audit records and the schedule's revision is taken of. */
function scheduleColumns(schedule: FeeSchedule) {
  return {
    instant_percents: FEE_TIERS.map((tier) => schedule[1][tier]),
    trading_percents: FEE_TIERS.map((tier) => schedule[2][tier]),
  };
}

/** Tier 1 to Tier 4 as typed → the schedule's column. */
function feeColumn([one, two, three, four]: readonly [string, string, string, string]): Record<
  FeeTier,
  string
> {
  return { 1: one, 2: two, 3: three, 4: four };
}

/** The fee schedule by tier and the customers on a Custom fee plan, as finance edits them. */
export function createFeesAdmin(deps: TradingAdminDeps) {
  const { db, repository } = deps;

  return {
    async feePlans(): Promise<{
      data: { schedule: FeeScheduleRow[]; schedule_revision: string; custom: CustomFeePlan[] };
    }> {
      const current = await deps.feeSchedule.stored();
      const custom = (await repository.listCustomFeePlans()).map(toFeePlan);
      return {
        data: {
          schedule: scheduleRows(current),
          schedule_revision: revisionOf(scheduleColumns(current)),
          custom,
        },
      };
    },

    /**
     * Both columns at once, checked whole (each fee above 0 and at most 10 %, no tier dearer than the one
     * below it) and audited with the reason; this instance's next quote uses it, the others' within seconds.
     */
    async updateFeeSchedule(
      actor: AuditActor,
      body: UpdateFeeScheduleBody,
    ): Promise<Answer<FeeScheduleRow[]>> {
      const schedule: FeeSchedule = {
        1: feeColumn(body.instant_percents),
        2: feeColumn(body.trading_percents),
      };
      const errors: Record<string, string[]> = {};
      for (const [platform, field] of [
        [1, 'instant_percents'],
        [2, 'trading_percents'],
      ] as const) {
        for (const [tier, problem] of Object.entries(checkFeeColumn(schedule[platform]))) {
          errors[`${field}.${Number(tier) - 1}`] = [
            problem === 'above_lower_tier'
              ? ADMIN_TRADING_TEXTS.scheduleAboveLowerTier
              : ADMIN_TRADING_TEXTS.schedulePercent,
          ];
        }
      }
      const first = Object.values(errors)[0]?.[0];
      if (first) throw new AppError('VALIDATION_FAILED', first, errors);
      const stored = await db.transaction().execute(async (trx) => {
        const before = await deps.feeSchedule.lock(trx);
        checkRevision(scheduleColumns(before), body.revision);
        const after = await deps.feeSchedule.replace(trx, schedule);
        await recordAudit(trx, {
          ...actor,
          action: 'trading.fee_schedule_updated',
          targetType: 'fee_schedule',
          targetId: null,
          before: scheduleColumns(before),
          after: { ...scheduleColumns(after), reason: body.reason },
        });
        return after;
      });
      deps.feeSchedule.forget();
      return { data: scheduleRows(stored), message: ADMIN_TRADING_TEXTS.scheduleSaved };
    },

    async setCustomFeePlan(
      actor: AuditActor,
      userId: number,
      body: { custom_fee_percent: string | null; reason: string },
    ): Promise<Answer<CustomFeePlan>> {
      const after = await db.transaction().execute(async (trx) => {
        const before = await repository.lockCustomer(trx, userId);
        if (!before) throw new AppError('NOT_FOUND', ADMIN_TRADING_TEXTS.customerNotFound);
        const row = await repository.setCustomFeePercent(trx, userId, body.custom_fee_percent);
        await recordAudit(trx, {
          ...actor,
          action: body.custom_fee_percent === null ? 'trading.fee_plan_cleared' : 'trading.fee_plan_set',
          targetType: 'user',
          targetId: userId,
          before: { custom_fee_percent: percentOf(before.custom_fee_percent) },
          after: { custom_fee_percent: percentOf(row.custom_fee_percent), reason: body.reason },
        });
        return row;
      });
      return {
        data: toFeePlan(after),
        message:
          body.custom_fee_percent === null
            ? ADMIN_TRADING_TEXTS.customPlanCleared
            : ADMIN_TRADING_TEXTS.customPlanSet,
      };
    },
  };
}
