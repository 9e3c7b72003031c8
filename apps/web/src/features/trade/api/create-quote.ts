import { createQuote, type Quote, type QuoteRequest } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/**
 * A server price for an instant buy or sell, good for QUOTE_SECONDS. The
 * preview asks for a new one each time the countdown ends. A refusal (a
 * stale price, a paused coin) is shown by the shared handler.
 */
export async function requestQuote(body: QuoteRequest): Promise<Quote> {
  return (await apiCall(createQuote, { body })).data;
}

export function useCreateQuote() {
  return useMutation({ mutationFn: requestQuote });
}
