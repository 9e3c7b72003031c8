import { verifyEmail } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** The login screen's banner tells the result, so there is no toast. */
export function confirmEmail(token: string): Promise<{ message: string }> {
  return apiCall(verifyEmail, { params: { token } }, { notify: false });
}

export function useConfirmEmail() {
  return useMutation({ mutationFn: confirmEmail });
}
