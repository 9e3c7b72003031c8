import { getAffiliateEarnings } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { REFERRAL_KEYS } from './referral-keys';

/** flag 0: the commissions; 1: the claims. */
export function affiliateEarningsQuery(flag: 0 | 1) {
  return queryOptions({
    queryKey: REFERRAL_KEYS.earnings(flag),
    queryFn: async ({ signal }) =>
      (await apiCall(getAffiliateEarnings, { params: { flag: String(flag) as '0' | '1' } }, { signal })).data,
  });
}

export function useAffiliateEarnings(flag: 0 | 1 = 0) {
  return useQuery(affiliateEarningsQuery(flag));
}
