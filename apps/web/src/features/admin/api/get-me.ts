import { getAdminMe, type AdminMe } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/**
 * The signed-in staff member. A 404 means "no staff session": the admin shell
 * sends the visitor to the staff login, so nothing is toasted here.
 */
export const staffMeQuery = queryOptions({
  queryKey: ['admin', 'me'] as const,
  queryFn: async ({ signal }): Promise<AdminMe> =>
    (await apiCall(getAdminMe, {}, { notify: false, signal })).data,
  // A role changed by a superadmin shows when the staff member comes back to the tab.
  refetchOnWindowFocus: true,
});

export function useStaffMe() {
  return useQuery(staffMeQuery);
}
