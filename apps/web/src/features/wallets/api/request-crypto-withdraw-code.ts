import { request2fa } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** Send 2FA: mails a one-time code for a crypto withdrawal (customers with e-mailed codes). */
export function requestCryptoWithdrawCode() {
  return apiCall(request2fa, { body: { purpose: 'Crypto Withdraw(2fa)' } }, { errorTitle: 'Failed' });
}

export function useRequestCryptoWithdrawCode() {
  return useMutation({ mutationFn: requestCryptoWithdrawCode });
}
