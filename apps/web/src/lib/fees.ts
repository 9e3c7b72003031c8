import { getFees, type Fees } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from './api-client';

/** Deposit and withdrawal fees per asset and the trading schedule, as the server charges them. */
export const feesQuery = queryOptions({
  queryKey: ['fees'] as const,
  // The page shows its own failure, with a retry.
  queryFn: ({ signal }): Promise<Fees> => apiCall(getFees, {}, { signal, notify: false }),
  staleTime: 60_000,
});

export function useFees() {
  return useQuery(feesQuery);
}

/**
 * The trading account's lowest fee, in percent: the top tier's, as no tier costs more than the one below it
 * ("fees starting at 0.35%" by the schedule the firm started with; finance may change it in the back office).
 */
export function lowestTradingPercent(fees: Fees): string | undefined {
  return fees.trading.at(-1)?.trading_percent;
}
