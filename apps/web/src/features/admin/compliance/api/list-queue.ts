import { listComplianceQueue, type Page, type QueueItem } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

/** Every queue page: a decision can move a customer in or out of any of them. */
export const COMPLIANCE_QUEUE_QUERY_KEY = ['admin', 'compliance', 'queue'] as const;

export function complianceQueueQuery(page: number) {
  return queryOptions({
    queryKey: [...COMPLIANCE_QUEUE_QUERY_KEY, page] as const,
    queryFn: async ({ signal }): Promise<Page<QueueItem>> =>
      adminCall(listComplianceQueue, { query: { page } }, { signal }),
    // Paging keeps the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useComplianceQueue(page: number) {
  return useQuery(complianceQueueQuery(page));
}
