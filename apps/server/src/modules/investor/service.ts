import { createAssessment } from './assessment.js';
import { createCategorisation } from './categorisation.js';
import { createConfirmation } from './confirmation.js';
import { createEvidence } from './evidence.js';
import type { InvestorServiceDeps } from './shared.js';

export { personalisedWarning, type InvestorServiceDeps } from './shared.js';

/**
 * The first-investment journey (issue 13). Each step checks the one before,
 * runs in a transaction that locks the customer's profile (two tabs cannot
 * pass one step twice) and appends its evidence in the same transaction, so
 * the record never says more or less than what happened.
 */
export function createInvestorService(deps: InvestorServiceDeps) {
  return {
    ...createCategorisation(deps),
    ...createAssessment(deps),
    ...createConfirmation(deps),
    ...createEvidence(deps),
  };
}

export type InvestorService = ReturnType<typeof createInvestorService>;
