import type { ColumnType, Generated, Selectable } from 'kysely';

/** NUMERIC(40,0) and int8 arrive as strings on both engines; code turns them into bigint. */
export type Numeric = ColumnType<string, string, string>;
export type Int8Id = Generated<string>;
type CreatedAt = ColumnType<Date, never, never>;
/** The order rows were written in, where ids are random (migration 0026): order by it, never by id. */
type WriteOrder = Generated<string>;
/** A table's row as the modules read it: the write order is for sorting in the database, never for code or the wire. */
export type RowOf<Table> = Omit<Selectable<Table>, 'seq'>;

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

/** One fee of the schedule, per platform and tier (migration 0029). */
export type FeeScheduleTable = {
  platform: 1 | 2;
  tier: 1 | 2 | 3 | 4;
  fee_percent: Numeric;
  updated_at: Generated<Date>;
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
  /** Per customer and rolling 24 hours; beyond it a withdrawal needs a second staff approval. */
  withdraw_daily_limit: Numeric | null;
  auto_approve_whitelisted: Generated<boolean>;
};

export type StaffRole = 'superadmin' | 'compliance' | 'finance' | 'support';

export type StaffTable = {
  id: Generated<number>;
  email: string;
  /** Null until a member added by a superadmin follows their set-password link. */
  password_hash: string | null;
  role: StaffRole;
  totp_secret_encrypted: string | null;
  totp_last_step: string | null;
  disabled_at: Date | null;
  last_sign_in_at: Date | null;
  created_at: CreatedAt;
};

export type StaffSessionsTable = {
  id: Int8Id;
  token_hash: string;
  staff_id: number;
  csrf_token: string;
  ip: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
  last_seen_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
};

export type StaffLoginChallengesTable = {
  id: Int8Id;
  token_hash: string;
  staff_id: number;
  pending_totp_secret_encrypted: string | null;
  expires_at: Date;
  failed_attempts: Generated<number>;
  used_at: Date | null;
};

export type StaffPasswordTokensTable = {
  id: Int8Id;
  token_hash: string;
  staff_id: number;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
};

/** Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE). */
export type AuditLogTable = {
  id: Int8Id;
  staff_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: ColumnType<Record<string, unknown> | null, string | null, never>;
  after: ColumnType<Record<string, unknown> | null, string | null, never>;
  ip: string | null;
  created_at: CreatedAt;
};

export type UsersTable = {
  id: Generated<number>;
  seq: WriteOrder;
  user_identification: string;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  email_verified_at: Date | null;
  pending_email: string | null;
  status: Generated<number>;
  /** ON_HOLD (2) while compliance holds the account. */
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
  country: string | null;
  address: string | null;
  city: string | null;
  zip: string | null;
  phone: string | null;
  /** DATE columns come back as Date at midnight UTC on pg, strings on PGlite: read with to_char. */
  birthdate: string | null;
  nationality: string | null;
  tax_residence: string | null;
  tax_id: string | null;
  details_submitted_at: Date | null;
  is_sow_reset: Generated<number>;
  ico_confirmed: Generated<number>;
  account_tiers_class: Generated<number>;
  verification_completed_at: Date | null;
  live_since: Date | null;
  /** Staff reset the customer's 2FA at this moment: withdrawals wait 24 hours from it. */
  two_factor_reset_at: Date | null;
  /** The password changed or was reset, or 2FA was turned on or off: crypto withdrawals wait 24 hours from it. */
  security_changed_at: Date | null;
  /** A Custom fee plan (percent) staff assigned; null: the schedule's tier applies. */
  custom_fee_percent: string | null;
  /** Why compliance put the account on hold (block_status 2); null otherwise. */
  block_reason: string | null;
  /** The account's end (migration 0023): notice given, withdraw-only from, no sign-in from. */
  termination_notice_at: Date | null;
  terminated_at: Date | null;
  access_ends_at: Date | null;
  terminated_by: 'firm' | 'customer' | null;
  termination_reason: string | null;
  /** Staff keep this customer's personal data past the retention period while set. */
  legal_hold_reason: string | null;
  personal_data_erased_at: Date | null;
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
  /** Migration 0021: forwarded enquiries reply to the visitor. */
  reply_to: ColumnType<string | null, string | null | undefined, never>;
  created_at: CreatedAt;
};
export type NotificationsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  event: string;
  subject: string;
  created_at: CreatedAt;
};

