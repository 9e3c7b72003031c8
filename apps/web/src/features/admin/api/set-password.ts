import { adminSetPassword, type AdminSetPasswordBody } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** 422s land beside the inputs (or, for a dead link, as the page's alert): the screen reports failures. */
export function setStaffPassword(body: AdminSetPasswordBody): Promise<{ message: string }> {
  return apiCall(adminSetPassword, { body }, { notify: false });
}

export function useSetStaffPassword() {
  return useMutation({ mutationFn: setStaffPassword });
}
