import { changePassword } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export type ChangePasswordInput = {
  current_password: string;
  password: string;
  password_confirmation: string;
};

/** Failures get the spec's own wording on this screen (settings-errors.ts). */
export function updatePassword(body: ChangePasswordInput): Promise<{ message: string }> {
  return apiCall(changePassword, { body }, { notify: false });
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword });
}
