import { listLimitOrders, type OpenOrder, type Page } from '@florin/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';
import { TRADING_KEYS } from './trading-keys';

/** Delta and % away follow the market: the list asks again this often while it is on screen. */
export const OPEN_ORDERS_REFRESH_MS = 5_000;

/** The customer's open orders, newest first, a page at a time. */
export const openOrdersQuery = infiniteQueryOptions({
  queryKey: TRADING_KEYS.openOrders,
  queryFn: ({ signal, pageParam }): Promise<Page<OpenOrder>> =>
    apiCall(listLimitOrders, { query: { page: pageParam, status: 'open' } }, { signal, notify: false }),
  initialPageParam: 1,
  getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
  refetchInterval: OPEN_ORDERS_REFRESH_MS,
});

export function useOpenOrders() {
  return useInfiniteQuery(openOrdersQuery);
}
