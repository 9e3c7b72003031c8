import {
  getBalances,
  listHistory,
  listPendingTransactions,
  type Balances,
  type HistoryFilter,
  type HistoryPage,
  type Transaction,
} from '@florin/contracts';
import { infiniteQueryOptions, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from './current-user';
import { apiCall } from './api-client';
import { useUserEvents } from './price-stream';

/**
 * What the customer holds and what happened to it (issue 6), for the
 * dashboard and the wallets screen alike. Both lists follow the customer's
 * money live: the stream's `balances` event refetches them.
 */

export const BALANCES_QUERY_KEY = ['balances'] as const;
export const HISTORY_QUERY_KEY = ['history'] as const;

/** The spec's shape: a list whose first item holds the balances. */
export type PortfolioBalances = Balances['data'][0];

export const balancesQuery = queryOptions({
  queryKey: BALANCES_QUERY_KEY,
  // The screen shows its own error with a retry, so no toast.
  queryFn: async ({ signal }): Promise<PortfolioBalances> =>
    (await apiCall(getBalances, { query: { percentage: 'true' } }, { signal, notify: false })).data[0],
});

export function useBalances() {
  return useQuery(balancesQuery);
}

/** The history with one filter (undefined: All) and, for a wallet, one asset. */
export type HistoryListOptions = { filter?: HistoryFilter; coinId?: string };

export function historyQuery({ filter, coinId }: HistoryListOptions = {}) {
  return infiniteQueryOptions({
    queryKey: [...HISTORY_QUERY_KEY, { filter: filter ?? 'all', coinId: coinId ?? null }] as const,
    queryFn: ({ signal, pageParam }): Promise<HistoryPage> =>
      apiCall(
        listHistory,
        { query: { page: pageParam, filter: filter ? [filter] : undefined, coin_id: coinId } },
        { signal, notify: false },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
  });
}

/**
 * Withdrawals still waiting to be paid or sent, with the same filter and asset: listed above the
 * history. Under the history's key, so whatever refetches the history refetches these.
 */
export function pendingTransactionsQuery({ filter, coinId }: HistoryListOptions = {}) {
  return queryOptions({
    queryKey: [...HISTORY_QUERY_KEY, 'pending', { filter: filter ?? 'all', coinId: coinId ?? null }] as const,
    queryFn: async ({ signal }): Promise<Transaction[]> =>
      (
        await apiCall(
          listPendingTransactions,
          { query: { filter: filter ? [filter] : undefined, coin_id: coinId } },
          { signal, notify: false },
        )
      ).data,
  });
}

/**
 * Refetches balances and history whenever the server says the customer's
 * money moved (a deposit credited, a trade, a withdrawal), so the screen
 * follows without a reload. One per screen that shows either. The user too:
 * a trade can take the year past the £15,000 source-of-wealth threshold, and
 * the shell then asks for it at once rather than at the next minute's read.
 */
export function useLivePortfolio(): void {
  const queryClient = useQueryClient();
  useUserEvents((event) => {
    if (event !== 'balances') return;
    void queryClient.invalidateQueries({ queryKey: BALANCES_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
  });
}
