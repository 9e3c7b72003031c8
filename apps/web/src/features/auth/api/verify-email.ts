import { verifyEmail } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** The page shows the outcome itself (its toasts, the login banner, or a retry when unreachable). */
export function confirmEmail(token: string): Promise<{ message: string }> {
  return apiCall(verifyEmail, { params: { token } }, { notify: false });
}

export function useConfirmEmail() {
  return useMutation({ mutationFn: confirmEmail });
}
