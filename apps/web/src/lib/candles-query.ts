import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from './api-client';
import { RESOLUTIONS, rollUpCandles, sourceRowLimit, type ChartCandle, type Resolution } from './candles';

/** The history of one pair at one resolution, rolled up to the chart's candles (oldest first). */
export function candlesQuery(coin: string, fiat: string, resolution: Resolution) {
  const { endpoint, seconds } = RESOLUTIONS[resolution];
  return queryOptions({
    queryKey: ['market', 'candles', coin, fiat, resolution] as const,
    queryFn: async ({ signal }): Promise<ChartCandle[]> => {
      const { data } = await apiCall(
        endpoint,
        { query: { fsym: coin, tsym: fiat, limit: sourceRowLimit(resolution) } },
        { signal },
      );
      return rollUpCandles(data, seconds);
    },
    // Live ticks keep the last candle current; a refetch on focus would only redraw what is on screen.
    refetchOnWindowFocus: false,
  });
}

export function useCandles(coin: string, fiat: string, resolution: Resolution) {
  return useQuery(candlesQuery(coin, fiat, resolution));
}
