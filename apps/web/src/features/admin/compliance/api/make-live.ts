import { makeAccountLive } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterDecision } from './get-case';

export function makeCustomerLive(userId: number) {
  return adminCall(makeAccountLive, { params: { userId } }, { errorTitle: 'Not live yet' });
}

export function useMakeLive(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => makeCustomerLive(userId),
    onSuccess: () => refreshAfterDecision(queryClient, userId),
  });
}
