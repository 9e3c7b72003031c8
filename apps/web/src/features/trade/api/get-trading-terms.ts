import { getTradingTerms, type TradingTerms } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { TRADE_KEYS } from './trade-keys';

/** The customer's platform, fee per coin, trade limits and which coins they may buy or sell. */
export const tradingTermsQuery = queryOptions({
  queryKey: TRADE_KEYS.terms,
  // The page shows its own failure with a retry.
  queryFn: async ({ signal }): Promise<TradingTerms> =>
    (await apiCall(getTradingTerms, {}, { signal, notify: false })).data,
});

export function useTradingTerms() {
  return useQuery(tradingTermsQuery);
}
