import { searchCustomers, type CustomerSummary, type Page } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export type CustomerSearch = { q: string; page: number };

export function customerSearchQuery(search: CustomerSearch) {
  return queryOptions({
    queryKey: ['admin', 'customers', 'search', search] as const,
    queryFn: async ({ signal }): Promise<Page<CustomerSummary>> =>
      adminCall(searchCustomers, { query: { q: search.q || undefined, page: search.page } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCustomerSearch(search: CustomerSearch) {
  return useQuery(customerSearchQuery(search));
}
