import { request2fa, type Fiat2faPurpose } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from './api-client';

/**
 * Send 2FA: mails a one-time code for `purpose` to a customer whose second factor is e-mailed
 * codes (platform_2fa_mobile); the code works only for that purpose. The caller reports the outcome.
 */
export function requestTwoFactorCode(purpose: Fiat2faPurpose) {
  return apiCall(request2fa, { body: { purpose } }, { notify: false });
}

/** `mutate(purpose)`: one hook for every form with a Send 2FA button. */
export function useRequestTwoFactorCode() {
  return useMutation({ mutationFn: requestTwoFactorCode });
}
