import { IDEMPOTENCY_KEY_HEADER, marketBuy, marketSell, type MarketTradeBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';
import { refreshTrading } from './trading-keys';

export type PlaceMarketOrderInput = {
  side: 'buy' | 'sell';
  body: MarketTradeBody;
  /** One per submitted order: a retry of the same submission sends the same key, so it cannot trade twice. */
  idempotencyKey: string;
};

/**
 * A market buy or sell, priced by the server now; crypto_price is the price
 * the customer saw, from which the server measures the slippage. A failure is
 * a red toast: the server's message, or the generic text on a 5xx (spec 002 section 8).
 */
export function placeMarketOrder({ side, body, idempotencyKey }: PlaceMarketOrderInput) {
  return apiCall(
    side === 'buy' ? marketBuy : marketSell,
    { body },
    // Refused for the balance or for the price moving past the slippage: the message says which.
    { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }, errorTitle: 'Order not executed' },
  );
}

export function usePlaceMarketOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: placeMarketOrder, onSuccess: () => refreshTrading(queryClient) });
}
