import { logout } from '@florin/contracts';
import { useQueryClient, useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { apiCall } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';

export function signOut(): Promise<{ message: string }> {
  return apiCall(logout, {}, { errorTitle: 'Logout Failed' });
}

/**
 * Ends the session, then leaves for /login and forgets every cached answer.
 * The cache is cleared after the signed-in screens have gone, so none of them
 * refetches in between.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      await navigate(PATHS.login, { replace: true });
      queryClient.clear();
    },
  });
}
