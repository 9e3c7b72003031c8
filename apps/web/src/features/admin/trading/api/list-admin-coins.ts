import { listAdminCoins, type AdminCoin } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TRADING_KEYS } from './admin-trading-keys';

export const adminCoinsQuery = queryOptions({
  queryKey: ADMIN_TRADING_KEYS.coins,
  queryFn: async ({ signal }): Promise<AdminCoin[]> => (await adminCall(listAdminCoins, {}, { signal })).data,
});

export function useAdminCoins() {
  return useQuery(adminCoinsQuery);
}
