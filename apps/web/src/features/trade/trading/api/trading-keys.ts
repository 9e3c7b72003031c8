import type { CoinId } from '@florin/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { BALANCES_QUERY_KEY, HISTORY_QUERY_KEY } from '../../../../lib/portfolio';

/** The trading screen's query keys, so a mutation invalidates exactly what it changes. */
export const TRADING_KEYS = {
  dayCandles: (coin: CoinId) => ['trading', 'day-candles', coin] as const,
  openOrders: ['trading', 'open-orders'] as const,
  positions: ['trading', 'positions'] as const,
};

/** What a trade, a placed or cancelled order or a fill changes: balances, history, open orders, positions. */
export function refreshTrading(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: BALANCES_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: TRADING_KEYS.openOrders }),
    queryClient.invalidateQueries({ queryKey: TRADING_KEYS.positions }),
  ]);
}
