import {
  approveFiatWithdrawal,
  exportPayoutFile,
  markFiatWithdrawalPaid,
  rejectFiatWithdrawal,
  type FiatCurrency,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveFile } from '../../../../lib/save-file';
import { adminCall } from '../../api/admin-client';
import { FIAT_ADMIN_KEYS } from './fiat-admin-keys';

/** First of two decisions on a large withdrawal; someone else then marks it paid. */
export function approvePayout(id: string) {
  return adminCall(approveFiatWithdrawal, { params: { id }, body: {} }, { errorTitle: 'Not approved' });
}

/** Posts the hold: the money has left the house's bank. The modal reports failures. */
export function markPayoutPaid({ id, paymentReference }: { id: string; paymentReference: string }) {
  return adminCall(
    markFiatWithdrawalPaid,
    { params: { id }, body: { payment_reference: paymentReference } },
    { notify: false },
  );
}

/** Voids the hold: the money goes back to the customer's balance. The modal reports failures. */
/** A withdrawal in a payout file is rejected only once the bank has returned it, which the dialog has said. */
export function rejectPayout({
  id,
  reason,
  bankReturned,
}: {
  id: string;
  reason: string;
  bankReturned: boolean;
}) {
  return adminCall(
    rejectFiatWithdrawal,
    { params: { id }, body: { reason, ...(bankReturned ? { bank_returned: true as const } : {}) } },
    { notify: false },
  );
}

/**
 * Makes the next payout file (the withdrawals no earlier file listed, which the customer can no longer
 * cancel from now on) and saves it as a CSV; nothing is saved when no withdrawal is waiting.
 */
export async function exportPayouts(
  currency: FiatCurrency,
): Promise<{ withdrawals: number; message: string }> {
  const { data, message } = await adminCall(
    exportPayoutFile,
    { body: { currency } },
    { errorTitle: 'Not exported' },
  );
  if (data.withdrawals > 0) saveFile(data.csv, 'text/csv', data.filename);
  return { withdrawals: data.withdrawals, message };
}

function usePayoutMutation<TInput, TData>(mutationFn: (input: TInput) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FIAT_ADMIN_KEYS.payouts }),
  });
}

export function useApprovePayout() {
  return usePayoutMutation(approvePayout);
}

export function useMarkPayoutPaid() {
  return usePayoutMutation(markPayoutPaid);
}

export function useRejectPayout() {
  return usePayoutMutation(rejectPayout);
}

export function useExportPayouts() {
  return usePayoutMutation(exportPayouts);
}
