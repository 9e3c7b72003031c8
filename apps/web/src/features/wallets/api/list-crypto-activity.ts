import { listCryptoActivity, type CoinId, type CryptoActivity } from '@florin/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { CRYPTO_KEYS } from './crypto-keys';

export type CryptoActivityPage = {
  data: CryptoActivity[];
  current_page: number;
  last_page: number;
};

/** While a deposit counts confirmations nothing else tells the screen: it asks again this often. */
export const PENDING_DEPOSIT_POLL_MS = 5_000;

export function hasPendingDeposit(pages: readonly CryptoActivityPage[]): boolean {
  return pages.some((page) => page.data.some((item) => item.type === 'deposit' && item.status === 'pending'));
}

/** The customer's deposits and withdrawals of one coin, newest first, a page at a time. */
export function cryptoActivityQuery(coin: CoinId) {
  return infiniteQueryOptions({
    queryKey: CRYPTO_KEYS.activity(coin),
    queryFn: ({ signal, pageParam }): Promise<CryptoActivityPage> =>
      apiCall(listCryptoActivity, { query: { page: pageParam, coin } }, { signal, notify: false }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
    refetchInterval: (query) =>
      query.state.data && hasPendingDeposit(query.state.data.pages) ? PENDING_DEPOSIT_POLL_MS : false,
  });
}

export function useCryptoActivity(coin: CoinId) {
  return useInfiniteQuery(cryptoActivityQuery(coin));
}
