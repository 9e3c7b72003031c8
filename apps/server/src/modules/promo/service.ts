import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import {
  AppError,
  REFERRALS_ADMIN_TEXTS,
  REFERRALS_TEXTS,
  type AdminPromoCode,
  type PromoCode,
} from '@florin/contracts';
import { parseRatio } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import type { SqlFact } from '../../db/sql-fact.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { PromoRepository } from './repository.js';

export type PromoServiceDeps = {
  db: Kysely<DB>;
  repository: PromoRepository;
  /** The incentives policy (the referrals module's): whether this customer may have promo benefits. */
  isEligible: (userId: number) => Promise<boolean>;
};

export type PromoService = ReturnType<typeof createPromoService>;

type Answer<T> = { data: T; message: string };

const invalid = () =>
  new AppError('VALIDATION_FAILED', REFERRALS_TEXTS.promoInvalid, {
    affiliate_code: [REFERRALS_TEXTS.promoInvalid],
  });

/** a > b for two decimal percent strings. */
function isGreater(a: string, b: string): boolean {
  const x = parseRatio(a);
  const y = parseRatio(b);
  return x.numerator * y.denominator > y.numerator * x.denominator;
}

/**
 * Promo codes (issue 10): staff create a code with a benefit, a fee discount
 * of discount_percent for duration_days from the day a customer applies it;
 * each customer applies a code once. Only customers the incentives policy
 * admits may apply one, and a running discount lowers fees only while the
 * policy still admits them.
 */
export function createPromoService(deps: PromoServiceDeps) {
  const { db, repository } = deps;

  /** A running discount counts while the incentives policy allows the customer promo benefits. */
  async function eligibleDiscount(userId: number, running: string | null): Promise<string | null> {
    return running !== null && (await deps.isEligible(userId)) ? running : null;
  }

  function toAdminCode(row: Awaited<ReturnType<PromoRepository['listCodes']>>[number]): AdminPromoCode {
    return {
      id: row.id,
      code: row.code,
      discount_percent: row.discount_percent,
      duration_days: row.duration_days,
      valid_until: row.valid_until,
      is_active: row.is_active,
      times_applied: Number(row.times_applied ?? 0),
      created_at: row.created_at.toISOString(),
    };
  }

  return {
    async apply(
      userId: number,
      body: { user_id?: number; affiliate_code: string },
    ): Promise<Answer<PromoCode>> {
      // Another customer's id is not theirs to name: not found, as every foreign object is.
      if (body.user_id !== undefined && body.user_id !== userId) throw new AppError('NOT_FOUND');
      const code = await repository.findApplicableCode(body.affiliate_code.trim().toUpperCase());
      if (!code) throw invalid();
      if (!(await deps.isEligible(userId))) throw new AppError('FORBIDDEN', REFERRALS_TEXTS.promoNotEligible);
      const inserted = await repository.insertRedemption(db, {
        user_id: userId,
        promo_code_id: code.id,
        discount_percent: code.discount_percent,
        duration_days: code.duration_days,
      });
      // The same code a second time: the spec's one failure text.
      if (!inserted) throw invalid();
      const row = (await repository.listRedemptions(userId)).find((item) => item.id === inserted.id);
      if (!row) throw new AppError('INTERNAL');
      return {
        data: {
          id: row.id,
          affiliate_code: row.code,
          expires_at: row.ends_at.toISOString(),
          created_at: row.applied_at.toISOString(),
          discount_percent: row.discount_percent,
        },
        message: REFERRALS_TEXTS.promoAdded,
      };
    },

    async list(userId: number): Promise<PromoCode[]> {
      return (await repository.listRedemptions(userId)).map((row) => ({
        id: row.id,
        affiliate_code: row.code,
        expires_at: row.ends_at.toISOString(),
        created_at: row.applied_at.toISOString(),
        discount_percent: row.discount_percent,
      }));
    },

    /**
     * The fee discount in percent running for the customer now (the largest
     * when several run; they do not add up), or null. Pass it to
     * feePercent({ discountPercent }) in trading's pricingOf.
     */
    async feeDiscountFor(userId: number): Promise<string | null> {
      const running = await repository.listRunningDiscounts(userId);
      if (running.length === 0) return null;
      const best = running
        .map((row) => row.discount_percent)
        .reduce((top, next) => (isGreater(next, top) ? next : top));
      return eligibleDiscount(userId, best);
    },

    /** The largest running discount, read inside another module's statement (a quote's single read). */
    runningDiscountFact: (userId: number): SqlFact<string | null> => ({
      select: sql<
        string | null
      >`(SELECT max(discount_percent)::text FROM promo_redemptions WHERE user_id = ${userId} AND ends_at > now())`,
      read: (raw) => z.string().nullable().parse(raw),
    }),

    eligibleDiscount,

    // ---- back office ----

    async listCodes(): Promise<AdminPromoCode[]> {
      return (await repository.listCodes()).map(toAdminCode);
    },

    async createCode(
      actor: AuditActor,
      body: { code: string; discount_percent: string; duration_days: number; valid_until?: string | null },
    ): Promise<Answer<AdminPromoCode>> {
      const code = body.code.trim().toUpperCase();
      const id = await db.transaction().execute(async (trx) => {
        const inserted = await repository.insertCode(trx, {
          code,
          discount_percent: body.discount_percent,
          duration_days: body.duration_days,
          valid_until: body.valid_until ?? null,
          created_by: actor.staffId,
        });
        if (!inserted)
          throw new AppError('VALIDATION_FAILED', REFERRALS_ADMIN_TEXTS.promoCodeTaken, {
            code: [REFERRALS_ADMIN_TEXTS.promoCodeTaken],
          });
        await recordAudit(trx, {
          ...actor,
          action: 'promo.code_created',
          targetType: 'promo_code',
          targetId: inserted.id,
          after: { ...body, code },
        });
        return inserted.id;
      });
      const row = await repository.findCode(id);
      if (!row) throw new AppError('INTERNAL');
      return { data: toAdminCode(row), message: REFERRALS_ADMIN_TEXTS.promoCreated };
    },

    async setActive(actor: AuditActor, id: string, isActive: boolean): Promise<Answer<AdminPromoCode>> {
      await db.transaction().execute(async (trx) => {
        if (!(await repository.setActive(trx, id, isActive))) throw new AppError('NOT_FOUND');
        await recordAudit(trx, {
          ...actor,
          action: 'promo.code_updated',
          targetType: 'promo_code',
          targetId: id,
          after: { is_active: isActive },
        });
      });
      const row = await repository.findCode(id);
      if (!row) throw new AppError('NOT_FOUND');
      return { data: toAdminCode(row), message: REFERRALS_ADMIN_TEXTS.promoUpdated };
    },
  };
}
