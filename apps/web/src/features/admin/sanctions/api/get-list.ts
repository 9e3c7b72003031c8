import { getSanctionsList, type SanctionsList } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export const SANCTIONS_LIST_QUERY_KEY = ['admin', 'sanctions', 'list'] as const;

export const sanctionsListQuery = queryOptions({
  queryKey: SANCTIONS_LIST_QUERY_KEY,
  queryFn: async ({ signal }): Promise<SanctionsList | null> =>
    (await adminCall(getSanctionsList, {}, { signal })).data,
});

/** The active list's metadata; null while none has been imported. */
export function useSanctionsList() {
  return useQuery(sanctionsListQuery);
}
