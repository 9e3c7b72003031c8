import { createAccountState } from './account-state.js';
import { createCases } from './cases.js';
import { createDocumentReview } from './document-review.js';
import type { ComplianceServiceDeps } from './shared.js';
import { createSourceOfWealth } from './source-of-wealth.js';
export { cryptoWithdrawalsBlockedUntil, withdrawalsBlockedUntil } from './customer-service.js';
export type { DocumentFile } from './document-review.js';
export type { ComplianceServiceDeps } from './shared.js';

/**
 * The compliance team's work: the queue of customers waiting for review, the
 * case page, each document's decision and the account's state (live, on
 * hold, source of wealth asked again). Each change is audited in its own
 * transaction and the customer is told once it has committed.
 */
export function createComplianceService(deps: ComplianceServiceDeps) {
  return {
    ...createCases(deps),
    ...createDocumentReview(deps),
    ...createAccountState(deps),
    ...createSourceOfWealth(deps),
  };
}

export type ComplianceService = ReturnType<typeof createComplianceService>;
