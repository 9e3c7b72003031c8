import { getCustomerLedger, type LedgerLine, type Page } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { customerKey } from './get-customer';

export function customerLedgerQuery(userId: number, page: number) {
  return queryOptions({
    queryKey: [...customerKey(userId), 'ledger', page] as const,
    queryFn: async ({ signal }): Promise<Page<LedgerLine>> =>
      adminCall(getCustomerLedger, { params: { userId }, query: { page } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCustomerLedger(userId: number, page: number) {
  return useQuery(customerLedgerQuery(userId, page));
}
