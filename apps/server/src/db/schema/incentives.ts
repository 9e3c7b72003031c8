import type { Generated } from 'kysely';
import type { Int8Id, CreatedAt, WriteOrder } from './columns.js';

// Referrals, affiliate claims and promo codes.

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
