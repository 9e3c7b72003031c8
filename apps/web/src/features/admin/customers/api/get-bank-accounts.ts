import { listCustomerBankAccounts, type AdminBankAccount } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { customerKey } from './get-customer';

export const customerBankAccountsKey = (userId: number) => [...customerKey(userId), 'bank-accounts'] as const;

/** The customer's registered bank accounts, one per fiat currency (finance). */
export function customerBankAccountsQuery(userId: number) {
  return queryOptions({
    queryKey: customerBankAccountsKey(userId),
    queryFn: async ({ signal }): Promise<AdminBankAccount[]> =>
      (await adminCall(listCustomerBankAccounts, { params: { userId } }, { signal })).data,
  });
}

export function useCustomerBankAccounts(userId: number) {
  return useQuery(customerBankAccountsQuery(userId));
}
