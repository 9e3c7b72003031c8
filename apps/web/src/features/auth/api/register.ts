import { registerUser, type RegisterBody } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** 422s put their field errors beside the inputs as well as in the toast, so the screen reports failures. */
export function register(body: RegisterBody): Promise<{ message: string }> {
  return apiCall(registerUser, { body }, { notify: false });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
