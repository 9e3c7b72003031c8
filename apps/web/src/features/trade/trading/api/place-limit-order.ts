import { IDEMPOTENCY_KEY_HEADER, placeLimitOrder, type LimitOrderBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';
import { refreshTrading } from './trading-keys';

export type PlaceLimitOrderInput = {
  body: LimitOrderBody;
  /** One per submitted order, as for a market order. */
  idempotencyKey: string;
};

/** A limit (order_type 2) or stop (3) order: the server holds what it may spend until it fills or is cancelled. */
export function placeLimit({ body, idempotencyKey }: PlaceLimitOrderInput) {
  return apiCall(placeLimitOrder, { body }, { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });
}

export function usePlaceLimitOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: placeLimit, onSuccess: () => refreshTrading(queryClient) });
}
