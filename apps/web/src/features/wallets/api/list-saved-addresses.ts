import { listWhitelistedWallets, type CoinId, type WhitelistedWallet } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { CRYPTO_KEYS } from './crypto-keys';

/** As many as the whitelist endpoint lists at once: the dropdown shows them all. */
const SAVED_ADDRESS_LIMIT = 500;

/** The customer's whitelisted addresses for one coin: the withdraw form's "saved addresses". */
export function savedAddressesQuery(coin: CoinId) {
  return queryOptions({
    queryKey: CRYPTO_KEYS.savedAddresses(coin),
    queryFn: async ({ signal }): Promise<WhitelistedWallet[]> =>
      (
        await apiCall(
          listWhitelistedWallets,
          { query: { coin, limit: SAVED_ADDRESS_LIMIT } },
          { signal, notify: false },
        )
      ).data,
  });
}

export function useSavedAddresses(coin: CoinId, enabled: boolean) {
  return useQuery({ ...savedAddressesQuery(coin), enabled });
}
