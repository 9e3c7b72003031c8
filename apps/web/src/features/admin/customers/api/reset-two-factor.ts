import { resetCustomerTwoFactor } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterCustomerChange } from './get-customer';

/** The reason modal shows a refused reason under its field, so failures are not toasted here. */
export function resetTwoFactorOf(userId: number, reason: string) {
  return adminCall(resetCustomerTwoFactor, { params: { userId }, body: { reason } }, { notify: false });
}

export function useResetCustomerTwoFactor(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => resetTwoFactorOf(userId, reason),
    onSuccess: () => refreshAfterCustomerChange(queryClient, userId),
  });
}
