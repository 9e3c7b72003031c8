import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * The Account page's Auto Trade tab (spec 002 §2.2, §3, §4, §5, §7, §8, §9):
 * an auto buy turns each fiat deposit credited afterwards into its coin; an
 * auto sell turns each deposit of its coin into GBP. At most two, one of
 * each type; creating one needs the 2FA code; cancelling asks first.
 */

export const AUTO_TRADE_TYPES = ['buy', 'sell'] as const;
export const AutoTradeTypeSchema = z.enum(AUTO_TRADE_TYPES, { error: 'Choose buy or sell.' });
export type AutoTradeType = z.infer<typeof AutoTradeTypeSchema>;

/** Spec 002 §5: xrp and eth cannot be auto-sold. */
export const AUTO_SELL_REFUSED_COINS = ['xrp', 'eth'] as const;

/** Spec 002 §9: at most two active entries, one per type. */
export const AUTO_TRADE_MAX_ACTIVE = 2;

/** request-2fa's purpose for an auto trade (customers with e-mailed codes). */
export const AUTO_TRADE_2FA_PURPOSE = 'Auto Trade(2fa)';

export const AUTO_TRADE_TEXTS = {
  intro:
    'Auto buy turns every bank deposit you make into the coin you choose, at the instant price. Auto sell turns every deposit of the coin you choose into GBP. Each one is an ordinary trade, e-mailed to you.',
  typeLabel: 'Auto trade type',
  buy: 'Buy',
  sell: 'Sell',
  coinLabel: 'Coin',
  coinPlaceholder: 'Select a coin',
  passcodeLabel: '2FA code',
  confirm: 'Confirm',
  tableTitle: 'Active Auto Trading',
  activity: 'Activity',
  dateCreated: 'Date Created',
  asset: 'Asset',
  cancel: 'Cancel',
  empty: 'You have no active auto trading.',
  autoBuy: 'Auto buy',
  autoSell: 'Auto sell',
  cancelTitle: 'Cancel auto trade?',
  cancelQuestion: 'Deposits that arrive from now on will no longer be traded automatically.',
  cancelConfirm: 'Yes, cancel it',
  cancelKeep: 'Keep it',
  /** Spec 002 §5, title then text. */
  coinNotSelectedTitle: 'Coin not Selected',
  coinNotSelected: 'Please select a cryptocurrency coin',
  coinNotAllowedTitle: 'Coin Not Allowed',
  coinNotAllowed: 'The selected coin is not allowed for this auto trade type',
  passcodeMissingTitle: 'Two Factor Code Missing',
  passcodeMissing: 'Please enter your Two Factor Authentication code',
  tooManyTitle: 'Not allowed',
  tooMany: 'You can only enable auto trade for up to two coins',
  sameTypeTitle: 'Maximum Reached',
  sameType: 'Only one auto buy and sell allowed (Maximum of two active auto trading)',
  /** Spec 002 §8: a 500. */
  serverError: 'Something went wrong. Please contact support.',
  wrongPasscode: 'Wrong Passcode.',
  codeExpired: 'Your code has expired. Please request a new one.',
  secondFactorNeededTitle: 'Two Factor Authentication Needed',
  secondFactorNeeded:
    'Auto trade moves your money without you. Turn on two-factor authentication in Settings first.',
  created: 'Auto trade enabled.',
  cancelled: 'Auto trade cancelled.',
  notFound: 'Auto trade not found.',
} as const;

/** Spec 002 §3's auto trade item, with the ISO date beside the display one. */
export const AutoTradeItemSchema = z.object({
  id: z.number().int(),
  type: AutoTradeTypeSchema,
  coin_id: z.string(),
  /** DD/MM/YYYY (UTC). */
  _created_str: z.string(),
  /** The coin's name and code, e.g. "Bitcoin (BTC)". */
  _coin_str: z.string(),
  created_at: z.string(),
});
export type AutoTradeItem = z.infer<typeof AutoTradeItemSchema>;

/** The outcome of one deposit an auto trade looked at. */
export const AutoTradeConversionSchema = z.object({
  source: z.enum(['fiat', 'crypto']),
  deposit_id: z.string(),
  status: z.enum(['pending', 'converted', 'skipped']),
  trade_id: z.string().nullable(),
  reason: z.string().nullable(),
});
export type AutoTradeConversion = z.infer<typeof AutoTradeConversionSchema>;

const userIdParams = z.strictObject({
  // An integer column: a larger number would reach PostgreSQL and fail there (a 500), not here (a 422).
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

/**
 * Lenient on purpose: an empty coin or code gets the spec's own title and
 * text from the server (§5), not the generic validation message.
 */
export const CreateAutoTradeBodySchema = z.strictObject({
  coin_id: z.string().trim().max(20).nullish(),
  passcode: z.string().trim().max(20).nullish(),
  type: AutoTradeTypeSchema,
});
export type CreateAutoTradeBody = z.input<typeof CreateAutoTradeBodySchema>;

const listAnswer = z.object({ data: z.array(AutoTradeItemSchema) });

export const createAutoTrade = defineEndpoint({
  method: 'POST',
  path: '/api/v1/user/autobuy/{id}',
  summary:
    "Enables an auto buy or auto sell (the customer's own id; another is 404); answers the active list",
  params: userIdParams,
  body: CreateAutoTradeBodySchema,
  responses: { 200: listAnswer.extend({ message: z.string() }) },
});

export const listAutoTrades = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/autobuy/{id}',
  summary: "The customer's active auto trades (their own id; another is 404)",
  params: userIdParams,
  responses: { 200: listAnswer },
});

export const cancelAutoTrade = defineEndpoint({
  method: 'DELETE',
  path: '/api/v1/user/autobuy/{id}',
  summary: 'Cancels one of the customer’s auto trades (the auto trade id)',
  params: userIdParams,
  responses: { 200: z.object({ message: z.string() }) },
});
