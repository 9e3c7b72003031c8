import { disableStaff } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from './admin-client';
import { refreshAfterStaffChange } from './list-staff';

export function disableMember(staffId: number) {
  return adminCall(disableStaff, { params: { staffId } }, { errorTitle: 'Not disabled' });
}

export function useDisableStaffMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableMember,
    onSuccess: () => refreshAfterStaffChange(queryClient),
  });
}
