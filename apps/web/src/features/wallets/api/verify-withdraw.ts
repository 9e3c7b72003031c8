import { verifyWithdraw } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export type VerifyWithdrawInput = { withdrawalId: string; code: string };

/** Confirms a withdrawal with the code e-mailed for it. The modal shows a refusal inline. */
export function verifyWithdrawCode({ withdrawalId, code }: VerifyWithdrawInput) {
  return apiCall(
    verifyWithdraw,
    { body: { withdrawal_id: withdrawalId, verify_code: code } },
    { notify: false },
  );
}

export function useVerifyWithdraw() {
  return useMutation({ mutationFn: verifyWithdrawCode });
}
