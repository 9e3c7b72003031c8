import { getHistoHour, type CandleRow, type CoinId } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';
import { DAY_STATS_HOURS } from '../day-stats';
import { TRADING_KEYS } from './trading-keys';

/** Refetched now and then so the window slides; live ticks move the figures in between. */
const DAY_CANDLES_REFRESH_MS = 60_000;

/** The pair's last hourly candles against GBP, oldest first, for the 24-hour statistics. */
export function dayCandlesQuery(coin: CoinId) {
  return queryOptions({
    queryKey: TRADING_KEYS.dayCandles(coin),
    queryFn: async ({ signal }): Promise<CandleRow[]> =>
      (
        await apiCall(
          getHistoHour,
          { query: { fsym: coin.toUpperCase(), tsym: 'GBP', limit: DAY_STATS_HOURS } },
          { signal, notify: false },
        )
      ).data,
    refetchInterval: DAY_CANDLES_REFRESH_MS,
  });
}

export function useDayCandles(coin: CoinId) {
  return useQuery(dayCandlesQuery(coin));
}
