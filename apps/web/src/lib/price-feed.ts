import { getPriceFeed, type PriceFeed } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from './api-client';

/** Every active coin with its GBP bid and last day (`GET /crypto/price-feed`); live ticks come from the price stream. */
export const priceFeedQuery = queryOptions({
  queryKey: ['price-feed'] as const,
  // A background load: the strip hides itself on failure rather than toasting every visitor.
  queryFn: ({ signal }): Promise<PriceFeed> => apiCall(getPriceFeed, {}, { signal, notify: false }),
  staleTime: 60_000,
});

export function usePriceFeed() {
  return useQuery(priceFeedQuery);
}

/** The spec is silent; said in words wherever a price may be out of date (docs/decisions/037-chart-price-strip-and-stream.md). */
export const STALE_PRICES_TEXT =
  'Prices paused: the live feed has stopped, so prices shown may be out of date.';

export function priceSymbol(coin: string, fiat: string): string {
  return `${coin.toUpperCase()}/${fiat.toUpperCase()}`;
}
