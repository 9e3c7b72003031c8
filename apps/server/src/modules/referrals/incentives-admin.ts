import type { Kysely } from 'kysely';
import {
  AppError,
  REFERRALS_ADMIN_TEXTS,
  REFERRALS_TEXTS,
  type IncentivesPolicy,
  type IncentivesPolicyName,
  type ReferralPartner,
} from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { ReferralRepository } from './repository.js';
import { isSlugClash, type Answer, type ReferralServiceDeps } from './shared.js';

/** Back office: the incentives policy and which customers are partners with a custom link. */
export function createIncentivesAdmin(deps: ReferralServiceDeps) {
  const { db, repository } = deps;

  function toPolicy(row: Awaited<ReturnType<ReferralRepository['getPolicy']>>): IncentivesPolicy {
    return {
      policy: row.policy,
      commission_percent: row.commission_percent,
      updated_at: row.updated_at?.toISOString() ?? null,
    };
  }

  async function toPartner(userId: number, executor: Kysely<DB> = db): Promise<ReferralPartner> {
    const user = await repository.findReferralCodeOf(userId);
    if (!user) throw new AppError('NOT_FOUND');
    const partner = await repository.findPartner(userId, executor);
    return {
      user_id: user.id,
      email: user.email,
      referral_code: user.referral_code,
      has_custom_referral: partner?.has_custom_referral ?? false,
      slug: partner?.slug ?? null,
      logo_url: partner?.logo_url ?? null,
    };
  }

  return {
    async getPolicy(): Promise<IncentivesPolicy> {
      return toPolicy(await repository.getPolicy(db));
    },

    async updatePolicy(
      actor: AuditActor,
      body: { policy: IncentivesPolicyName; commission_percent: string },
    ): Promise<Answer<IncentivesPolicy>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await repository.getPolicy(trx);
        const after = await repository.updatePolicy(trx, {
          policy: body.policy,
          commission_percent: body.commission_percent,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'referrals.policy_updated',
          targetType: 'incentives_policy',
          targetId: 1,
          before: { policy: before.policy, commission_percent: before.commission_percent },
          after: { policy: after.policy, commission_percent: after.commission_percent },
        });
        return after;
      });
      return { data: toPolicy(row), message: REFERRALS_ADMIN_TEXTS.policySaved };
    },

    async getPartner(userId: number): Promise<ReferralPartner> {
      return toPartner(userId);
    },

    async updatePartner(
      actor: AuditActor,
      userId: number,
      body: { has_custom_referral: boolean; slug?: string | null; logo_url?: string | null },
    ): Promise<Answer<ReferralPartner>> {
      const before = await toPartner(userId);
      try {
        await db.transaction().execute(async (trx) => {
          await repository.upsertPartner(trx, userId, {
            has_custom_referral: body.has_custom_referral,
            ...(body.slug !== undefined ? { slug: body.slug } : {}),
            ...(body.logo_url !== undefined ? { logo_url: body.logo_url } : {}),
          });
          await recordAudit(trx, {
            ...actor,
            action: 'referrals.partner_updated',
            targetType: 'user',
            targetId: userId,
            before: {
              has_custom_referral: before.has_custom_referral,
              slug: before.slug,
              logo_url: before.logo_url,
            },
            after: body,
          });
        });
      } catch (error) {
        if (isSlugClash(error))
          throw new AppError('VALIDATION_FAILED', REFERRALS_TEXTS.slugTaken, {
            slug: [REFERRALS_TEXTS.slugTaken],
          });
        throw error;
      }
      return { data: await toPartner(userId), message: REFERRALS_ADMIN_TEXTS.partnerSaved };
    },
  };
}
