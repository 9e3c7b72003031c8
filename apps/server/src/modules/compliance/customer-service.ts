import { type CustomerAdminDeps } from './customer-admin-shared.js';
import { createCustomerReads } from './customer-reads.js';
import { createIdentityEdits } from './identity-edits.js';
import { createSignInHelp } from './sign-in-help.js';

export {
  cryptoWithdrawalsBlockedUntil,
  isWithdrawalBlockedByTwoFactorReset,
  SECURITY_CHANGE_CRYPTO_WAIT_HOURS,
  TWO_FACTOR_RESET_WITHDRAWAL_WAIT_HOURS,
  withdrawalsBlockedUntil,
} from './withdrawal-waits.js';

/**
 * The customer view: support finds a customer and helps with sign-in and
 * identity details, finance reads balances and history, compliance sees it
 * all. Changes are audited (with the reason staff gave) and the customer is
 * told by e-mail once the change has committed.
 */
export function createCustomerAdminService(deps: CustomerAdminDeps) {
  return {
    ...createCustomerReads(deps),
    ...createSignInHelp(deps),
    ...createIdentityEdits(deps),
  };
}

export type CustomerAdminService = ReturnType<typeof createCustomerAdminService>;