export type KycAnswersTable = {
  user_id: number;
  trades_over_threshold: number;
  initial_investment: string | null;
  annual_income: string | null;
  net_worth: string | null;
  investment_portfolio: string | null;
  source_of_wealth: string | null;
  experience: string | null;
  investment_trades: string | null;
  aware_of_risk: number;
  offense: number | null;
  offense_details: string | null;
  criminal: number | null;
  criminal_details: string | null;
  caution: number | null;
  caution_details: string | null;
  ccj: number | null;
  ccj_details: string | null;
  submitted_at: Generated<Date>;
  updated_at: Generated<Date>;
};

export type CompaniesTable = {
  id: Generated<number>;
  seq: WriteOrder;
  user_id: number;
  name: string;
  company_number: string;
  address: string;
  city: string;
  country: string;
  zip: string;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
};

export type CompanyDirectorsTable = {
  id: Generated<number>;
  seq: WriteOrder;
  company_id: number;
  first_name: string;
  last_name: string;
  share_holding: Numeric;
  address: string;
  city: string;
  zip: string;
  country: string;
  phone: string;
  birthdate: string;
  status: number;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
  deleted_at: Date | null;
};

export type KycDocumentKey =
  | 'passport'
  | 'national_id_front'
  | 'id_front'
  | 'id_back'
  | 'proof_selfie'
  | 'proof_address'
  | 'coi'
  | 'aoa'
  | 'cproof_address';
export type KycDocumentStatus = 'pending' | 'approved' | 'declined' | 'superseded';

export type KycDocumentsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  director_id: number | null;
  key: KycDocumentKey;
  storage_key: string;
  content_type: 'image/jpeg' | 'image/png' | 'application/pdf';
  original_name: string;
  size_bytes: number;
  sha256: string;
  status: Generated<KycDocumentStatus>;
  disapprove_note: string | null;
  reviewed_by_staff_id: number | null;
  reviewed_at: Date | null;
  created_at: CreatedAt;
};

/** Price candles (0009): prices as numeric text with 8 decimals. */
export type CandlesTable = {
  symbol: string;
  resolution: 'minute' | 'hour' | 'day';
  start_at: Date;
  open: string;
  high: string;
  low: string;
  close: string;
  last_tick_at: Date;
};

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
export type FiatSuspenseReason = 'unmatched' | 'name_mismatch' | 'customer_not_live';

export type FiatDepositsTable = {
  id: Int8Id;
  seq: WriteOrder;
  currency: string;
  bank_transaction_id: string;
  amount: Numeric;
  payer_name: string;
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

export type MotdTable = {
  id: Int8Id;
  message: string;
  starts_at: Date;
  ends_at: Date;
  created_by_staff_id: number;
  created_at: Generated<Date>;
};

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
};

export type TradeQuotesTable = {
  id: string;
  user_id: number;
  side: 'buy' | 'sell';
  asset: string;
  fiat: string;
  price: string;
  quantity: Numeric;
  notional: Numeric;
  fee: Numeric;
  total: Numeric;
  fee_percent: string;
  expires_at: Date;
  executed_at: Date | null;
  created_at: CreatedAt;
};

export type OrderStatus = 'open' | 'filled' | 'cancelled' | 'expired';

export type OrdersTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  idempotency_key: string;
  request_hash: string;
  type: 'limit' | 'stop';
  side: 'buy' | 'sell';
  asset: string;
  fiat: string;
  quantity: Numeric;
  price: string;
  fee_percent: string;
  spread_multiplier: string;
  hold_id: string;
  held: Numeric;
  status: OrderStatus;
  expires_at: Date | null;
  filled_at: Date | null;
  cancelled_at: Date | null;
  created_at: CreatedAt;
};

export type TradesTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  kind: 'instant' | 'market' | 'limit' | 'stop';
  side: 'buy' | 'sell';
  asset: string;
  fiat: string;
  price: string;
  quantity: Numeric;
  notional: Numeric;
  fee: Numeric;
  total: Numeric;
  fee_percent: string;
  gbp_value: Numeric;
  quote_id: string | null;
  order_id: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  journal_id: string;
  created_at: CreatedAt;
};

