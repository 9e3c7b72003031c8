import { getTradingTerms, type TradingTerms } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/**
 * The customer's platform, tier, year-to-date volume and Custom plan. The key is the trade
 * screens' own (features do not import each other), so both read one cache entry.
 */
export const tierTermsQuery = queryOptions({
  queryKey: ['trading', 'terms'] as const,
  // The tab shows its own failure.
  queryFn: async ({ signal }): Promise<TradingTerms> =>
    (await apiCall(getTradingTerms, {}, { signal, notify: false })).data,
});

export function useTierTerms() {
  return useQuery(tierTermsQuery);
}
