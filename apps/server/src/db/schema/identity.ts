import type { ColumnType, Generated } from 'kysely';
import type { Int8Id, CreatedAt, WriteOrder } from './columns.js';

// Customers, their sign-in, tokens and notifications.

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
  /** CUSTOMER_STATUS (@florin/domain): not live (0) until compliance makes the account live (1). */
  status: Generated<number>;
  /** BLOCK_STATUS (@florin/domain): ON_HOLD (2) while compliance holds the account. */
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
export type MailOutboxStatus = 'pending' | 'sent' | 'failed';

/** Every e-mail, rendered, until the sender has delivered it (0034; notifications/outbox.ts). */
export type MailOutboxTable = {
  id: Int8Id;
  /** The customer it is for; null for an address that is no customer's (a newsletter subscriber). */
  user_id: number | null;
  event: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  reply_to: string | null;
  status: Generated<MailOutboxStatus>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  last_error: string | null;
  created_at: CreatedAt;
  sent_at: Date | null;
};
export type NotificationsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  event: string;
  subject: string;
  created_at: CreatedAt;
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
