import { listTermDepositTransactions, TERM_DEPOSIT_PAGE_SIZE } from '@florin/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { TERM_DEPOSIT_KEYS } from './term-deposit-keys';

/** The deposits newest first, 3 at a time: View More reads the next 3 (spec 002 sections 7 and 9). */
export const termDepositHistoryQuery = infiniteQueryOptions({
  queryKey: TERM_DEPOSIT_KEYS.history,
  initialPageParam: 0,
  queryFn: async ({ signal, pageParam }) =>
    apiCall(
      listTermDepositTransactions,
      { query: { skip: pageParam, take: TERM_DEPOSIT_PAGE_SIZE } },
      { signal, notify: false },
    ),
  getNextPageParam: (last, pages) => {
    const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
    return loaded < last.total && last.data.length > 0 ? loaded : undefined;
  },
});

export function useTermDepositHistory() {
  return useInfiniteQuery(termDepositHistoryQuery);
}
