import { cryptoWithdraw } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { refreshCryptoMoney } from './crypto-keys';

export type ConfirmCryptoWithdrawInput = { withdrawalId: string; passcode?: string };

/** Queues a confirmed withdrawal for staff, with the 2FA code when the customer has 2FA. The modal reports failures. */
export function confirmWithdraw({ withdrawalId, passcode }: ConfirmCryptoWithdrawInput) {
  return apiCall(
    cryptoWithdraw,
    { body: { withdrawal_id: withdrawalId, passcode: passcode ?? null } },
    { notify: false },
  );
}

export function useConfirmCryptoWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: confirmWithdraw, onSuccess: () => refreshCryptoMoney(queryClient) });
}
