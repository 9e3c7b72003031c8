import type { ColumnType, Generated } from 'kysely';

/** NUMERIC(40,0) and int8 arrive as strings on both engines; code turns them into bigint. */
export type Numeric = ColumnType<string, string, string>;
export type Int8Id = Generated<string>;
type CreatedAt = ColumnType<Date, never, never>;

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

export type CurrenciesTable = {
  id: Generated<number>;
  code: string;
  name: string;
  symbol: string;
  active: boolean;
  sort_order: number;
  withdraw_min: Numeric;
  withdraw_fee: Numeric;
  withdraw_fee_free_from: Numeric | null;
};

export type CoinsTable = {
  id: Generated<number>;
  coin_id: string;
  asset: string;
  name: string;
  primary: number;
  active: boolean;
  sort_order: number;
  disable_buy: boolean;
  disable_sell: boolean;
  disable_deposit: boolean;
  disable_withdraw: boolean;
  withdraw_fee: Numeric;
  amount_min: Numeric;
  amount_max: Numeric | null;
  platform_fee: string | null;
  ask_spread: string;
  bid_spread: string;
  confirmations: number;
};

export type StaffRole = 'superadmin' | 'compliance' | 'finance' | 'support';

export type StaffTable = {
  id: Generated<number>;
  email: string;
  password_hash: string;
  role: StaffRole;
  totp_secret_encrypted: string | null;
  disabled_at: Date | null;
  created_at: CreatedAt;
};

export type DB = {
  assets: AssetsTable;
  accounts: AccountsTable;
  journals: JournalsTable;
  entries: EntriesTable;
  holds: HoldsTable;
  house_balance_deltas: HouseBalanceDeltasTable;
  currencies: CurrenciesTable;
  coins: CoinsTable;
  staff: StaffTable;
};
