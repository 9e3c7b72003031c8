import { listAdminMotds, type AdminMotd } from '@florin/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export const motdListQuery = queryOptions({
  queryKey: ['admin', 'motd'] as const,
  queryFn: async ({ signal }): Promise<AdminMotd[]> => (await adminCall(listAdminMotds, {}, { signal })).data,
});

export function useMotdList() {
  return useQuery(motdListQuery);
}

export function refreshMotdList(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: motdListQuery.queryKey });
}
