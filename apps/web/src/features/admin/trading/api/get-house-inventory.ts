import { getHouseInventory } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TRADING_KEYS } from './admin-trading-keys';

/** Trades move it all the time: read again every 10 seconds while the screen is open. */
export const houseInventoryQuery = queryOptions({
  queryKey: ADMIN_TRADING_KEYS.inventory,
  queryFn: async ({ signal }) => (await adminCall(getHouseInventory, {}, { signal })).data,
  refetchInterval: 10_000,
});

export function useHouseInventory() {
  return useQuery(houseInventoryQuery);
}
