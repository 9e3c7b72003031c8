import { listPositions, type Position } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';
import { TRADING_KEYS } from './trading-keys';

/** Unrealised profit and loss moves with the price: asked again this often while on screen. */
export const POSITIONS_REFRESH_MS = 3_000;

/** Each coin held with its pooled average cost, current price and unrealised profit and loss. */
export const positionsQuery = queryOptions({
  queryKey: TRADING_KEYS.positions,
  queryFn: async ({ signal }): Promise<Position[]> =>
    (await apiCall(listPositions, {}, { signal, notify: false })).data,
  refetchInterval: POSITIONS_REFRESH_MS,
});

export function usePositions() {
  return useQuery(positionsQuery);
}
