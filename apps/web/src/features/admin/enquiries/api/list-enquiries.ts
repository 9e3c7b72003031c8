import { listEnquiries, type Enquiry, type EnquiryType, type Page } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export type EnquiriesFilter = { page: number; type?: EnquiryType };

export function enquiriesQuery(filter: EnquiriesFilter) {
  return queryOptions({
    queryKey: ['admin', 'enquiries', filter] as const,
    queryFn: async ({ signal }): Promise<Page<Enquiry>> =>
      adminCall(listEnquiries, { query: filter }, { signal }),
    // Paging keeps the old rows on screen until the new ones arrive, so the list does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useEnquiries(filter: EnquiriesFilter) {
  return useQuery(enquiriesQuery(filter));
}
