import { cancelCryptoWithdrawal } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { refreshCryptoMoney } from './crypto-keys';

/** Cancels a withdrawal staff have not approved yet: the coins held for it come back. */
export function cancelCryptoWithdrawalById(withdrawalId: string) {
  return apiCall(cancelCryptoWithdrawal, { params: { id: withdrawalId } }, { errorTitle: 'Failed' });
}

export function useCancelCryptoWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelCryptoWithdrawalById,
    onSettled: () => refreshCryptoMoney(queryClient),
  });
}
