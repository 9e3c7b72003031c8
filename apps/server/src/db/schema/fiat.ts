import type { ColumnType, Generated } from 'kysely';
import type { Numeric, Int8Id, CreatedAt, WriteOrder } from './columns.js';

// Fiat money in and out: bank accounts, deposits, withdrawals and their codes.

/** Fiat money in and out (0011). */
export type BankAccountsTable = {
  id: Generated<number>;
  seq: WriteOrder;
  user_id: number;
  currency: string;
  name_of_account: string;
  account_number: string | null;
  sort_code: string | null;
  iban: string | null;
  bic: string | null;
  verified_at: Date | null;
  verified_by: 'deposit' | 'staff' | null;
  details_changed_at: Generated<Date>;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
};

export type FiatBankSettingsTable = {
  currency: string;
  account_name: Generated<string>;
  account_number: Generated<string>;
  sort_code: Generated<string>;
  bank_name: Generated<string>;
  iban: Generated<string>;
  bic: Generated<string>;
  second_approval_from: ColumnType<string, string | undefined, string>;
  updated_at: Generated<Date>;
  updated_by: number | null;
};

export type FiatDepositStatus = 'credited' | 'suspense' | 'returned';
export type FiatSuspenseReason = 'unmatched' | 'name_mismatch' | 'customer_not_live' | 'unknown_account';

export type FiatDepositsTable = {
  id: Int8Id;
  seq: WriteOrder;
  currency: string;
  bank_transaction_id: string;
  amount: Numeric;
  payer_name: string;
  /** The account the money came from, when known (migration 0037). */
  payer_sort_code: ColumnType<string | null, string | null | undefined, never>;
  payer_account_number: ColumnType<string | null, string | null | undefined, never>;
  payer_iban: ColumnType<string | null, string | null | undefined, never>;
  payer_bic: ColumnType<string | null, string | null | undefined, never>;
  reference: string;
  value_date: string | null;
  source: 'manual' | 'import';
  status: FiatDepositStatus;
  suspense_reason: FiatSuspenseReason | null;
  user_id: number | null;
  recorded_by: number | null;
  resolved_by: number | null;
  resolved_at: Date | null;
  resolution_note: string | null;
  created_at: CreatedAt;
};

export type FiatWithdrawalStatus = 'pending' | 'approved' | 'paid' | 'rejected' | 'cancelled';

export type FiatWithdrawalsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  idempotency_key: string;
  request_hash: string;
  currency: string;
  amount: Numeric;
  fee: Numeric;
  bank_account_id: number;
  name_of_account: string;
  account_number: string | null;
  sort_code: string | null;
  iban: string | null;
  bic: string | null;
  status: FiatWithdrawalStatus;
  hold_id: string;
  journal_id: string | null;
  needs_second_approval: boolean;
  approved_by: number | null;
  approved_at: Date | null;
  paid_by: number | null;
  paid_at: Date | null;
  payment_reference: string | null;
  rejected_by: number | null;
  rejected_at: Date | null;
  reject_reason: string | null;
  cancelled_at: Date | null;
  /** When a payout file first listed it (migration 0027): from then on the bank is paying it. */
  exported_at: Date | null;
  exported_by: number | null;
  created_at: CreatedAt;
};

export type WithdrawalCodesTable = {
  id: Int8Id;
  user_id: number;
  purpose: string;
  code_hash: string;
  expires_at: Date;
  failed_attempts: Generated<number>;
  used_at: Date | null;
  created_at: CreatedAt;
};
