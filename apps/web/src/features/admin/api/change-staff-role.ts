import { changeStaffRole, type StaffRole } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from './admin-client';
import { refreshAfterStaffChange } from './list-staff';

export function changeRole(input: { staffId: number; role: StaffRole }) {
  return adminCall(
    changeStaffRole,
    { params: { staffId: input.staffId }, body: { role: input.role } },
    { errorTitle: 'Role not changed' },
  );
}

export function useChangeStaffRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRole,
    onSuccess: () => refreshAfterStaffChange(queryClient),
  });
}