/** Upgrades to the trading platform and the staff webhook's delivery (0015). */
export type PlatformUpgradeWebhookStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

export type PlatformUpgradesTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  from_platform: number;
  to_platform: number;
  webhook_status: ColumnType<PlatformUpgradeWebhookStatus, PlatformUpgradeWebhookStatus | undefined>;
  webhook_attempts: Generated<number>;
  webhook_error: string | null;
  webhook_at: Date | null;
  created_at: CreatedAt;
};

/** Settings staff change at run time, one value per key (0015). */
export type AppSettingsTable = {
  key: string;
  value: string;
  updated_at: Generated<Date>;
};

/** API tokens: only the hash is kept (0016). */
export type ApiTokensTable = {
  id: string;
  user_id: number;
  token_hash: string;
  prefix: string;
  permission_id: number;
  ip_allowlist: string[] | null;
  created_at: CreatedAt;
  deleted_at: Date | null;
  last_used_at: Date | null;
};

/** Term deposits (issue 11, migration 0018). */
export type TermDepositOptionsTable = {
  id: Generated<number>;
  asset: string;
  no_days: number;
  /** Percent for the whole term, as numeric(8, 4) reads back: '1.2500'. */
  interest_rate: string;
  active: Generated<boolean>;
  amount_min: Numeric;
  amount_max: Numeric | null;
  total_cap: Numeric | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
};

export type TermDepositStatus = 'live' | 'expired';

export type TermDepositsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  option_id: number;
  idempotency_key: string;
  request_hash: string;
  asset: string;
  amount: Numeric;
  no_days: number;
  interest_rate: string;
  interest: Numeric;
  status: TermDepositStatus;
  starts_at: Date;
  matures_at: Date;
  paid_at: Date | null;
  created_at: CreatedAt;
};

export type AutoTradesTable = {
  id: Generated<number>;
  seq: WriteOrder;
  user_id: number;
  type: 'buy' | 'sell';
  asset: string;
  created_at: CreatedAt;
  cancelled_at: Date | null;
};

export type AutoTradeConversionStatus = 'pending' | 'converted' | 'skipped';

export type AutoTradeConversionsTable = {
  id: Int8Id;
  seq: WriteOrder;
  auto_trade_id: number;
  user_id: number;
  source: 'fiat' | 'crypto';
  deposit_id: string;
  status: AutoTradeConversionStatus;
  quote_id: string | null;
  trade_id: string | null;
  reason: string | null;
  created_at: CreatedAt;
  claimed_at: Generated<Date>;
  finished_at: Date | null;
};

/** Referrals and promo codes (migration 0019). */
export type IncentivesPolicyTable = {
  id: Generated<number>;
  policy: Generated<'corporate_or_outside_uk' | 'everyone' | 'nobody'>;
  commission_percent: Generated<string>;
  updated_at: Date | null;
};

export type ReferralPartnersTable = {
  user_id: number;
  has_custom_referral: Generated<boolean>;
  slug: string | null;
  logo_url: string | null;
  updated_at: Generated<Date>;
};

export type ReferralCommissionsTable = {
  id: Int8Id;
  seq: WriteOrder;
  trade_id: string;
  referrer_user_id: number;
  referred_user_id: number;
  fee_gbp: string;
  commission_percent: string;
  amount: string;
  skipped: 'policy' | 'zero' | 'closed' | null;
  journal_id: string | null;
  created_at: CreatedAt;
};

export type AffiliateClaimsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  idempotency_key: string;
  request_hash: string;
  amount: string;
  status: Generated<'waiting' | 'paid' | 'rejected'>;
  hold_id: string;
  bank_account_id: number | null;
  name_of_account: string | null;
  sort_code: string | null;
  account_number: string | null;
  journal_id: string | null;
  rejected_reason: string | null;
  created_at: CreatedAt;
  paid_at: Date | null;
  rejected_at: Date | null;
};

