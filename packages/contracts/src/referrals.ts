import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { scaleOf } from '@florin/domain';
import { DecimalStringSchema, upTo } from './money.js';

/**
 * The Account page's Referrals and Promo tabs and their back office (spec 002
 * §2.2, §3, §4, §7, §8; DECISIONS.md "Fees, tiers, referrals" and "Referrals,
 * promo codes and the incentives policy"). Commission is a share of the
 * referred customer's trading fees, credited to the referrer's affiliate
 * account; a claim is a payout request finance pays to the registered bank
 * account (Unpaid → Waiting to be Paid → Paid). The incentives policy decides
 * who may earn commission or use a promo benefit.
 */

export const REFERRALS_TEXTS = {
  referralsTitle: 'Referrals',
  linkLabel: 'Your referral link',
  copy: 'Copy',
  copied: 'Copied',
  customTitle: 'Custom referral link',
  slugLabel: 'Slug',
  slugHint: '3 to 32 characters: lower-case letters, digits and hyphens.',
  save: 'Save',
  /** Spec 002 §8: the slug form's success text. */
  slugSaved: 'Customize referral link save',
  slugTaken: 'This slug is already taken.',
  slugReserved: 'This slug is reserved. Please choose another.',
  slugFormat: 'Use 3 to 32 characters: lower-case letters a–z, digits 0–9 and hyphens.',
  notPartner: 'Custom referral links are for partner accounts.',
  earningsTitle: 'Earnings',
  earned: 'Earned',
  earnedUnpaid: 'Earned (Unpaid)',
  earnedPaid: 'Earned (Paid)',
  earnedWaiting: 'Earned (Waiting to be Paid)',
  claim: 'Claim',
  passcodeLabel: '2FA Code',
  /** Spec 002 §5: a claim without a registered bank account. */
  bankRequiredTitle: 'Bank Details Required!',
  bankRequired: 'Please Add Bank Details',
  claimSent: 'Your claim has been sent. We will pay it to your registered bank account.',
  nothingToClaim: 'There are no unpaid earnings to claim.',
  claimTooLarge: 'You cannot claim more than your unpaid earnings.',
  passcodeRequired: 'Please provide 2FA Code.',
  wrongPasscode: 'Wrong Passcode.',
  codeExpired: 'Verification Code Expired',
  /** Shown instead of earnings to a customer the incentives policy excludes (UK rules on inducements). */
  notEligible:
    'Referral commissions and promo benefits are not available for your account. UK rules do not allow us to offer incentives to invest to UK retail customers, so you can share your link but you will not earn commission.',
  commissionExplained: 'You earn a share of the trading fees paid by the customers you refer.',
  /** The Promo tab. */
  promoTitle: 'Promo',
  promoLabel: 'Promo code',
  promoAdd: 'Add',
  /** Spec 002 §8: the promo texts. */
  promoInvalid: 'Invalid Promo Code',
  promoAdded: 'Successfully added promo code.',
  promoNotEligible:
    'Promo benefits are not available for your account: UK rules do not allow incentives to invest for UK retail customers.',
  promoEmpty: 'No promo codes yet.',
  code: 'Code',
  expiresAt: 'Expires At',
  createdAt: 'Created At',
  discount: 'Fee discount',
} as const;

/** The spec's purpose of an e-mailed code for a claim (002 §7). */
export const AFFILIATE_CLAIM_PURPOSE = 'Referral Earning(2fa)';

/** Slugs that would shadow a page of the site (app/router.tsx's top-level paths) or look official. */
export const RESERVED_SLUGS = [
  'admin',
  'api',
  'login',
  'logout',
  'register',
  'user',
  'users',
  'verify',
  'reset',
  'forgot',
  'florin',
  'support',
  'help',
  'about',
  'terms',
  'privacy',
  'fees',
  'static',
  'assets',
  'dev',
  'home',
  'forgot-password',
  'password-reset',
  'risk-summary',
  'getfifo-upgrade',
  'walletwhitelist',
  'docs',
  'health',
  'about-us',
  'contact-us',
  'cookie',
  'gdpr',
  'locations',
  'learncrypto',
  'live-crypto-prices',
  'newsletter',
] as const;

