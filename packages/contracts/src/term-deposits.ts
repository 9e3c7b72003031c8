import { z } from 'zod';
import {
  MAX_ASSET_SCALE,
  compareDecimals,
  CRYPTO_ENTRY_DECIMALS,
  decimalPlaces,
  mulRatioFloor,
  parseRatio,
  quantityDecimalsOf,
  scaleOf,
} from '@florin/domain';
import { assetOfCoinId, CoinIdSchema, type CoinId } from './crypto.js';
import { defineEndpoint } from './endpoint.js';
import { ukDateTime } from './uk-time.js';
import { DecimalStringSchema, fitsColumn, TOO_LARGE_TEXTS, upTo } from './money.js';

/**
 * Term deposits (issue 11; spec 002 §2.6, §3, §4, §5, §7, §8, §9): a customer
 * locks coins for a fixed number of days at a rate fixed for the whole term;
 * at maturity the principal and the interest come back to their available
 * balance, exactly once. Finance keeps the options per coin in the back
 * office. Texts in quotes in the spec are kept word for word.
 */

export const TERM_DEPOSIT_TEXTS = {
  // spec 002 §2.6, §4, §5, §8
  pageTitle: 'Term Deposits',
  historyTitle: 'Term Deposits',
  failedTitle: 'Failed!',
  inputAmount: 'Please Input Amount',
  invalidAmount: 'Invalid Amount',
  amountExceeded: 'Amount Exceeded Current Coin Balance',
  success: 'Term Deposit Successful',
  live: 'Live',
  expired: 'Expired',
  viewMore: 'View More',
  transfer: 'Transfer',
  confirm: 'Confirm',
  lockedUntilExpiry: 'Deposited balances cannot be withdrawn or traded until expiry.',
  // ours (docs/decisions/055-term-deposits.md): the risk disclosure UK rules expect for a lock-up
  confirmTitle: 'Confirm your term deposit',
  riskTitle: 'Before you lock your coins',
  riskValue:
    'The value of your coins can fall while they are locked, and you cannot sell or withdraw them before the end date to limit a loss.',
  riskNotSavings:
    'A term deposit is not a savings account or a bank deposit. The interest is paid in the same coin, not in pounds.',
  riskNotProtected:
    'Your coins and the interest are not protected by the Financial Services Compensation Scheme (FSCS) or the Financial Ombudsman Service.',
  cancel: 'Cancel',
  noDeposits: 'You have no term deposits yet.',
  noOptions: 'No term deposits are offered at the moment.',
  chooseTerm: 'Choose a term.',
  termUnavailable: 'This term is no longer offered. Please choose another.',
  rateChanged: 'The rate for this term has changed. Please check the new rate and try again.',
  termFull: 'This term is full at the moment. Please choose another term or a smaller amount.',
  wholeAmount: 'Enter a whole amount.',
  // back office
  optionSaved: 'Term deposit option saved.',
  optionExists: 'This coin already has an option with this number of days.',
  days: 'Enter a whole number of days from 1 to 3650.',
  rate: 'Enter the rate for the whole term as a percentage with at most 4 decimals, e.g. 1.25.',
  optionAmount: 'Enter an amount such as 0.001.',
  optionalAmount: 'Enter an amount such as 0.001, or leave it empty.',
  maxBelowMin: 'The maximum must not be smaller than the minimum.',
} as const;

/** The most decimals a deposit of the coin may carry: its own, at most 8 (spec README), none for xrp (spec 002 §5). */
export function termDepositDecimals(coin: CoinId): number {
  return quantityDecimalsOf(coin, Math.min(scaleOf(assetOfCoinId(coin)), CRYPTO_ENTRY_DECIMALS));
}

/**
 * Interest for the whole term (spec 002 §9: rate % × amount), in the coin's smallest units, floored to the
 * decimals a deposit of the coin may carry: the house never rounds up, and no part of it is dust beyond the
 * 8 decimals a withdrawal can carry. The server pays it; the page shows it before the customer confirms.
 */
export function termDepositInterest(amount: bigint, ratePercent: string, coin: CoinId): bigint {
  const rate = parseRatio(ratePercent);
  return floorToTermDepositDecimals(
    mulRatioFloor(amount, { numerator: rate.numerator, denominator: rate.denominator * 100n }),
    coin,
  );
}

/** Units of the coin floored to the decimals a deposit of it may carry (termDepositDecimals). */
export function floorToTermDepositDecimals(units: bigint, coin: CoinId): bigint {
  const step = 10n ** BigInt(scaleOf(assetOfCoinId(coin)) - termDepositDecimals(coin));
  return units - (units % step);
}

export function termDepositDecimalsText(scale: number): string {
  if (scale === 0) return TERM_DEPOSIT_TEXTS.wholeAmount;
  return `Enter at most ${scale} decimal places.`;
}
/** Refused while the firm's notice runs: the deposit must come back before the account becomes withdraw-only. */
export function termDepositAfterTerminationText(terminatesAt: Date): string {
  return `Your account becomes withdraw-only on ${ukDateTime(terminatesAt)}: choose a term that ends before then.`;
}
export function termDepositMinimumText(min: string, coin: string): string {
  return `The smallest deposit for this term is ${min} ${coin.toUpperCase()}.`;
}
export function termDepositMaximumText(max: string, coin: string): string {
  return `The largest deposit for this term is ${max} ${coin.toUpperCase()}.`;
}

