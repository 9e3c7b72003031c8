/**
 * The withdraw form's saved (whitelisted) addresses, per coin under this key: the wallets feature reads
 * them, the settings feature changes the whitelist they come from and refreshes them.
 */
export const SAVED_ADDRESSES_QUERY_KEY = ['crypto', 'saved-addresses'] as const;