export type PromoCodesTable = {
  id: Int8Id;
  code: string;
  discount_percent: string;
  duration_days: number;
  /** DATE: read with to_char (PGlite and pg differ). */
  valid_until: string | null;
  is_active: Generated<boolean>;
  created_by: number | null;
  created_at: CreatedAt;
};

export type PromoRedemptionsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  promo_code_id: string;
  discount_percent: string;
  applied_at: Generated<Date>;
  ends_at: Date;
};

export type NewsletterStatus = 'pending' | 'confirmed' | 'unsubscribed';

export type NewsletterSubscribersTable = {
  id: Generated<number>;
  email: string;
  status: Generated<NewsletterStatus>;
  confirm_token_hash: string | null;
  confirm_expires_at: Date | null;
  unsubscribe_token_hash: string;
  unsubscribe_token_encrypted: string;
  consent_text: string;
  consent_at: Date;
  consent_ip: string;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
  created_at: CreatedAt;
};

/** Product enquiries from the contact page (migration 0021). */
export type EnquiriesTable = {
  id: Generated<number>;
  type: 'general' | 'business' | 'press' | 'support';
  first_name: string;
  last_name: string;
  email: string;
  message: string;
  created_at: CreatedAt;
  forwarded_at: Date | null;
};

/** The first-investment journey (migration 0023, issue 13). */
export type InvestorProfilesTable = {
  user_id: number;
  category: 'restricted' | 'high_net_worth' | 'sophisticated' | 'large_undertaking' | null;
  categorised_at: Date | null;
  assessment_passed_at: Date | null;
  retake_at: Date | null;
  cooling_off_ends_at: Date | null;
  completed_at: Date | null;
  updated_at: Generated<Date>;
};

/** One attempt of the appropriateness assessment: the questions drawn, as shown, answered once. */
export type AssessmentAttemptsTable = {
  id: string;
  user_id: number;
  questions: ColumnType<{ id: string; option_ids: string[] }[], string, never>;
  started_at: CreatedAt;
  submitted_at: Date | null;
  answers: ColumnType<Record<string, string> | null, never, string>;
  score: number | null;
  total: number | null;
  passed: boolean | null;
};

/** Append-only evidence of every step and warning of the journey. */
export type InvestorEvidenceTable = {
  id: Generated<string>;
  user_id: number;
  step: string;
  details: ColumnType<Record<string, unknown>, string, never>;
  ip: string | null;
  created_at: CreatedAt;
};

/** Sanctions screening (migration 0024, issue 13): each import of the consolidated list. */
export type SanctionsListsTable = {
  id: Generated<number>;
  file_name: string;
  sha256: string;
  size_bytes: number;
  /** DATE: read with to_char. */
  list_updated_on: string;
  row_count: number;
  designation_count: number;
  individual_count: number;
  entity_count: number;
  ship_count: number;
  imported_by_staff_id: number;
  imported_at: CreatedAt;
  replaced_at: Date | null;
};

/** The rows of the active list, one per name or alias. */
export type SanctionsListEntriesTable = {
  id: Generated<number>;
  list_id: number;
  line: number;
  group_id: string;
  group_type: 'Individual' | 'Entity' | 'Ship';
  surname: string;
  given_names: string;
  title: string | null;
  dob: string | null;
  town_of_birth: string | null;
  country_of_birth: string | null;
  nationality: string | null;
  alias_type: string | null;
  regime: string | null;
  listed_on: string | null;
};

export type SanctionsScreeningSubject = {
  kind: 'customer' | 'company' | 'director';
  name: string;
  birthdate: string | null;
};

export type SanctionsScreeningMatch = {
  hit_id: number;
  subject_kind: 'customer' | 'company' | 'director';
  subject_name: string;
  group_id: string;
  listed_name: string;
  status: 'open' | 'false_positive' | 'confirmed' | 'delisted';
};

/** Every screening of a customer, clear or not: evidence. */
export type SanctionsScreeningsTable = {
  id: Int8Id;
  user_id: number;
  list_id: number;
  trigger:
    | 'onboarding'
    | 'details_changed'
    | 'company_changed'
    | 'directors_changed'
    | 'identity_edited'
    | 'list_imported';
  outcome: 'clear' | 'hit' | 'reviewed';
  subjects: ColumnType<SanctionsScreeningSubject[], string, never>;
  /** Filled in once the screening's hits are written (they need its id). */
  matches: ColumnType<SanctionsScreeningMatch[], string | undefined, string>;
  screened_at: Generated<Date>;
};

