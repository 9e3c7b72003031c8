import {
  approveFiatWithdrawal,
  exportPayoutFile,
  markFiatWithdrawalPaid,
  rejectFiatWithdrawal,
  type FiatCurrency,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
export function rejectPayout({ id, reason }: { id: string; reason: string }) {
  return adminCall(rejectFiatWithdrawal, { params: { id }, body: { reason } }, { notify: false });
}

/** The payout file is a CSV download, not JSON: the browser fetches it with the staff session. */
export function payoutFileUrl(currency: FiatCurrency): string {
  return `${exportPayoutFile.path}?currency=${currency}`;
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
