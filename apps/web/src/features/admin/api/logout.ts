import { adminLogout } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ADMIN_PATHS } from '../admin-paths';
import { adminCall } from './admin-client';

export function signOutStaff(): Promise<{ message: string }> {
  return adminCall(adminLogout, {}, { errorTitle: 'Sign out failed' });
}

/** Ends the staff session, leaves for the staff login, then forgets every cached answer. */
export function useSignOutStaff() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signOutStaff,
    onSuccess: async () => {
      await navigate(ADMIN_PATHS.login, { replace: true });
      queryClient.clear();
    },
  });
}
