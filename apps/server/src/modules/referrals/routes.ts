import type { FastifyInstance } from 'fastify';
import {
  claimAffiliateEarnings,
  getAffiliateEarnings,
  getCustomReferral,
  getIncentivesPolicy,
  getReferralOverview,
  getReferralPartner,
  listAffiliateClaims,
  lookupReferral,
  markAffiliateClaimPaid,
  rejectAffiliateClaim,
  saveCustomReferral,
  updateIncentivesPolicy,
  updateReferralPartner,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { idempotencyKeyOf } from '../../http/idempotency.js';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { ReferralService } from './service.js';

/** The incentives policy and partner accounts are a superadmin's; finance pays the claims. */
const superadmin = { staff: ['superadmin'] as const };
const finance = { staff: ['finance'] as const };

export function registerReferralRoutes(app: FastifyInstance, deps: { referrals: ReferralService }): void {
  const { referrals } = deps;

  // ---- customer ----

  registerRoute(app, getReferralOverview, {
    access: 'customer',
    handler: async (request) => ({ data: await referrals.overview(requireCustomer(request).userId) }),
  });

  registerRoute(app, getCustomReferral, {
    access: 'customer',
    handler: async (request) => referrals.getCustom(requireCustomer(request).userId),
  });

  registerRoute(app, saveCustomReferral, {
    access: 'customer',
    handler: async (request) => referrals.saveCustom(requireCustomer(request).userId, request.body.slug),
  });

  registerRoute(app, getAffiliateEarnings, {
    access: 'customer',
    handler: async (request) => ({
      data: await referrals.earnings(requireCustomer(request).userId, request.params.flag),
    }),
  });

  registerRoute(app, claimAffiliateEarnings, {
    access: 'customer',
    // A payout to the customer's bank: a terminated customer may still take their money out.
    allowWhenTerminated: true,
    rateLimit: { max: 10, timeWindow: '1 minute' },
    handler: async (request) =>
      referrals.claim(requireCustomer(request).userId, idempotencyKeyOf(request), request.body),
  });

  // The referral registration page (/:id) is for visitors; a lookup reveals only a public code.
  registerRoute(app, lookupReferral, {
    access: 'public',
    rateLimit: { max: 30, timeWindow: '1 minute' },
    handler: async (request) => referrals.lookup(request.params.id),
  });

  // ---- back office ----

  registerRoute(app, getIncentivesPolicy, {
    access: superadmin,
    handler: async () => ({ data: await referrals.getPolicy() }),
  });

  registerRoute(app, updateIncentivesPolicy, {
    access: superadmin,
    handler: async (request) => referrals.updatePolicy(auditActorOf(request), request.body),
  });

  registerRoute(app, getReferralPartner, {
    access: superadmin,
    handler: async (request) => ({ data: await referrals.getPartner(request.params.user_id) }),
  });

  registerRoute(app, updateReferralPartner, {
    access: superadmin,
    handler: async (request) =>
      referrals.updatePartner(auditActorOf(request), request.params.user_id, request.body),
  });

  registerRoute(app, listAffiliateClaims, {
    access: finance,
    handler: async (request) => ({ data: await referrals.listClaims(request.query.status) }),
  });

  registerRoute(app, markAffiliateClaimPaid, {
    access: finance,
    handler: async (request) => referrals.markClaimPaid(auditActorOf(request), request.params.id),
  });

  registerRoute(app, rejectAffiliateClaim, {
    access: finance,
    handler: async (request) =>
      referrals.rejectClaim(auditActorOf(request), request.params.id, request.body.reason),
  });
}
