import {
  adminLogin,
  adminLogin2fa,
  type AdminLoginBody,
  type AdminLoginResponse,
  type AdminMe,
} from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** Step one: e-mail and password. The screen shows each failure itself, beside the form. */
export function signInStaff(body: AdminLoginBody): Promise<AdminLoginResponse> {
  return apiCall(adminLogin, { body }, { notify: false });
}

export function useSignInStaff() {
  return useMutation({ mutationFn: signInStaff });
}

/** Step two: the code (enrolling the new secret the first time); sets the staff session cookie. */
export async function confirmStaffCode(body: { login_token: string; code: string }): Promise<AdminMe> {
  return (await apiCall(adminLogin2fa, { body }, { notify: false })).data;
}

export function useConfirmStaffCode() {
  return useMutation({ mutationFn: confirmStaffCode });
}
