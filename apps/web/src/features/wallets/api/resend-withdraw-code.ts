import { resendWithdrawCode } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** E-mails a new code for a withdrawal waiting for one; failures are shown by the shared handler. */
export function resendCode(withdrawalId: string) {
  return apiCall(resendWithdrawCode, { params: { id: withdrawalId } }, { errorTitle: 'Failed' });
}

export function useResendWithdrawCode() {
  return useMutation({ mutationFn: resendCode });
}