/** Spec 002 §7: the history is read 3 at a time (§9). */
export const TERM_DEPOSIT_PAGE_SIZE = 3;
/** How much 'View More' asks for beyond what is shown. */
export const TERM_DEPOSIT_MAX_TAKE = 100;

const isoDateTime = z.string();

/** Spec 002 §4: Live while locked, Expired once paid back. */
export const TermDepositStatusSchema = z.enum(['live', 'expired']);
export type TermDepositStatus = z.infer<typeof TermDepositStatusSchema>;

/** Spec 002 §3 "Term deposit option" (days_id is the option's id, which the submit sends as day). */
export const TermDepositOptionSchema = z.object({
  id: z.number().int(),
  days_id: z.number().int(),
  coin_id: CoinIdSchema,
  no_days: z.number().int(),
  /** Percent for the whole term. */
  interest_rate: DecimalStringSchema,
  /** When a deposit made now would end. */
  expiry: isoDateTime,
  min_amount: DecimalStringSchema,
  max_amount: DecimalStringSchema.nullable(),
});
export type TermDepositOption = z.infer<typeof TermDepositOptionSchema>;

/** A coin row of the deposit table: the customer's available balance and the terms offered. */
export const TermDepositCoinSchema = z.object({
  coin_id: CoinIdSchema,
  name: z.string(),
  scale: z.number().int(),
  balance: DecimalStringSchema,
  options: z.array(TermDepositOptionSchema),
});
export type TermDepositCoin = z.infer<typeof TermDepositCoinSchema>;

/** Spec 002 §3 "Term deposit transaction". */
export const TermDepositTransactionSchema = z.object({
  id: z.number().int(),
  coin_id: CoinIdSchema,
  amount: DecimalStringSchema,
  /** Percent for the whole term. */
  rate: DecimalStringSchema,
  start_day: isoDateTime,
  end_day: isoDateTime,
  /** The interest paid at maturity. */
  deposit_return: DecimalStringSchema,
  /** amount + deposit_return. */
  total_balance_amount: DecimalStringSchema,
  term_days: z.number().int(),
  is_active: z.boolean(),
  status: TermDepositStatusSchema,
});
export type TermDepositTransaction = z.infer<typeof TermDepositTransactionSchema>;

/** Spec 002 §5: empty, then zero or negative; the coin's decimals are checked with the coin. */
const depositAmountSchema = z
  .union([z.string(), z.number()], { error: TERM_DEPOSIT_TEXTS.inputAmount })
  .transform((value) => String(value).trim())
  .superRefine((text, ctx) => {
    if (text === '') ctx.addIssue({ code: 'custom', message: TERM_DEPOSIT_TEXTS.inputAmount });
    else if (!/^\d+(\.\d+)?$/.test(text) || !/[1-9]/.test(text))
      ctx.addIssue({ code: 'custom', message: TERM_DEPOSIT_TEXTS.invalidAmount });
    else if (!fitsColumn(text, MAX_ASSET_SCALE))
      ctx.addIssue({ code: 'custom', message: TOO_LARGE_TEXTS.amount });
  });

export const CreateTermDepositBodySchema = z
  .strictObject({
    coin: CoinIdSchema,
    amount: depositAmountSchema,
    /** The option's id (spec: days_id). */
    day: z.coerce
      .number({ error: TERM_DEPOSIT_TEXTS.chooseTerm })
      .int()
      .positive(TERM_DEPOSIT_TEXTS.chooseTerm)
      .max(2_147_483_647, TERM_DEPOSIT_TEXTS.chooseTerm),
    /** The rate the customer saw; refused when the option's rate has changed since. */
    rate: z
      .union([z.string(), z.number()], { error: TERM_DEPOSIT_TEXTS.rateChanged })
      .transform((value) => String(value).trim())
      .optional(),
    /** Spec 002 §7 sends the customer's id: only the signed-in customer's own is accepted. */
    user_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    /** Spec 002 §7 sends the option's id again: it must name the same term as `day`. */
    id: z.coerce.number({ error: TERM_DEPOSIT_TEXTS.chooseTerm }).int().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.id !== undefined && body.id !== body.day)
      ctx.addIssue({ code: 'custom', path: ['day'], message: TERM_DEPOSIT_TEXTS.chooseTerm });
    const places = decimalPlaces(body.amount);
    if (places === null || !/[1-9]/.test(body.amount)) return;
    // Spec 002 §5: for xrp no decimal point is allowed.
    if (body.coin === 'xrp' && body.amount.includes('.'))
      ctx.addIssue({ code: 'custom', path: ['amount'], message: TERM_DEPOSIT_TEXTS.wholeAmount });
    else if (places > termDepositDecimals(body.coin))
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: termDepositDecimalsText(termDepositDecimals(body.coin)),
      });
  });