export const ReferralSlugSchema = z
  .string({ error: REFERRALS_TEXTS.slugFormat })
  .trim()
  .regex(/^[a-z0-9-]{3,32}$/, REFERRALS_TEXTS.slugFormat)
  .refine((slug) => !(RESERVED_SLUGS as readonly string[]).includes(slug), REFERRALS_TEXTS.slugReserved);

// ---- customer: referrals ----

export const ReferralOverviewSchema = z.object({
  referral_code: z.string(),
  /** Path of the referral link on this site: origin + this. */
  referral_path: z.string(),
  has_custom_referral: z.boolean(),
  /** The incentives policy lets this customer earn commission (and use promo benefits). */
  is_eligible: z.boolean(),
  /** Percent of the referred customers' trading fees this customer earns. */
  commission_percent: z.string(),
  /** A 2FA code is needed to claim (the spec's disable_{product}_2fa = 1). */
  passcode_required: z.boolean(),
  /** The customer receives e-mailed codes (the spec's platform_2fa_mobile): the Send 2FA button. */
  email_codes: z.boolean(),
  has_bank_account: z.boolean(),
});
export type ReferralOverview = z.infer<typeof ReferralOverviewSchema>;

export const getReferralOverview = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/referrals',
  summary: "The Referrals tab: the customer's link, partner switch, policy eligibility and claim needs",
  responses: { 200: z.object({ data: ReferralOverviewSchema }) },
});

export const CustomReferralSchema = z.object({
  slug: z.string().nullable(),
  logo_url: z.string().nullable(),
});
export type CustomReferral = z.infer<typeof CustomReferralSchema>;

export const getCustomReferral = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/referral_custom',
  summary: "The partner's custom referral slug and logo",
  responses: { 200: CustomReferralSchema },
});

export const SaveCustomReferralBodySchema = z.strictObject({ slug: ReferralSlugSchema });
export type SaveCustomReferralBody = z.infer<typeof SaveCustomReferralBodySchema>;

export const saveCustomReferral = defineEndpoint({
  method: 'POST',
  path: '/api/v1/user/referral_custom',
  summary: 'Sets the partner’s custom referral slug (only when staff switched has_custom_referral on)',
  body: SaveCustomReferralBodySchema,
  responses: { 200: z.object({ message: z.string(), data: CustomReferralSchema }) },
});

export const CommissionSchema = z.object({
  id: z.string(),
  /** The referred customer's trade the commission comes from. */
  trade_id: z.string(),
  amount: DecimalStringSchema,
  created_at: z.string(),
});
export type Commission = z.infer<typeof CommissionSchema>;

export const AFFILIATE_CLAIM_STATUSES = ['waiting', 'paid', 'rejected'] as const;
export type AffiliateClaimStatus = (typeof AFFILIATE_CLAIM_STATUSES)[number];

/** A claim waits for finance, who pay it or reject it; both are final (the code reads this map). */
export const AFFILIATE_CLAIM_TRANSITIONS: Record<AffiliateClaimStatus, readonly AffiliateClaimStatus[]> = {
  waiting: ['paid', 'rejected'],
  paid: [],
  rejected: [],
};

export const AffiliateClaimSchema = z.object({
  id: z.string(),
  amount: DecimalStringSchema,
  status: z.enum(AFFILIATE_CLAIM_STATUSES),
  created_at: z.string(),
  paid_at: z.string().nullable(),
});
export type AffiliateClaim = z.infer<typeof AffiliateClaimSchema>;

