import { getReferralOverview } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { REFERRAL_KEYS } from './referral-keys';

export const referralOverviewQuery = queryOptions({
  queryKey: REFERRAL_KEYS.overview,
  queryFn: async ({ signal }) => (await apiCall(getReferralOverview, {}, { signal })).data,
});

export function useReferralOverview() {
  return useQuery(referralOverviewQuery);
}
