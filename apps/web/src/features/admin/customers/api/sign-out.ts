import { signOutCustomer } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterCustomerChange } from './get-customer';

export function signOutEverywhere(userId: number, reason: string) {
  return adminCall(signOutCustomer, { params: { userId }, body: { reason } }, { notify: false });
}

export function useSignOutCustomer(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => signOutEverywhere(userId, reason),
    onSuccess: () => refreshAfterCustomerChange(queryClient, userId),
  });
}
