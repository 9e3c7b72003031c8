import { z } from 'zod';
import {
  AdminDocumentSchema,
  COMPLIANCE_TEXTS,
  ComplianceQueueQuerySchema,
  CustomerDetailsSchema,
  CustomerSummarySchema,
  GoLiveCheckSchema,
  ReasonBodySchema,
  ReasonSchema,
  VerificationStepsSchema,
} from './admin-compliance.js';
import { defineEndpoint } from './endpoint.js';
import { BirthdateSchema } from './kyc.js';
import { AssetCodeSchema, DecimalStringSchema } from './money.js';
import { pageSchema } from './pagination.js';
import { nameSchema } from './text.js';

/**
 * The back office's customer view: search, profile, balances, ledger and sessions, and what staff
 * change for a customer. Paths, roles and texts as in admin-compliance.ts.
 */

const isoDateTime = z.string();
const userId = z.coerce.number().int().positive().max(2_147_483_647);
const UserParams = z.strictObject({ userId });
const ok = z.object({ message: z.string() });

// ---- customer view ----

export const CustomerSearchQuerySchema = z.object({
  /** A name, an e-mail address (or part of one) or a reference (user_identification). */
  q: z
    .string()
    .trim()
    .max(100, 'Type at most 100 characters.')
    .refine((value) => value.length === 0 || value.length >= 2, COMPLIANCE_TEXTS.searchTooShort)
    .optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type CustomerSearchQuery = z.input<typeof CustomerSearchQuerySchema>;

export const searchCustomers = defineEndpoint({
  method: 'GET',
  path: '/api/admin/customers',
  summary: 'Customers whose name, e-mail or reference matches, newest first, 25 a page',
  query: CustomerSearchQuerySchema,
  responses: { 200: pageSchema(CustomerSummarySchema) },
});

export const CustomerProfileSchema = CustomerDetailsSchema.extend({
  pending_email: z.string().nullable(),
  email_verified: z.boolean(),
  last_login_at: isoDateTime.nullable(),
  two_factor_enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
  /** platform_2fa_mobile: the second factor is a code e-mailed at sign-in (DECISIONS.md). */
  email_codes: z.boolean(),
  two_factor_reset_at: isoDateTime.nullable(),
  /** Set while withdrawals wait after a 2FA reset by staff. */
  withdrawals_blocked_until: isoDateTime.nullable(),
  /** The account's end (issue 13): notice given, withdraw-only from, sign-in ends; a legal hold's reason. */
  termination_notice_at: isoDateTime.nullable(),
  terminated_at: isoDateTime.nullable(),
  access_ends_at: isoDateTime.nullable(),
  legal_hold_reason: z.string().nullable(),
  steps: VerificationStepsSchema,
  documents: z.array(AdminDocumentSchema),
  go_live: GoLiveCheckSchema,
});
export type CustomerProfile = z.infer<typeof CustomerProfileSchema>;

export const getCustomer = defineEndpoint({
  method: 'GET',
  path: '/api/admin/customers/{userId}',
  summary: "A customer's profile, security settings and verification state",
  params: UserParams,
  responses: { 200: z.object({ data: CustomerProfileSchema }) },
});

export const CustomerBalanceSchema = z.object({
  asset: AssetCodeSchema,
  /** available (spendable), term (one per term deposit, summed), affiliate. */
  kind: z.string(),
  /** Decimal strings in the asset's units. */
  posted: DecimalStringSchema,
  held: DecimalStringSchema,
  available: DecimalStringSchema,
});
export type CustomerBalance = z.infer<typeof CustomerBalanceSchema>;

export const getCustomerBalances = defineEndpoint({
  method: 'GET',
  path: '/api/admin/customers/{userId}/balances',
  summary: "A customer's balances per asset and account kind, from the ledger",
  params: UserParams,
  responses: { 200: z.object({ data: z.array(CustomerBalanceSchema) }) },
});

export const LedgerLineSchema = z.object({
  entry_id: z.string(),
  journal_id: z.string(),
  /** The journal's kind (fiat_deposit, trade, …). */
  kind: z.string(),
  reference: z.string().nullable(),
  asset: AssetCodeSchema,
  account_kind: z.string(),
  /** Signed: credit positive, debit negative. */
  amount: DecimalStringSchema,
  balance_after: DecimalStringSchema.nullable(),
  created_at: isoDateTime,
});
export type LedgerLine = z.infer<typeof LedgerLineSchema>;

export const getCustomerLedger = defineEndpoint({
  method: 'GET',
  path: '/api/admin/customers/{userId}/ledger',
  summary: "The ledger entries of a customer's accounts, newest first, 25 a page",
  params: UserParams,
  query: ComplianceQueueQuerySchema,
  responses: { 200: pageSchema(LedgerLineSchema) },
});

export const CustomerSessionSchema = z.object({
  id: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: isoDateTime,
  last_seen_at: isoDateTime,
  expires_at: isoDateTime,
});
export type CustomerSession = z.infer<typeof CustomerSessionSchema>;

export const getCustomerSessions = defineEndpoint({
  method: 'GET',
  path: '/api/admin/customers/{userId}/sessions',
  summary: "A customer's active sessions, most recently seen first",
  params: UserParams,
  responses: { 200: z.object({ data: z.array(CustomerSessionSchema) }) },
});

export const resetCustomerTwoFactor = defineEndpoint({
  method: 'POST',
  path: '/api/admin/customers/{userId}/reset-2fa',
  summary:
    'After identity checks: remove the authenticator and recovery codes, sign out everywhere; withdrawals wait 24 hours',
  params: UserParams,
  body: ReasonBodySchema,
  responses: { 200: z.object({ data: CustomerProfileSchema, message: z.string() }) },
});

export const EmailCodesBodySchema = z.strictObject({ enabled: z.boolean(), reason: ReasonSchema });
export type EmailCodesBody = z.infer<typeof EmailCodesBodySchema>;

export const setCustomerEmailCodes = defineEndpoint({
  method: 'POST',
  path: '/api/admin/customers/{userId}/email-codes',
  summary: 'Switch e-mailed sign-in codes (platform_2fa_mobile) on or off',
  params: UserParams,
  body: EmailCodesBodySchema,
  responses: { 200: z.object({ data: CustomerProfileSchema, message: z.string() }) },
});

const personName = (field: string) =>
  nameSchema({
    required: `The ${field} field is required.`,
    tooLong: `The ${field} may be at most 100 characters.`,
    max: 100,
  });

export const EditIdentityBodySchema = z
  .strictObject({
    first_name: personName('first name').optional(),
    last_name: personName('last name').optional(),
    birthdate: BirthdateSchema.optional(),
    /** What the customer asked and how it was checked (audit log). */
    reason: ReasonSchema,
  })
  .refine(
    (value) =>
      value.first_name !== undefined || value.last_name !== undefined || value.birthdate !== undefined,
    { message: 'Change the name or the date of birth.', path: ['first_name'] },
  );
export type EditIdentityBody = z.infer<typeof EditIdentityBodySchema>;

export const editCustomerIdentity = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/customers/{userId}/identity',
  summary: "Change a customer's name or date of birth at their request, with the reason",
  params: UserParams,
  body: EditIdentityBodySchema,
  responses: { 200: z.object({ data: CustomerProfileSchema, message: z.string() }) },
});

export const signOutCustomer = defineEndpoint({
  method: 'POST',
  path: '/api/admin/customers/{userId}/sign-out',
  summary: 'End every session of the customer, with the reason',
  params: UserParams,
  body: ReasonBodySchema,
  responses: { 200: ok },
});

/** Everything staff can see a customer by: support answers questions, finance reads, compliance decides. */
export const CUSTOMER_READ_ROLES = ['support', 'compliance', 'finance'] as const;
/** Who may change a customer's sign-in and identity details (finance reads only). */
export const CUSTOMER_ACTION_ROLES = ['support', 'compliance'] as const;