/** Every amount in pounds (GBP, 2 decimals). */
export const AffiliateEarningsSchema = z.object({
  /** Earned: every commission so far. */
  amount_total: DecimalStringSchema,
  /** Earned (Unpaid): what can be claimed now. */
  amount_available: DecimalStringSchema,
  /** Earned (Paid). */
  amount_withdrawn: DecimalStringSchema,
  /** Earned (Waiting to be Paid). */
  amount_pending: DecimalStringSchema,
  /** flag 0: the commissions, newest first; flag 1: the claims. */
  list: z.object({ data: z.array(z.union([CommissionSchema, AffiliateClaimSchema])) }),
});
export type AffiliateEarnings = z.infer<typeof AffiliateEarningsSchema>;

export const getAffiliateEarnings = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/affiliate-earnings/{flag}',
  summary: 'Earned, Unpaid, Paid and Waiting to be Paid; flag 0 lists commissions, 1 claims',
  params: z.strictObject({ flag: z.enum(['0', '1']) }),
  responses: { 200: z.object({ data: AffiliateEarningsSchema }) },
});

export const ClaimAffiliateBodySchema = z.strictObject({
  withdraw_amount: upTo(
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d{1,2})?$/, 'Enter an amount such as 10 or 10.50.'),
    scaleOf('GBP'),
  ),
  passcode: z.string().trim().max(12).nullish(),
});
export type ClaimAffiliateBody = z.infer<typeof ClaimAffiliateBodySchema>;

export const claimAffiliateEarnings = defineEndpoint({
  method: 'POST',
  path: '/api/v1/user/affiliate-withdraw',
  summary:
    'Claims unpaid earnings: a payout request finance pays to the registered bank account (Idempotency-Key required)',
  body: ClaimAffiliateBodySchema,
  responses: {
    200: z.object({
      message: z.string(),
      data: z.object({ user_balance: DecimalStringSchema, claim: AffiliateClaimSchema }),
    }),
  },
});

export const lookupReferral = defineEndpoint({
  method: 'POST',
  path: '/api/v1/referral_custom/{id}',
  summary: 'The referral registration page: a custom slug or referral code → the code to register with',
  params: z.strictObject({ id: z.string().trim().min(1).max(64) }),
  responses: {
    200: z.object({
      data: z.object({ code: z.string(), slug: z.string().nullable(), logo_url: z.string().nullable() }),
    }),
  },
});

// ---- customer: promo codes ----

export const PromoCodeSchema = z.object({
  id: z.string(),
  affiliate_code: z.string(),
  /** When the benefit ends for this customer. */
  expires_at: z.string(),
  /** When the customer applied it. */
  created_at: z.string(),
  discount_percent: z.string(),
});
export type PromoCode = z.infer<typeof PromoCodeSchema>;

export const AssignPromoCodeBodySchema = z.strictObject({
  /** The spec sends it; only the signed-in customer's own id is accepted. */
  user_id: z.number().int().positive().optional(),
  affiliate_code: z
    .string({ error: REFERRALS_TEXTS.promoInvalid })
    .trim()
    .min(1, REFERRALS_TEXTS.promoInvalid)
    .max(64),
});
export type AssignPromoCodeBody = z.infer<typeof AssignPromoCodeBodySchema>;

export const assignPromoCode = defineEndpoint({
  method: 'POST',
  path: '/api/v1/affiliate-codes/assign',
  summary: 'Applies a promo code to the signed-in customer (once per code)',
  body: AssignPromoCodeBodySchema,
  responses: { 200: z.object({ message: z.string(), data: PromoCodeSchema }) },
});

export const listPromoCodes = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/affiliate-codes',
  summary: 'The promo codes the customer applied, newest first',
  responses: { 200: z.object({ data: z.object({ data: z.array(PromoCodeSchema) }) }) },
});

// ---- back office ----

