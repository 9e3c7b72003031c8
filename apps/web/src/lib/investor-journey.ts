import { getInvestorJourney, type InvestorJourney } from '@florin/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from './api-client';

export const INVESTOR_JOURNEY_KEY = ['investor', 'journey'] as const;

/** Where the customer is in the first-investment journey; `enabled` false for someone not live. */
export function useInvestorJourney(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: INVESTOR_JOURNEY_KEY,
    // The screens show their own failure with a retry.
    queryFn: async ({ signal }): Promise<InvestorJourney> =>
      (await apiCall(getInvestorJourney, {}, { signal, notify: false })).data,
    enabled: options.enabled ?? true,
  });
}
