import {
  getIncentivesPolicy,
  updateIncentivesPolicy,
  type UpdateIncentivesPolicyBody,
} from '@florin/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export const incentivesPolicyQuery = queryOptions({
  queryKey: ['admin', 'referrals', 'policy'] as const,
  queryFn: async ({ signal }) => (await adminCall(getIncentivesPolicy, {}, { signal })).data,
});

export function useIncentivesPolicy() {
  return useQuery(incentivesPolicyQuery);
}

export function useSaveIncentivesPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateIncentivesPolicyBody) => adminCall(updateIncentivesPolicy, { body }),
    onSuccess: (answer) => queryClient.setQueryData(incentivesPolicyQuery.queryKey, answer.data),
  });
}