export type CreateTermDepositBody = z.input<typeof CreateTermDepositBodySchema>;

export const listTermDepositCoins = defineEndpoint({
  method: 'GET',
  path: '/api/v1/term-deposit-coins',
  summary: 'The coins a customer can lock, with their available balance and the terms offered',
  responses: { 200: z.object({ data: z.array(TermDepositCoinSchema) }) },
});

export const createTermDeposit = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/term-deposit',
  summary:
    'Lock an amount of a coin for the chosen term at its current rate. Needs the Idempotency-Key header.',
  body: CreateTermDepositBodySchema,
  responses: { 200: z.object({ data: TermDepositTransactionSchema, message: z.string() }) },
});

export const listTermDepositTransactions = defineEndpoint({
  method: 'GET',
  path: '/api/v1/term-deposit-transactions',
  summary: "The customer's term deposits, newest first (spec: skip and take, page size 3)",
  query: z.strictObject({
    skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
    take: z.coerce.number().int().min(1).max(TERM_DEPOSIT_MAX_TAKE).default(TERM_DEPOSIT_PAGE_SIZE),
  }),
  responses: { 200: z.object({ data: z.array(TermDepositTransactionSchema), total: z.number().int() }) },
});

// ---- back office ----

const RATE = /^\d{1,3}(\.\d{1,4})?$/;
const AMOUNT = /^\d+(\.\d{1,18})?$/;

export const AdminTermDepositOptionSchema = z.object({
  id: z.number().int(),
  coin_id: CoinIdSchema,
  no_days: z.number().int(),
  interest_rate: DecimalStringSchema,
  active: z.boolean(),
  min_amount: DecimalStringSchema,
  max_amount: DecimalStringSchema.nullable(),
  total_cap: DecimalStringSchema.nullable(),
  /** What live deposits under the option hold now. */
  total_live: DecimalStringSchema,
});
export type AdminTermDepositOption = z.infer<typeof AdminTermDepositOptionSchema>;

const optionalAmount = upTo(
  z
    .string({ error: TERM_DEPOSIT_TEXTS.optionalAmount })
    .trim()
    .regex(new RegExp(`(^$)|(${AMOUNT.source})`), TERM_DEPOSIT_TEXTS.optionalAmount)
    .nullable()
    .transform((value) => (value === '' || value === null ? null : value)),
  MAX_ASSET_SCALE,
);

const optionShape = {
  no_days: z.coerce
    .number({ error: TERM_DEPOSIT_TEXTS.days })
    .int(TERM_DEPOSIT_TEXTS.days)
    .min(1, TERM_DEPOSIT_TEXTS.days)
    .max(3650, TERM_DEPOSIT_TEXTS.days),
  interest_rate: z.string({ error: TERM_DEPOSIT_TEXTS.rate }).trim().regex(RATE, TERM_DEPOSIT_TEXTS.rate),
  active: z.boolean(),
  min_amount: z
    .string({ error: TERM_DEPOSIT_TEXTS.optionAmount })
    .trim()
    .regex(AMOUNT, TERM_DEPOSIT_TEXTS.optionAmount),
  max_amount: optionalAmount,
  total_cap: optionalAmount,
};

function checkMaxAboveMin(
  body: { min_amount: string; max_amount: string | null },
  ctx: z.RefinementCtx,
): void {
  const { min_amount: min, max_amount: max } = body;
  // Compared only once both are amounts: a malformed one has its own error.
  if (max !== null && AMOUNT.test(min) && AMOUNT.test(max) && compareDecimals(max, min) < 0)
    ctx.addIssue({ code: 'custom', path: ['max_amount'], message: TERM_DEPOSIT_TEXTS.maxBelowMin });
}

export const TermDepositOptionBodySchema = z.strictObject(optionShape).superRefine(checkMaxAboveMin);
export const CreateTermDepositOptionBodySchema = z
  .strictObject({ coin_id: CoinIdSchema, ...optionShape })
  .superRefine(checkMaxAboveMin);
export type TermDepositOptionBody = z.input<typeof TermDepositOptionBodySchema>;

export const listAdminTermDepositOptions = defineEndpoint({
  method: 'GET',
  path: '/api/admin/term-deposits/options',
  summary: 'Every term deposit option of every coin, with what live deposits hold under it',
  responses: { 200: z.object({ data: z.array(AdminTermDepositOptionSchema) }) },
});

export const createAdminTermDepositOption = defineEndpoint({
  method: 'POST',
  path: '/api/admin/term-deposits/options',
  summary: 'Offer a new term for a coin (audited)',
  body: CreateTermDepositOptionBodySchema,
  responses: { 200: z.object({ data: AdminTermDepositOptionSchema, message: z.string() }) },
});

export const updateAdminTermDepositOption = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/term-deposits/options/{id}',
  summary: 'Change a term: rate, limits, cap, on or off (audited; deposits already made keep their rate)',
  params: z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  body: TermDepositOptionBodySchema,
  responses: { 200: z.object({ data: AdminTermDepositOptionSchema, message: z.string() }) },
});
