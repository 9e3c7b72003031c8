import { assignCryptoDeposit, returnCryptoDeposit } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { CRYPTO_DEPOSIT_KEYS } from './crypto-deposit-keys';

/** Credits a deposit in suspense to a chosen customer. The modal reports failures. */
export function assignCryptoDepositTo({
  id,
  userId,
  reason,
}: {
  id: string;
  userId: number;
  reason: string;
}) {
  return adminCall(
    assignCryptoDeposit,
    { params: { id }, body: { user_id: userId, reason } },
    { notify: false },
  );
}

/** Marks a deposit in suspense as sent back to its sender. The modal reports failures. */
export function returnCryptoDepositToSender({ id, reason }: { id: string; reason: string }) {
  return adminCall(returnCryptoDeposit, { params: { id }, body: { reason } }, { notify: false });
}

/** Either action moves a deposit out of suspense, so every filtered list may change. */
function useResolveMutation<TInput, TData>(mutationFn: (input: TInput) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CRYPTO_DEPOSIT_KEYS.deposits }),
  });
}

export function useAssignCryptoDeposit() {
  return useResolveMutation(assignCryptoDepositTo);
}

export function useReturnCryptoDeposit() {
  return useResolveMutation(returnCryptoDepositToSender);
}