/** Who may earn commission and use promo benefits (UK: no inducements to invest for UK retail customers). */
export const INCENTIVES_POLICIES = ['corporate_or_outside_uk', 'everyone', 'nobody'] as const;
export type IncentivesPolicyName = (typeof INCENTIVES_POLICIES)[number];

export const INCENTIVES_POLICY_LABELS: Record<IncentivesPolicyName, string> = {
  corporate_or_outside_uk: 'Corporate customers and customers resident outside the UK (default)',
  everyone: 'Every customer',
  nobody: 'Nobody (incentives switched off)',
};

const percentText = (max: number, text: string) =>
  z
    .string({ error: text })
    .trim()
    .regex(/^\d{1,3}(\.\d{1,4})?$/, text)
    .refine((value) => Number(value) <= max, text);

export const IncentivesPolicySchema = z.object({
  policy: z.enum(INCENTIVES_POLICIES),
  commission_percent: z.string(),
  updated_at: z.string().nullable(),
});
export type IncentivesPolicy = z.infer<typeof IncentivesPolicySchema>;

export const getIncentivesPolicy = defineEndpoint({
  method: 'GET',
  path: '/api/admin/referrals/policy',
  summary: 'The incentives policy and the referral commission rate',
  responses: { 200: z.object({ data: IncentivesPolicySchema }) },
});

export const UpdateIncentivesPolicyBodySchema = z.strictObject({
  policy: z.enum(INCENTIVES_POLICIES),
  commission_percent: percentText(100, 'Enter a percentage from 0 to 100.'),
});
export type UpdateIncentivesPolicyBody = z.infer<typeof UpdateIncentivesPolicyBodySchema>;

export const updateIncentivesPolicy = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/referrals/policy',
  summary: 'Sets the incentives policy and commission rate (superadmin; audited)',
  body: UpdateIncentivesPolicyBodySchema,
  responses: { 200: z.object({ message: z.string(), data: IncentivesPolicySchema }) },
});

export const ReferralPartnerSchema = z.object({
  user_id: z.number().int(),
  email: z.string(),
  referral_code: z.string(),
  has_custom_referral: z.boolean(),
  slug: z.string().nullable(),
  logo_url: z.string().nullable(),
});
export type ReferralPartner = z.infer<typeof ReferralPartnerSchema>;

export const getReferralPartner = defineEndpoint({
  method: 'GET',
  path: '/api/admin/referrals/partners/{user_id}',
  summary: "A customer's partner switch and custom slug",
  params: z.strictObject({ user_id: z.coerce.number().int().positive().max(2_147_483_647) }),
  responses: { 200: z.object({ data: ReferralPartnerSchema }) },
});

export const UpdateReferralPartnerBodySchema = z.strictObject({
  has_custom_referral: z.boolean(),
  slug: ReferralSlugSchema.nullish(),
  logo_url: z.url().max(500).nullish(),
});
export type UpdateReferralPartnerBody = z.infer<typeof UpdateReferralPartnerBodySchema>;

export const updateReferralPartner = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/referrals/partners/{user_id}',
  summary: 'Switches a partner account’s custom referral on or off and sets its slug and logo (audited)',
  params: z.strictObject({ user_id: z.coerce.number().int().positive().max(2_147_483_647) }),
  body: UpdateReferralPartnerBodySchema,
  responses: { 200: z.object({ message: z.string(), data: ReferralPartnerSchema }) },
});

export const AdminPromoCodeSchema = z.object({
  id: z.string(),
  code: z.string(),
  discount_percent: z.string(),
  duration_days: z.number().int(),
  /** The last day the code can be applied; null: no end. */
  valid_until: z.string().nullable(),
  is_active: z.boolean(),
  times_applied: z.number().int(),
  created_at: z.string(),
});
export type AdminPromoCode = z.infer<typeof AdminPromoCodeSchema>;

export const listAdminPromoCodes = defineEndpoint({
  method: 'GET',
  path: '/api/admin/promo-codes',
  summary: 'Every promo code with its benefit',
  responses: { 200: z.object({ data: z.array(AdminPromoCodeSchema) }) },
});

