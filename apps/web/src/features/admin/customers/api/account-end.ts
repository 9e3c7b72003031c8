import { setLegalHold, terminateAccount } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterCustomerChange } from './get-customer';

/** Compliance gives the customer a month's notice of termination (issue 13). */
export function useTerminateAccount(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      adminCall(terminateAccount, { params: { userId }, body: { reason } }, { notify: false }),
    onSuccess: () => refreshAfterCustomerChange(queryClient, userId),
  });
}

/** Compliance places (a reason) or lifts (null) a legal hold on the customer's personal data. */
export function useSetLegalHold(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string | null) =>
      adminCall(setLegalHold, { params: { userId }, body: { reason } }, { notify: false }),
    onSuccess: () => refreshAfterCustomerChange(queryClient, userId),
  });
}
