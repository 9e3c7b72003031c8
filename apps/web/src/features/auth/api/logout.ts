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
 * The cache is cleared once the router has left the signed-in screens; one
 * React has not yet taken down may still refetch and meet a 401, which the
 * app's handler (root-layout.tsx) then only forgets.
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
