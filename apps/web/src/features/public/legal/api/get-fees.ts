import { getFees, type Fees } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';

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
