import { listStaff, type StaffMember } from '@florin/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { adminCall } from './admin-client';
import { AUDIT_LOG_QUERY_KEY } from './list-audit-log';

export const staffListQuery = queryOptions({
  queryKey: ['admin', 'staff'] as const,
  queryFn: async ({ signal }): Promise<StaffMember[]> => (await adminCall(listStaff, {}, { signal })).data,
});

export function useStaffList() {
  return useQuery(staffListQuery);
}

/** After a change to a member: the list shows it, and the audit log has a new row. */
export function refreshAfterStaffChange(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: staffListQuery.queryKey }),
    queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
  ]);
}
