import { forgotPassword } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** Failures get the spec's own wording on this screen (forgot-password-page.tsx). */
export function requestPasswordReset(email: string): Promise<{ message: string }> {
  return apiCall(forgotPassword, { body: { email } }, { notify: false });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
