import { liftAccountHold, putAccountOnHold } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterDecision } from './get-case';

/** The reason modal shows a refused reason under its field, so failures are not toasted here. */
export function holdAccount(userId: number, reason: string) {
  return adminCall(putAccountOnHold, { params: { userId }, body: { reason } }, { notify: false });
}

export function liftHold(userId: number, reason: string) {
  return adminCall(liftAccountHold, { params: { userId }, body: { reason } }, { notify: false });
}

export function usePutOnHold(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => holdAccount(userId, reason),
    onSuccess: () => refreshAfterDecision(queryClient, userId),
  });
}

export function useLiftHold(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => liftHold(userId, reason),
    onSuccess: () => refreshAfterDecision(queryClient, userId),
  });
}
