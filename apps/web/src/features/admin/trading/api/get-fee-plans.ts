import { getFeePlans } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TRADING_KEYS } from './admin-trading-keys';

export const feePlansQuery = queryOptions({
  queryKey: ADMIN_TRADING_KEYS.feePlans,
  queryFn: async ({ signal }) => (await adminCall(getFeePlans, {}, { signal })).data,
});

export function useFeePlans() {
  return useQuery(feePlansQuery);
}
