import { requestEmailChange } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useRefreshCurrentUser } from '../../../lib/current-user';

export type EmailChangeInput = { email: string; password: string };

/** Failures get the spec's own wording on this screen (settings-errors.ts). */
export function askToChangeEmail(body: EmailChangeInput): Promise<{ message: string }> {
  return apiCall(requestEmailChange, { body }, { notify: false });
}

/** The user's pending_email changes, which shows the shell's "confirm your new address" banner. */
export function useAskToChangeEmail() {
  const refreshUser = useRefreshCurrentUser();
  return useMutation({ mutationFn: askToChangeEmail, onSuccess: refreshUser });
}
