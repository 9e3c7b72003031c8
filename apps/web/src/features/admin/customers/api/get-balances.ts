import { getCustomerBalances, type CustomerBalance } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { customerKey } from './get-customer';

export function customerBalancesQuery(userId: number) {
  return queryOptions({
    queryKey: [...customerKey(userId), 'balances'] as const,
    queryFn: async ({ signal }): Promise<CustomerBalance[]> =>
      (await adminCall(getCustomerBalances, { params: { userId } }, { signal })).data,
  });
}

export function useCustomerBalances(userId: number) {
  return useQuery(customerBalancesQuery(userId));
}
