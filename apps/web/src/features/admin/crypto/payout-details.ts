import {
  BENEFICIARY_TYPE_LABELS,
  CRYPTO_WITHDRAWAL_STATUS_LABELS,
  CRYPTO_WITHDRAWAL_STATUSES,
  DESTINATION_TYPE_LABELS,
  type AdminCryptoWithdrawal,
} from '@florin/contracts';
import type { CryptoPayoutFilter } from './api/list-crypto-payouts';

/** The queue's status filter: the open work list first, then every status by its label. */
export const PAYOUT_FILTERS: readonly { value: CryptoPayoutFilter; label: string }[] = [
  { value: 'open', label: 'Open (pending, approved, sent)' },
  ...CRYPTO_WITHDRAWAL_STATUSES.map((status) => ({
    value: status,
    label: CRYPTO_WITHDRAWAL_STATUS_LABELS[status],
  })),
];

/** The filter an address asks for (`?status=`); anything unknown is the open work list. */
export function payoutFilterOf(value: string | null): CryptoPayoutFilter {
  return PAYOUT_FILTERS.find((filter) => filter.value === value)?.value ?? 'open';
}

/** Travel Rule: who owns the destination wallet, with the name the customer gave. */
export function walletOwnerOf(
  withdrawal: Pick<AdminCryptoWithdrawal, 'beneficiary_type' | 'beneficiary_name'>,
): string {
  const type = BENEFICIARY_TYPE_LABELS[withdrawal.beneficiary_type];
  return withdrawal.beneficiary_name ? `${type}: ${withdrawal.beneficiary_name}` : type;
}

/** Travel Rule: a private wallet, or an exchange and which one. */
export function walletHeldAtOf(
  withdrawal: Pick<AdminCryptoWithdrawal, 'destination_type' | 'exchange_name'>,
): string {
  const type = DESTINATION_TYPE_LABELS[withdrawal.destination_type];
  return withdrawal.exchange_name ? `${type}: ${withdrawal.exchange_name}` : type;
}

/** `1 of 2: a@florin.test`: approvals given, needed (two over the daily limit) and by whom. */
export function approvalsOf(
  withdrawal: Pick<
    AdminCryptoWithdrawal,
    'auto_approved' | 'approved_by' | 'second_approved_by' | 'needs_second_approval'
  >,
): string {
  if (withdrawal.auto_approved) return 'Approved automatically';
  const approvers = [withdrawal.approved_by, withdrawal.second_approved_by].filter(
    (approver): approver is string => Boolean(approver),
  );
  const needed = withdrawal.needs_second_approval ? 2 : 1;
  return approvers.length > 0
    ? `${approvers.length} of ${needed}: ${approvers.join(', ')}`
    : `0 of ${needed}`;
}

export type PayoutAction = 'approve' | 'export' | 'send' | 'confirm' | 'reject';

/**
 * What staff may do with a withdrawal in each status, as the server's
 * transitions allow: approve a pending one; send an approved one (a
 * cold-storage coin's signing request exported first); confirm a sent one;
 * reject while it has not left. While compliance holds the customer's
 * account the server refuses approve, the signing request and the hot
 * wallet's send: only reject, and recording a cold-storage txid, are left.
 */
export function payoutActionsFor(
  withdrawal: Pick<AdminCryptoWithdrawal, 'status' | 'wallet' | 'customer_on_hold'>,
): readonly PayoutAction[] {
  switch (withdrawal.status) {
    case 'pending':
      return withdrawal.customer_on_hold ? ['reject'] : ['approve', 'reject'];
    case 'approved':
      // A cold-storage transaction signed before the hold may still be recorded by its txid.
      if (withdrawal.customer_on_hold)
        return withdrawal.wallet === 'cold_storage' ? ['send', 'reject'] : ['reject'];
      return withdrawal.wallet === 'cold_storage' ? ['export', 'send', 'reject'] : ['send', 'reject'];
    case 'sent':
      return ['confirm'];
    default:
      return [];
  }
}
