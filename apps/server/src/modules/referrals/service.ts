import { createClaims } from './claims.js';
import { createClaimsAdmin } from './claims-admin.js';
import { createCommissions } from './commissions.js';
import { createIncentivesAdmin } from './incentives-admin.js';
import { createReferralLinks } from './links.js';
import type { ReferralServiceDeps } from './shared.js';

export { COMMISSION_ACCRUAL_INTERVAL_MS, commissionOn, feeInPence, isEligibleUnder } from './commissions.js';
export { referralsDomainCheck } from './domain-check.js';
export { referralPathOf } from './links.js';
export type { ReferralServiceDeps } from './shared.js';

export type ReferralService = ReturnType<typeof createReferralService>;

export function createReferralService(deps: ReferralServiceDeps) {
  return {
    // ---- commission ----
    ...createCommissions(deps),
    // ---- customer ----
    ...createReferralLinks(deps),
    ...createClaims(deps),
    // ---- back office ----
    ...createIncentivesAdmin(deps),
    ...createClaimsAdmin(deps),
  };
}
