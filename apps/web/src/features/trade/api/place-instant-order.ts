import { placeInstantOrder, TRADING_TEXTS, type Quote } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { reportError, statusText, toAppError } from '../../../lib/errors';
import { BALANCES_QUERY_KEY, HISTORY_QUERY_KEY } from '../../../lib/portfolio';
import { TRADE_KEYS } from './trade-keys';

/**
 * The spec's instant order payload (002 section 3) for a quote, plus the
 * quote's id: the server executes the quote and ignores the other figures.
 * currency only when the fiat is not GBP, as the spec sends it.
 */
export function instantOrderFields(quote: Quote) {
  return {
    quote_id: quote.id,
    coin_id: quote.coin_id,
    fee: quote.fee,
    order_qty: quote.quantity,
    order_type: 'market',
    price: quote.price,
    side: quote.side,
    symbol: quote.symbol,
    total_cost_w_fee: quote.total_cost_w_fee,
    total_cost_wo_fee: quote.total_cost_wo_fee,
    ...(quote.currency === 'gbp' ? {} : { currency: quote.currency }),
  };
}

/** `POST /api/v1/order`, form-encoded as the spec sends it. */
export function executeQuote(quote: Quote) {
  return apiCall(
    placeInstantOrder,
    { body: instantOrderFields(quote) },
    { notify: false, bodyEncoding: 'form' },
  );
}

/**
 * Spec 002 section 8: a 400 is titled Insufficient Funds, anything else with
 * the status text; the text is the server's message (never a 5xx's own).
 */
export function reportInstantOrderError(error: unknown): void {
  const appError = toAppError(error);
  const title = appError.status === 400 ? TRADING_TEXTS.insufficientFundsTitle : statusText(appError.status);
  reportError(appError, { title });
}

/** Executes a quote; the balances, the histories and the terms (this year's volume sets the tier) follow. */
export function useExecuteQuote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: executeQuote,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: BALANCES_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: TRADE_KEYS.terms }),
      ]),
    onError: reportInstantOrderError,
  });
}
