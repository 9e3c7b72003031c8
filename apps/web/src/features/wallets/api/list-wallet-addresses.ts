import {
  listWalletAddresses,
  type CoinId,
  type DepositUnavailable,
  type DepositWallet,
} from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { CRYPTO_KEYS } from './crypto-keys';

export type CoinDepositAddress = {
  /** The customer's address (and XRP tag), or null when none is assigned yet. */
  wallet: DepositWallet | null;
  /** Why the coin cannot take deposits now; the view shows its 'contact support' text. */
  unavailable: DepositUnavailable | null;
};

/** The customer's deposit address for one coin; BTC, LTC, BCH and ETH are assigned on this first view. */
export function walletAddressQuery(coin: CoinId) {
  return queryOptions({
    queryKey: CRYPTO_KEYS.addresses(coin),
    queryFn: async ({ signal }): Promise<CoinDepositAddress> => {
      const answer = await apiCall(listWalletAddresses, { query: { coin } }, { signal, notify: false });
      return {
        wallet: answer.data.find((entry) => entry.coin_id === coin) ?? null,
        unavailable: answer.unavailable.find((entry) => entry.coin_id === coin) ?? null,
      };
    },
  });
}

export function useWalletAddress(coin: CoinId) {
  return useQuery(walletAddressQuery(coin));
}
