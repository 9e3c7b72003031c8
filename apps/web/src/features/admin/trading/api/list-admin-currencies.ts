import { listAdminCurrencies, type AdminCurrency } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TRADING_KEYS } from './admin-trading-keys';

export const adminCurrenciesQuery = queryOptions({
  queryKey: ADMIN_TRADING_KEYS.currencies,
  queryFn: async ({ signal }): Promise<AdminCurrency[]> =>
    (await adminCall(listAdminCurrencies, {}, { signal })).data,
});

export function useAdminCurrencies() {
  return useQuery(adminCurrenciesQuery);
}
