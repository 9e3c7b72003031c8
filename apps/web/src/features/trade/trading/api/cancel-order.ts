import { cancelLimitOrder } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';
import { refreshTrading } from './trading-keys';

/** Cancels an open order; its hold goes back to the balance. The row shows the failure itself. */
export function cancelOrder(id: string) {
  return apiCall(cancelLimitOrder, { params: { id } }, { notify: false });
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelOrder, onSettled: () => refreshTrading(queryClient) });
}
