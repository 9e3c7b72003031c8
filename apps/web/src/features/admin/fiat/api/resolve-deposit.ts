import { assignFiatDeposit, returnFiatDeposit } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { FIAT_ADMIN_KEYS } from './fiat-admin-keys';

/** Credits a transfer in suspense to a chosen customer. The modal reports failures. */
export function assignDeposit({ id, userId, reason }: { id: string; userId: number; reason: string }) {
  return adminCall(
    assignFiatDeposit,
    { params: { id }, body: { user_id: userId, reason } },
    { notify: false },
  );
}

/** Marks a transfer in suspense as sent back to the payer. The modal reports failures. */
export function returnDeposit({ id, reason }: { id: string; reason: string }) {
  return adminCall(returnFiatDeposit, { params: { id }, body: { reason } }, { notify: false });
}

export function useAssignDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignDeposit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FIAT_ADMIN_KEYS.deposits }),
  });
}

export function useReturnDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: returnDeposit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FIAT_ADMIN_KEYS.deposits }),
  });
}
