import type { ColumnType } from 'kysely';
import type { Numeric, Int8Id, CreatedAt } from './columns.js';

// Accounts, journals, entries and holds: the ledger's own tables (LEDGER.md).

export type AssetsTable = { code: string; scale: number; kind: 'fiat' | 'coin' };

export type AccountsTable = {
  id: Int8Id;
  asset: string;
  owner_user_id: string | null;
  kind: string;
  reference: ColumnType<string, string | undefined, never>;
  posted: ColumnType<string, never, string>;
  held: ColumnType<string, never, string>;
  non_negative: boolean;
  is_house: boolean;
  created_at: CreatedAt;
};

export type JournalsTable = {
  id: Int8Id;
  idempotency_key: string;
  request_hash: string;
  kind: string;
  reference: string | null;
  hold_id: string | null;
  metadata: ColumnType<Record<string, unknown>, string, never>;
  created_at: CreatedAt;
};

export type EntriesTable = {
  id: Int8Id;
  journal_id: string;
  account_id: string;
  asset: string;
  amount: Numeric;
  balance_after: ColumnType<string | null, string | null, never>;
  created_at: CreatedAt;
};

export type HoldStatus = 'pending' | 'posted' | 'voided' | 'expired';

export type HoldsTable = {
  id: Int8Id;
  idempotency_key: string;
  request_hash: string;
  account_id: string;
  amount: Numeric;
  remaining: Numeric;
  status: HoldStatus;
  reason: string;
  reference: string | null;
  created_at: CreatedAt;
  resolved_at: Date | null;
};

export type HouseBalanceDeltasTable = { id: Int8Id; account_id: string; amount: Numeric };
