import { listFiatActivity, type FiatActivity, type FiatCurrency } from '@florin/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { FIAT_KEYS } from './fiat-keys';

export type FiatActivityPage = {
  data: FiatActivity[];
  current_page: number;
  last_page: number;
};

/** The customer's deposits and withdrawals in one currency, newest first, a page at a time. */
export function fiatActivityQuery(currency: FiatCurrency) {
  return infiniteQueryOptions({
    queryKey: FIAT_KEYS.activity(currency),
    queryFn: ({ signal, pageParam }): Promise<FiatActivityPage> =>
      apiCall(
        listFiatActivity,
        { query: { page: pageParam, currency_code: currency } },
        { signal, notify: false },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
  });
}

export function useFiatActivity(currency: FiatCurrency) {
  return useInfiniteQuery(fiatActivityQuery(currency));
}
