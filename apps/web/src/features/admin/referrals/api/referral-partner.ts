import { getReferralPartner, updateReferralPartner, type UpdateReferralPartnerBody } from '@florin/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export function referralPartnerQuery(userId: number) {
  return queryOptions({
    queryKey: ['admin', 'referrals', 'partner', userId] as const,
    queryFn: async ({ signal }) =>
      (await adminCall(getReferralPartner, { params: { user_id: userId } }, { signal })).data,
  });
}

export function useReferralPartner(userId: number | null) {
  return useQuery({ ...referralPartnerQuery(userId ?? 0), enabled: userId !== null });
}

export function useSaveReferralPartner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: number; body: UpdateReferralPartnerBody }) =>
      adminCall(
        updateReferralPartner,
        { params: { user_id: input.userId }, body: input.body },
        { notify: false },
      ),
    onSuccess: (answer, input) =>
      queryClient.setQueryData(referralPartnerQuery(input.userId).queryKey, answer.data),
  });
}
