import { closeAccount } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { apiCall } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';

/** `POST /api/v1/account/close`: the session ends with it, so the login screen says it is done. */
export function useCloseAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (password: string) => apiCall(closeAccount, { body: { password } }, { notify: false }),
    onSuccess: async () => {
      await navigate(`${PATHS.login}?account_closed=success`, { replace: true });
      queryClient.clear();
    },
  });
}
