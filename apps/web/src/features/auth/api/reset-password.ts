import { resetPassword } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export type ResetPasswordInput = {
  email: string;
  password: string;
  password_confirmation: string;
  token: string;
};

/** Failures get the spec's own wording on this screen (password-reset-page.tsx). */
export function setNewPassword(body: ResetPasswordInput): Promise<{ message: string }> {
  return apiCall(resetPassword, { body }, { notify: false });
}

export function useSetNewPassword() {
  return useMutation({ mutationFn: setNewPassword });
}
