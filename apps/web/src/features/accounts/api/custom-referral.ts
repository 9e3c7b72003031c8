import { getCustomReferral, saveCustomReferral } from '@florin/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { REFERRAL_KEYS } from './referral-keys';

export const customReferralQuery = queryOptions({
  queryKey: REFERRAL_KEYS.custom,
  queryFn: async ({ signal }) => apiCall(getCustomReferral, {}, { signal }),
});

/** Only for partners (has_custom_referral): the server refuses everyone else. */
export function useCustomReferral(isPartner: boolean) {
  return useQuery({ ...customReferralQuery, enabled: isPartner });
}

export function useSaveCustomReferral() {
  const queryClient = useQueryClient();
  return useMutation({
    // Spec 002 §8: a 422 lists the errors; the form shows them under the slug.
    mutationFn: (slug: string) => apiCall(saveCustomReferral, { body: { slug } }, { notify: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: REFERRAL_KEYS.custom }),
  });
}
