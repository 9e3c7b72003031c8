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

export type UsersTable = {
  id: Generated<number>;
  user_identification: string;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  email_verified_at: Date | null;
  pending_email: string | null;
  status: Generated<number>;
  block_status: Generated<number>;
  account_type: 'Individual' | 'Corporate' | null;
  platform: Generated<number>;
  upgraded: Generated<number>;
  totp_secret_encrypted: string | null;
  totp_pending_secret_encrypted: string | null;
  totp_last_step: string | null;
  platform_2fa_mobile: Generated<boolean>;
  referral_code: string;
  referred_by_user_id: number | null;
  last_login_at: Date | null;
  previous_login_at: Date | null;
  password_changed_at: Generated<Date>;
  login_notifications: Generated<boolean>;
  loginout_notifications: Generated<boolean>;
  marketing_notifications: Generated<boolean>;
  trade_notifications: Generated<boolean>;
  created_at: CreatedAt;
};

export type SessionsTable = {
  id: Int8Id;
  token_hash: string;
  user_id: number;
  csrf_token: string;
  ip: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
  last_seen_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
};

export type LoginChallengesTable = {
  id: Int8Id;
  token_hash: string;
  user_id: number;
  expires_at: Date;
  failed_attempts: Generated<number>;
  used_at: Date | null;
};

export type EmailTokenPurpose = 'verify_email' | 'password_reset' | 'email_change';

export type EmailTokensTable = {
  id: Int8Id;
  user_id: number;
  purpose: EmailTokenPurpose;
  token_hash: string;
  new_email: string | null;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
};

export type RecoveryCodesTable = { id: Int8Id; user_id: number; code_hash: string; used_at: Date | null };
export type RateLimitHitsTable = { key: string; at: Generated<Date> };
export type UsedCaptchasTable = { signature: string; expires_at: Date };
export type DevMailboxTable = {
  id: Int8Id;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: CreatedAt;
};
export type NotificationsTable = {
  id: Int8Id;
  user_id: number;
  event: string;
  subject: string;
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
  users: UsersTable;
  sessions: SessionsTable;
  login_challenges: LoginChallengesTable;
  email_tokens: EmailTokensTable;
  recovery_codes: RecoveryCodesTable;
  rate_limit_hits: RateLimitHitsTable;
  used_captchas: UsedCaptchasTable;
  dev_mailbox: DevMailboxTable;
  notifications: NotificationsTable;
};
