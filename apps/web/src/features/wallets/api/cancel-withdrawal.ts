import { cancelFiatWithdrawal } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { refreshMoney } from './withdraw-fiat';

export function cancelWithdrawal(id: string) {
  return apiCall(cancelFiatWithdrawal, { params: { id } }, { errorTitle: 'Failed!' });
}

export function useCancelWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelWithdrawal, onSuccess: () => refreshMoney(queryClient) });
}
