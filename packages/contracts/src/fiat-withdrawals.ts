import { z } from 'zod';
import { decimalPlaces, scaleOf } from '@florin/domain';
import { defineEndpoint } from './endpoint.js';
import { CurrencyCodeSchema, FIAT_2FA_PURPOSES, FIAT_TEXTS, FiatCurrencySchema } from './fiat.js';
import { DecimalStringSchema, fitsColumn, TOO_LARGE_TEXTS } from './money.js';
import { pageSchema } from './pagination.js';

/** The customer's fiat withdrawals with their 2FA code, and their fiat activity (fiat.ts has the texts). */

const isoDateTime = z.string();
const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ok = z.object({ message: z.string() });

// ---- customer: withdrawals ----

export const request2fa = defineEndpoint({
  method: 'POST',
  path: '/api/v1/mobile/request-2fa',
  summary: 'E-mail a one-time code for a withdrawal (customers with e-mailed codes switched on)',
  body: z.strictObject({ purpose: z.enum(FIAT_2FA_PURPOSES) }),
  responses: { 200: ok },
});

/** A fiat amount from the form: the spec's texts for empty; at most 2 decimals. */
export const FiatAmountSchema = z
  .string({ error: FIAT_TEXTS.enterAmount })
  .trim()
  .min(1, FIAT_TEXTS.enterAmount)
  .superRefine((text, ctx) => {
    if (text === '') return;
    if (/^-\d+(\.\d+)?$/.test(text)) ctx.addIssue({ code: 'custom', message: FIAT_TEXTS.amountPositive });
    else if (!/^\d+(\.\d+)?$/.test(text)) ctx.addIssue({ code: 'custom', message: FIAT_TEXTS.amountFormat });
    else if ((decimalPlaces(text) ?? 0) > scaleOf('GBP'))
      ctx.addIssue({ code: 'custom', message: FIAT_TEXTS.amountDecimals });
    else if (!/[1-9]/.test(text)) ctx.addIssue({ code: 'custom', message: FIAT_TEXTS.amountPositive });
    else if (!fitsColumn(text, scaleOf('GBP')))
      ctx.addIssue({ code: 'custom', message: TOO_LARGE_TEXTS.amount });
  });

/**
 * The spec's payload (001 §7). The bank fields are optional: the money goes to the registered,
 * verified account of the currency; when sent they must match it.
 */
export const FiatWithdrawBodySchema = z.strictObject({
  amount: FiatAmountSchema,
  currency_code: CurrencyCodeSchema,
  passcode: z.string().trim().max(20).nullish(),
  bank_sort_code: z.string().max(40).nullish(),
  bank_account_number: z.string().max(40).nullish(),
  name_of_account: z.string().max(100).nullish(),
});
export type FiatWithdrawBody = z.input<typeof FiatWithdrawBodySchema>;

export const FIAT_WITHDRAWAL_STATUSES = ['pending', 'approved', 'paid', 'rejected', 'cancelled'] as const;
export const FiatWithdrawalStatusSchema = z.enum(FIAT_WITHDRAWAL_STATUSES);
export type FiatWithdrawalStatus = z.infer<typeof FiatWithdrawalStatusSchema>;

/** Lifecycle (CONVENTIONS.md 7): approved is the first of two staff decisions on a large withdrawal. */
export const FIAT_WITHDRAWAL_TRANSITIONS: Record<FiatWithdrawalStatus, readonly FiatWithdrawalStatus[]> = {
  pending: ['approved', 'paid', 'rejected', 'cancelled'],
  approved: ['paid', 'rejected'],
  paid: [],
  rejected: [],
  cancelled: [],
};

export const FIAT_WITHDRAWAL_STATUS_LABELS: Record<FiatWithdrawalStatus, string> = {
  pending: 'Pending',
  approved: 'Pending',
  paid: 'Paid',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

export const FiatWithdrawalSchema = z.object({
  id: z.string(),
  currency: FiatCurrencySchema,
  /** Leaves the balance (fee included). */
  amount: DecimalStringSchema,
  fee: DecimalStringSchema,
  /** "You Will Get": amount − fee, what reaches the bank account. */
  amount_receive: DecimalStringSchema,
  status: FiatWithdrawalStatusSchema,
  name_of_account: z.string(),
  /** The last 4 characters of the account number or IBAN. */
  account_ending: z.string(),
  can_cancel: z.boolean(),
  reject_reason: z.string().nullable(),
  created_at: isoDateTime,
  paid_at: isoDateTime.nullable(),
});
export type FiatWithdrawal = z.infer<typeof FiatWithdrawalSchema>;

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export const fiatWithdraw = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/withdraw',
  summary:
    'Withdraw fiat to the registered, verified bank account (holds the amount). Needs the Idempotency-Key header.',
  body: FiatWithdrawBodySchema,
  responses: { 200: z.object({ data: FiatWithdrawalSchema, message: z.string() }) },
});

export const cancelFiatWithdrawal = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/withdraw/{id}/cancel',
  summary: 'Cancel one of the customer’s pending fiat withdrawals (the hold is released)',
  params: z.strictObject({ id: idParam }),
  responses: { 200: z.object({ data: FiatWithdrawalSchema, message: z.string() }) },
});

/** What the deposit/withdraw screen needs to draw the form: minimum, fee rule, balance. */
export const FiatWithdrawInfoSchema = z.object({
  currency: FiatCurrencySchema,
  currency_symbol: z.string(),
  minimum: DecimalStringSchema,
  fee: DecimalStringSchema,
  /** Amounts of at least this pay no fee. */
  fee_free_from: DecimalStringSchema.nullable(),
  available: DecimalStringSchema,
  /** Whether withdraw needs `passcode`: the customer has 2FA or e-mailed codes. */
  passcode_required: z.boolean(),
  /** Whether the Send 2FA button mails a code (platform_2fa_mobile). */
  email_codes: z.boolean(),
  /** Staff reset the customer's 2FA less than 24 hours ago: withdrawals are possible from this moment. */
  blocked_until: isoDateTime.nullable(),
});

export const getFiatWithdrawInfo = defineEndpoint({
  method: 'GET',
  path: '/api/v1/fiat/withdraw-info',
  summary: 'Minimum, fee, available balance and 2FA needs for a fiat withdrawal',
  query: z.strictObject({ currency_code: FiatCurrencySchema.optional() }),
  responses: { 200: z.object({ data: FiatWithdrawInfoSchema }) },
});

export const FiatActivitySchema = z.object({
  /** "deposit:12" or "withdrawal:34". */
  id: z.string(),
  type: z.enum(['deposit', 'withdrawal']),
  currency: FiatCurrencySchema,
  amount: DecimalStringSchema,
  fee: DecimalStringSchema,
  status: z.string(),
  status_label: z.string(),
  /** For a withdrawal: its id for cancel, when it may still be cancelled. */
  withdrawal: FiatWithdrawalSchema.nullable(),
  created_at: isoDateTime,
});
export type FiatActivity = z.infer<typeof FiatActivitySchema>;

export const FIAT_ACTIVITY_PAGE_SIZE = 20;

export const listFiatActivity = defineEndpoint({
  method: 'GET',
  path: '/api/v1/fiat/transactions',
  summary: "The customer's fiat deposits and withdrawals, newest first",
  query: z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    currency_code: FiatCurrencySchema.optional(),
  }),
  responses: { 200: pageSchema(FiatActivitySchema) },
});
