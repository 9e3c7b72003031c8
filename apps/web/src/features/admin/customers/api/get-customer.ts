import { getCustomer, type CustomerProfile } from '@florin/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { AUDIT_LOG_QUERY_KEY } from '../../api/list-audit-log';

/** Everything shown of one customer lives under this key: profile, balances, history, sessions. */
export const customerKey = (userId: number) => ['admin', 'customers', userId] as const;

export function customerQuery(userId: number) {
  return queryOptions({
    queryKey: [...customerKey(userId), 'profile'] as const,
    queryFn: async ({ signal }): Promise<CustomerProfile> =>
      (await adminCall(getCustomer, { params: { userId } }, { signal })).data,
  });
}

export function useCustomer(userId: number) {
  return useQuery(customerQuery(userId));
}

/** After an action on a customer: all of their page, their compliance case, and the audit log. */
export function refreshAfterCustomerChange(queryClient: QueryClient, userId: number): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: customerKey(userId) }),
    queryClient.invalidateQueries({ queryKey: ['admin', 'compliance', 'case', userId] }),
    queryClient.invalidateQueries({ queryKey: ['admin', 'customers', 'search'] }),
    queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
  ]);
}
