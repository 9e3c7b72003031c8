import { getCustomerSessions, type CustomerSession } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { customerKey } from './get-customer';

export function customerSessionsQuery(userId: number) {
  return queryOptions({
    queryKey: [...customerKey(userId), 'sessions'] as const,
    queryFn: async ({ signal }): Promise<CustomerSession[]> =>
      (await adminCall(getCustomerSessions, { params: { userId } }, { signal })).data,
  });
}

export function useCustomerSessions(userId: number) {
  return useQuery(customerSessionsQuery(userId));
}
