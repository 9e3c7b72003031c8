import { SAVED_ADDRESSES_QUERY_KEY } from '../../../lib/saved-addresses';

/** The query keys of the whitelisting tabs, so a mutation invalidates exactly the list it changes. */
export const WHITELIST_KEYS = {
  wallets: ['whitelists', 'wallets'] as const,
  walletList: (limit: number) => ['whitelists', 'wallets', { limit }] as const,
  ips: ['whitelists', 'ips'] as const,
  ipList: (owner: string, limit: number) => ['whitelists', 'ips', owner, { limit }] as const,
  /** The withdraw form's saved-address dropdown, every coin: the same whitelist. */
  savedAddresses: SAVED_ADDRESSES_QUERY_KEY,
};
