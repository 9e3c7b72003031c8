import { createDeposits } from './deposits.js';
import { createMaturity } from './maturity.js';
import { createOptionsAdmin } from './options-admin.js';
import type { TermDepositServiceDeps } from './shared.js';
import { createTermination } from './termination.js';

export { type CreateTermDepositInput } from './deposits.js';
export { termDepositDomainCheck } from './domain-check.js';
export { MATURITY_SCAN_INTERVAL_MS } from './maturity.js';
export { lockKey, maturityKey, TERM_DEPOSIT_TRANSITIONS, type TermDepositServiceDeps } from './shared.js';

export type TermDepositService = ReturnType<typeof createTermDepositService>;

export function createTermDepositService(deps: TermDepositServiceDeps) {
  return {
    ...createDeposits(deps),
    ...createMaturity(deps),
    ...createTermination(deps),
    ...createOptionsAdmin(deps),
  };
}
