import { createDepositAddresses } from './deposit-addresses.js';
import { createDepositContext, type CryptoServiceDeps } from './deposit-context.js';
import { createDepositFollower } from './deposit-follower.js';
import { createDepositHistory } from './deposit-history.js';
import { createDepositSuspense } from './deposit-suspense.js';
import { createDepositWatcher } from './deposit-watcher.js';
import { createSimulatedDeposits } from './simulated-deposits.js';

export type { CryptoServiceDeps } from './deposit-context.js';
export { depositIdempotencyKey, type WatchSummary } from './deposit-watcher.js';
export { cryptoDomainCheck } from './domain-checks.js';
export { gbpValueMetadata } from './shared.js';
export { isValidAddress, isValidDestinationTag, normalizeAddress } from './addresses/validate.js';

export type CryptoService = ReturnType<typeof createCryptoService>;

/**
 * Crypto in: assigns each customer their deposit address once, watches the
 * chains for payments to them, counts confirmations and credits each payment
 * through the ledger exactly once (key: chain, txid, output). XRP payments
 * without a known tag wait in suspense for staff. Customers are mailed and
 * their pages told after each commit.
 */
export function createCryptoService(deps: CryptoServiceDeps) {
  const context = createDepositContext(deps);
  const addresses = createDepositAddresses(deps, context);
  const history = createDepositHistory(deps);
  const watcher = createDepositWatcher(deps, context);
  const follower = createDepositFollower(deps, watcher);
  const suspense = createDepositSuspense(deps, context);
  const simulated = createSimulatedDeposits(deps, watcher);

  return {
    // ---- customer ----

    listWalletAddresses: addresses.listWalletAddresses,
    generateAddress: addresses.generateAddress,
    listDeposits: history.listDeposits,

    // ---- the watcher ----

    watchOnce: watcher.watchOnce,
    /** The scans a chain's stream started (the XRP Ledger's), once they are done. */
    followedScans: () => follower.settled(),
    /** At shutdown: lets the streamed scans finish and closes the chains' connections. */
    stopWatching: () => follower.stop(),

    // ---- back office: deposits and suspense ----

    listAdminDeposits: history.listAdminDeposits,
    assignDeposit: suspense.assignDeposit,
    returnDeposit: suspense.returnDeposit,

    // ---- the simulated chain ----

    broadcastSimulated: simulated.broadcastSimulated,
    mineSimulated: simulated.mineSimulated,
    dropSimulated: simulated.dropSimulated,
  };
}
