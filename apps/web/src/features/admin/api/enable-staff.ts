import { enableStaff } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from './admin-client';
import { refreshAfterStaffChange } from './list-staff';

export function enableMember(staffId: number) {
  return adminCall(enableStaff, { params: { staffId } }, { errorTitle: 'Not enabled' });
}

export function useEnableStaffMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableMember,
    onSuccess: () => refreshAfterStaffChange(queryClient),
  });
}
