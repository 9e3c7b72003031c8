import { createIps } from './ips.js';
import type { WhitelistServiceDeps } from './shared.js';
import { createWalletLookups } from './wallet-lookups.js';
import { createWallets } from './wallets.js';

export { normalizeIp, type WhitelistServiceDeps } from './shared.js';
export { REMOVAL_CONFIRMED_MINUTES } from './wallets.js';

/**
 * The Settings tabs Wallet Whitelisting and IP Whitelisting (issue 8) and
 * what other modules read from them: the crypto withdrawal service's
 * whitelisted destinations, and the sign-in check of the auth module.
 * Adding needs 2FA on and an authenticator code; removing a wallet needs a
 * code e-mailed for that wallet; every change is mailed to the customer.
 */
export function createWhitelistService(deps: WhitelistServiceDeps) {
  return {
    ...createWallets(deps),
    ...createWalletLookups(deps),
    ...createIps(deps),
  };
}

export type WhitelistService = ReturnType<typeof createWhitelistService>;
