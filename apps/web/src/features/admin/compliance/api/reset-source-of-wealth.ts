import { resetSourceOfWealth } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterDecision } from './get-case';

export function askSourceOfWealthAgain(userId: number, reason: string) {
  return adminCall(resetSourceOfWealth, { params: { userId }, body: { reason } }, { notify: false });
}

export function useResetSourceOfWealth(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => askSourceOfWealthAgain(userId, reason),
    onSuccess: () => refreshAfterDecision(queryClient, userId),
  });
}