/** Possible matches for compliance to review, one per customer, subject and designation. */
export type SanctionsHitsTable = {
  id: Generated<number>;
  user_id: number;
  match_key: string;
  subject_kind: 'customer' | 'company' | 'director';
  director_id: number | null;
  subject_name: string;
  subject_birthdate: string | null;
  list_id: number;
  group_id: string;
  group_type: 'Individual' | 'Entity';
  listed_name: string;
  listed_dobs: string | null;
  regime: string | null;
  status: Generated<'open' | 'false_positive' | 'confirmed' | 'delisted'>;
  first_screening_id: string;
  last_screening_id: string;
  found_at: Generated<Date>;
  last_found_at: Generated<Date>;
  review_note: string | null;
  reviewed_by_staff_id: number | null;
  reviewed_at: Date | null;
  /** Set when a confirmed match's designation was revoked (migration 0030). */
  delisted_note: string | null;
  delisted_by_staff_id: number | null;
  delisted_at: Date | null;
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
  fee_schedule: FeeScheduleTable;
  staff: StaffTable;
  staff_sessions: StaffSessionsTable;
  staff_login_challenges: StaffLoginChallengesTable;
  staff_password_tokens: StaffPasswordTokensTable;
  audit_log: AuditLogTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_challenges: LoginChallengesTable;
  email_tokens: EmailTokensTable;
  recovery_codes: RecoveryCodesTable;
  rate_limit_hits: RateLimitHitsTable;
  used_captchas: UsedCaptchasTable;
  dev_mailbox: DevMailboxTable;
  notifications: NotificationsTable;
  kyc_answers: KycAnswersTable;
  companies: CompaniesTable;
  company_directors: CompanyDirectorsTable;
  kyc_documents: KycDocumentsTable;
  candles: CandlesTable;
  motd: MotdTable;
  bank_accounts: BankAccountsTable;
  fiat_bank_settings: FiatBankSettingsTable;
  fiat_deposits: FiatDepositsTable;
  fiat_withdrawals: FiatWithdrawalsTable;
  withdrawal_codes: WithdrawalCodesTable;
  deposit_address_counters: DepositAddressCountersTable;
  deposit_addresses: DepositAddressesTable;
  crypto_deposits: CryptoDepositsTable;
  chain_cursors: ChainCursorsTable;
  simulated_chain_heights: SimulatedChainHeightsTable;
  simulated_chain_transactions: SimulatedChainTransactionsTable;
  whitelisted_wallets: WhitelistedWalletsTable;
  whitelisted_ips: WhitelistedIpsTable;
  crypto_withdrawals: CryptoWithdrawalsTable;
  trade_quotes: TradeQuotesTable;
  orders: OrdersTable;
  trades: TradesTable;
  platform_upgrades: PlatformUpgradesTable;
  app_settings: AppSettingsTable;
  api_tokens: ApiTokensTable;
  term_deposit_options: TermDepositOptionsTable;
  term_deposits: TermDepositsTable;
  auto_trades: AutoTradesTable;
  auto_trade_conversions: AutoTradeConversionsTable;
  incentives_policy: IncentivesPolicyTable;
  referral_partners: ReferralPartnersTable;
  referral_commissions: ReferralCommissionsTable;
  affiliate_claims: AffiliateClaimsTable;
  promo_codes: PromoCodesTable;
  promo_redemptions: PromoRedemptionsTable;
  enquiries: EnquiriesTable;
  newsletter_subscribers: NewsletterSubscribersTable;
  investor_profiles: InvestorProfilesTable;
  assessment_attempts: AssessmentAttemptsTable;
  investor_evidence: InvestorEvidenceTable;
  sanctions_lists: SanctionsListsTable;
  sanctions_list_entries: SanctionsListEntriesTable;
  sanctions_screenings: SanctionsScreeningsTable;
  sanctions_hits: SanctionsHitsTable;
};

/** users.block_status of an account compliance put on hold: no money leaves it, nothing is bought. */
export const ON_HOLD = 2;
