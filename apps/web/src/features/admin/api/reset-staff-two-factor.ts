import { resetStaffTwoFactor } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from './admin-client';
import { refreshAfterStaffChange } from './list-staff';

export function resetMemberTwoFactor(staffId: number) {
  return adminCall(resetStaffTwoFactor, { params: { staffId } }, { errorTitle: '2FA not reset' });
}

export function useResetStaffTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetMemberTwoFactor,
    onSuccess: () => refreshAfterStaffChange(queryClient),
  });
}
