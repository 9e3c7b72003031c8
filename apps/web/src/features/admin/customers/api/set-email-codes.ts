import { setCustomerEmailCodes } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterCustomerChange } from './get-customer';

export function switchEmailCodes(userId: number, enabled: boolean, reason: string) {
  return adminCall(
    setCustomerEmailCodes,
    { params: { userId }, body: { enabled, reason } },
    { notify: false },
  );
}

export function useSetEmailCodes(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ enabled, reason }: { enabled: boolean; reason: string }) =>
      switchEmailCodes(userId, enabled, reason),
    onSuccess: () => refreshAfterCustomerChange(queryClient, userId),
  });
}
