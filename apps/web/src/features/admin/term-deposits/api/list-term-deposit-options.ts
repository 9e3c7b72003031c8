import { listAdminTermDepositOptions, type AdminTermDepositOption } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TERM_DEPOSIT_KEYS } from './admin-term-deposit-keys';

export const adminTermDepositOptionsQuery = queryOptions({
  queryKey: ADMIN_TERM_DEPOSIT_KEYS.options,
  queryFn: async ({ signal }): Promise<AdminTermDepositOption[]> =>
    (await adminCall(listAdminTermDepositOptions, {}, { signal })).data,
});

export function useAdminTermDepositOptions() {
  return useQuery(adminTermDepositOptionsQuery);
}
