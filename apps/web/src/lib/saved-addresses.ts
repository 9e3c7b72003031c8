import type { WhitelistedWallet } from '@florin/contracts';
import { isWaiting } from './use-now-passing';

/**
 * The withdraw form's saved (whitelisted) addresses, per coin under this key: the wallets feature reads
 * them, the settings feature changes the whitelist they come from and refreshes them.
 */
export const SAVED_ADDRESSES_QUERY_KEY = ['crypto', 'saved-addresses'] as const;

/** Whether withdrawals may go to a whitelisted address at `now`: its first 24 hours over, by the server or since. */
export function isUsableAt(wallet: Pick<WhitelistedWallet, 'usable' | 'usable_from'>, now: number): boolean {
  return wallet.usable || !isWaiting(wallet.usable_from, now);
}