export const CreatePromoCodeBodySchema = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{3,32}$/, 'Use 3 to 32 letters, digits or hyphens.'),
  discount_percent: percentText(100, 'Enter a fee discount from 0 to 100 percent.'),
  duration_days: z.number().int().min(1).max(3650),
  valid_until: z.iso.date().nullish(),
});
export type CreatePromoCodeBody = z.infer<typeof CreatePromoCodeBodySchema>;

export const createPromoCode = defineEndpoint({
  method: 'POST',
  path: '/api/admin/promo-codes',
  summary: 'Creates a promo code: a fee discount for a number of days from applying (audited)',
  body: CreatePromoCodeBodySchema,
  responses: { 200: z.object({ message: z.string(), data: AdminPromoCodeSchema }) },
});

export const setPromoCodeActive = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/promo-codes/{id}/active',
  summary: 'Stops (or restarts) new customers applying a code; benefits already given run on',
  params: z.strictObject({ id: z.string().regex(/^\d{1,18}$/) }),
  body: z.strictObject({ is_active: z.boolean() }),
  responses: { 200: z.object({ message: z.string(), data: AdminPromoCodeSchema }) },
});

export const AdminAffiliateClaimSchema = AffiliateClaimSchema.extend({
  user_id: z.number().int(),
  email: z.string(),
  name: z.string(),
  /** The registered GBP bank account the claim is paid to, as it was when claimed. */
  name_of_account: z.string().nullable(),
  sort_code: z.string().nullable(),
  account_number: z.string().nullable(),
  rejected_reason: z.string().nullable(),
  /** Compliance holds the customer's account: the claim is not paid until the hold is lifted. */
  customer_on_hold: z.boolean(),
});
export type AdminAffiliateClaim = z.infer<typeof AdminAffiliateClaimSchema>;

export const listAffiliateClaims = defineEndpoint({
  method: 'GET',
  path: '/api/admin/affiliate-claims',
  summary: 'Referral earnings claims to pay (status waiting by default)',
  query: z.strictObject({ status: z.enum(AFFILIATE_CLAIM_STATUSES).optional() }),
  responses: { 200: z.object({ data: z.array(AdminAffiliateClaimSchema) }) },
});

export const markAffiliateClaimPaid = defineEndpoint({
  method: 'POST',
  path: '/api/admin/affiliate-claims/{id}/paid',
  summary: 'Finance paid the claim to the bank account: posts the payout journal (audited)',
  params: z.strictObject({ id: z.string().regex(/^\d{1,18}$/) }),
  responses: { 200: z.object({ message: z.string(), data: AdminAffiliateClaimSchema }) },
});

export const rejectAffiliateClaim = defineEndpoint({
  method: 'POST',
  path: '/api/admin/affiliate-claims/{id}/reject',
  summary: 'Finance could not pay: the amount goes back to Unpaid (audited)',
  params: z.strictObject({ id: z.string().regex(/^\d{1,18}$/) }),
  body: z.strictObject({ reason: z.string().trim().min(3).max(500) }),
  responses: { 200: z.object({ message: z.string(), data: AdminAffiliateClaimSchema }) },
});

export const REFERRALS_ADMIN_TEXTS = {
  policySaved: 'Incentives policy saved.',
  partnerSaved: 'Partner settings saved.',
  promoCreated: 'Promo code created.',
  promoCodeTaken: 'A promo code with this code already exists.',
  promoUpdated: 'Promo code updated.',
  claimPaid: 'Claim marked as paid.',
  claimRejected: 'Claim rejected: the amount is unpaid again.',
  claimNotWaiting: 'This claim is no longer waiting to be paid.',
  customerOnHold: 'The customer’s account is on hold: this payout waits until compliance lifts the hold.',
} as const;
