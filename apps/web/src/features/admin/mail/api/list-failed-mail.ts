import { listFailedMail, type AdminMail, type Page } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export function failedMailQuery(page: number) {
  return queryOptions({
    queryKey: ['admin', 'mail', 'failed', page] as const,
    queryFn: async ({ signal }): Promise<Page<AdminMail>> =>
      adminCall(listFailedMail, { query: { page } }, { signal }),
    // Paging keeps the old rows on screen until the new ones arrive, so the list does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useFailedMail(page: number) {
  return useQuery(failedMailQuery(page));
}

/** Every page of the list: a resent mail leaves it, and the pages after it move up. */
export function refreshFailedMail(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: ['admin', 'mail', 'failed'] });
}
