import { getCryptoWithdrawInfo, type CoinId, type CryptoWithdrawInfo } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { CRYPTO_KEYS } from './crypto-keys';

/** Balance, minimum, fee, decimals, 2FA needs and any 24-hour pause for withdrawing one coin. */
export function cryptoWithdrawInfoQuery(coin: CoinId) {
  return queryOptions({
    queryKey: CRYPTO_KEYS.withdrawInfo(coin),
    // A password or 2FA change elsewhere starts a pause: fetched again whenever the form opens.
    staleTime: 0,
    queryFn: async ({ signal }): Promise<CryptoWithdrawInfo> =>
      (await apiCall(getCryptoWithdrawInfo, { query: { coin } }, { signal, notify: false })).data,
  });
}

export function useCryptoWithdrawInfo(coin: CoinId) {
  return useQuery(cryptoWithdrawInfoQuery(coin));
}
