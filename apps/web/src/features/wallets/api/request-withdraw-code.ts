import { request2fa } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** Mails a one-time code for a fiat withdrawal (customers with e-mailed codes). The button reports the outcome. */
export function requestWithdrawCode() {
  return apiCall(request2fa, { body: { purpose: 'Fiat Withdraw(2fa)' } }, { notify: false });
}

export function useRequestWithdrawCode() {
  return useMutation({ mutationFn: requestWithdrawCode });
}
