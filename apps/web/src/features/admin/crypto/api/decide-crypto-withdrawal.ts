import {
  approveCryptoWithdrawal,
  confirmCryptoWithdrawal,
  exportSigningRequest,
  rejectCryptoWithdrawal,
  sendCryptoWithdrawal,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveFile } from '../../../../lib/save-file';
import { adminCall } from '../../api/admin-client';
import { CRYPTO_WITHDRAWAL_KEYS } from './crypto-withdrawal-keys';

/** A first approval, or the second one a withdrawal over the daily limit needs. */
export function approveCryptoPayout(id: string) {
  return adminCall(approveCryptoWithdrawal, { params: { id }, body: {} }, { errorTitle: 'Not approved' });
}

/**
 * Posts the hold: the coins leave. Without a txid the hot wallet (the simulated chain) broadcasts;
 * a cold-storage coin needs the txid its signer returned. The modal reports failures.
 */
export function sendCryptoPayout({ id, txid }: { id: string; txid?: string }) {
  return adminCall(sendCryptoWithdrawal, { params: { id }, body: txid ? { txid } : {} }, { notify: false });
}

export function confirmCryptoPayout(id: string) {
  return adminCall(confirmCryptoWithdrawal, { params: { id }, body: {} }, { errorTitle: 'Not confirmed' });
}

/** Voids the hold: the coins go back to the customer's balance. The modal reports failures. */
export function rejectCryptoPayout({ id, reason }: { id: string; reason: string }) {
  return adminCall(rejectCryptoWithdrawal, { params: { id }, body: { reason } }, { notify: false });
}

/** The unsigned transaction for the cold-storage signer, saved as a JSON file by the browser. */
export async function downloadSigningRequest(id: string): Promise<void> {
  const { data } = await adminCall(exportSigningRequest, { params: { id } }, { errorTitle: 'Not exported' });
  saveFile(
    `${JSON.stringify(data, null, 2)}\n`,
    'application/json',
    `signing-request-${data.asset.toLowerCase()}-${data.withdrawal_id}.json`,
  );
}

/** Every action moves a withdrawal between statuses, so every filtered list may change. */
function useCryptoPayoutMutation<TInput, TData>(mutationFn: (input: TInput) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CRYPTO_WITHDRAWAL_KEYS.payouts }),
  });
}

export function useApproveCryptoPayout() {
  return useCryptoPayoutMutation(approveCryptoPayout);
}

export function useSendCryptoPayout() {
  return useCryptoPayoutMutation(sendCryptoPayout);
}

export function useConfirmCryptoPayout() {
  return useCryptoPayoutMutation(confirmCryptoPayout);
}

export function useRejectCryptoPayout() {
  return useCryptoPayoutMutation(rejectCryptoPayout);
}

export function useDownloadSigningRequest() {
  return useMutation({ mutationFn: downloadSigningRequest });
}
