import type { Generated } from 'kysely';
import type { Numeric, Int8Id, CreatedAt, WriteOrder } from './columns.js';

// Crypto in and out: deposit addresses, chain scanning, whitelists and withdrawals.

/** Crypto in (0012). */
export type DepositAddressCountersTable = { asset: string; next_index: Generated<number> };

export type DepositAddressesTable = {
  id: Int8Id;
  seq: WriteOrder;
  asset: string;
  user_id: number;
  derivation_index: number;
  address: string;
  /** int8: a string on both engines. */
  tag: string | null;
  created_at: CreatedAt;
};

export type CryptoDepositStatus = 'pending' | 'credited' | 'dropped' | 'suspense' | 'returned';

export type CryptoDepositsTable = {
  id: Int8Id;
  seq: WriteOrder;
  asset: string;
  txid: string;
  output: number;
  address: string;
  tag: string | null;
  amount: Numeric;
  user_id: number | null;
  deposit_address_id: string | null;
  status: CryptoDepositStatus;
  confirmations: Generated<number>;
  required_confirmations: number;
  journal_id: string | null;
  last_seen_at: Generated<Date>;
  credited_at: Date | null;
  dropped_at: Date | null;
  resolved_by: number | null;
  resolved_at: Date | null;
  resolution_note: string | null;
  created_at: CreatedAt;
};

export type ChainCursorsTable = {
  asset: string;
  cursor: string | null;
  height: Generated<number>;
  scanned_at: Generated<Date>;
};

export type SimulatedChainHeightsTable = { asset: string; height: Generated<number> };

export type SimulatedChainTransactionsTable = {
  id: Int8Id;
  asset: string;
  txid: string;
  output: Generated<number>;
  address: string;
  tag: string | null;
  amount: Numeric;
  block_height: number | null;
  dropped_at: Date | null;
  created_at: CreatedAt;
};

export type WhitelistedWalletsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  asset: string;
  address: string;
  tag: string | null;
  label: string;
  usable_from: Date;
  removal_verified_until: Date | null;
  deleted_at: Date | null;
  created_at: CreatedAt;
};

export type WhitelistedIpsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  ip_address: string;
  city: string | null;
  country: string | null;
  deleted_at: Date | null;
  created_at: CreatedAt;
};

export type CryptoWithdrawalStatus =
  | 'awaiting_code'
  | 'verified'
  | 'pending'
  | 'approved'
  | 'sent'
  | 'confirmed'
  | 'rejected'
  | 'cancelled'
  | 'expired';

export type CryptoWithdrawalsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  idempotency_key: string;
  request_hash: string;
  asset: string;
  amount: Numeric;
  fee: Numeric;
  address: string;
  tag: string | null;
  whitelisted_wallet_id: string | null;
  beneficiary_type: 'self' | 'person' | 'business';
  beneficiary_name: string | null;
  destination_type: 'private_wallet' | 'exchange';
  exchange_name: string | null;
  status: CryptoWithdrawalStatus;
  hold_id: string;
  journal_id: string | null;
  verify_by: Date;
  verified_at: Date | null;
  requested_at: Date | null;
  needs_second_approval: Generated<boolean>;
  auto_approved: Generated<boolean>;
  approved_by: number | null;
  approved_at: Date | null;
  second_approved_by: number | null;
  second_approved_at: Date | null;
  sent_by: number | null;
  sent_at: Date | null;
  txid: string | null;
  confirmed_by: number | null;
  confirmed_at: Date | null;
  rejected_by: number | null;
  rejected_at: Date | null;
  reject_reason: string | null;
  cancelled_at: Date | null;
  created_at: CreatedAt;
  /** The payout job's signed transaction, kept before it is broadcast: a retry sends the same one. */
  payout_raw: string | null;
  payout_txid: string | null;
  payout_signed_at: Date | null;
  /** Left to staff (above the limits, or its signing request exported): the payout job never sends it. */
  payout_by_staff: Generated<boolean>;
};
