import { assignPromoCode, listPromoCodes } from '@florin/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { REFERRAL_KEYS } from './referral-keys';

export const promoCodesQuery = queryOptions({
  queryKey: REFERRAL_KEYS.promoCodes,
  queryFn: async ({ signal }) => (await apiCall(listPromoCodes, {}, { signal })).data.data,
});

export function usePromoCodes() {
  return useQuery(promoCodesQuery);
}

export function useAssignPromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: number; code: string }) =>
      apiCall(
        assignPromoCode,
        { body: { user_id: input.userId, affiliate_code: input.code } },
        { notify: false },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: REFERRAL_KEYS.promoCodes }),
  });
}
