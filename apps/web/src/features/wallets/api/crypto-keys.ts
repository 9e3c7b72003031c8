import type { CoinId } from '@florin/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { BALANCES_QUERY_KEY, HISTORY_QUERY_KEY } from '../../../lib/portfolio';
import { SAVED_ADDRESSES_QUERY_KEY } from '../../../lib/saved-addresses';

/** The query keys of the coin screens, so a mutation invalidates exactly what it changes. */
export const CRYPTO_KEYS = {
  all: ['crypto'] as const,
  addresses: (coin: CoinId) => ['crypto', 'addresses', coin] as const,
  withdrawInfo: (coin: CoinId) => ['crypto', 'withdraw-info', coin] as const,
  withdrawInfoAll: ['crypto', 'withdraw-info'] as const,
  savedAddresses: (coin: CoinId) => [...SAVED_ADDRESSES_QUERY_KEY, coin] as const,
  activity: (coin: CoinId) => ['crypto', 'activity', coin] as const,
  activityAll: ['crypto', 'activity'] as const,
};

/** What holding, releasing or crediting coins changes: balances, history, coin activity, what may be withdrawn. */
export function refreshCryptoMoney(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: BALANCES_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: CRYPTO_KEYS.activityAll }),
    queryClient.invalidateQueries({ queryKey: CRYPTO_KEYS.withdrawInfoAll }),
  ]);
}
