import { z } from 'zod';
import { CoinIdSchema, CryptoAssetSchema } from './crypto.js';
import { defineEndpoint } from './endpoint.js';
import { FiatCurrencySchema } from './fiat.js';
import { MAX_ASSET_SCALE } from '@florin/domain';
import { DecimalStringSchema, upTo } from './money.js';

/**
 * The back office for trading (issue 9, "Back office"): each coin's trading
 * settings, each fiat currency's withdrawal settings, the fee schedule with
 * customers' Custom plans, and the house's net position per asset. Finance
 * (and a superadmin) only; every change is audited and applies to the next
 * quote. Amounts are decimal strings in the asset's units; percentages are
 * decimal strings below 100 with at most 4 decimals (the tables' numeric(6, 4)).
 */

export const ADMIN_TRADING_TEXTS = {
  coinSaved: 'Coin settings saved. New quotes use them now.',
  changedMeanwhile:
    'Someone else saved these settings after you opened them. The form now shows their values: make your change again.',
  currencySaved: 'Withdrawal settings saved.',
  customPlanSet: 'Custom fee plan saved. The customer’s next quote uses it.',
  customPlanCleared: 'Custom fee plan removed: the fee schedule applies again.',
  customerNotFound: 'There is no customer with this id.',
  customerId: 'Enter the customer’s id, a number such as 1042.',
  amountMaxBelowMin: 'The largest trade must not be smaller than the smallest.',
  feeFreeBelowMin: 'Fee-free withdrawals must start at or above the minimum withdrawal.',
  feeNotBelowMin:
    'The withdrawal fee must be smaller than the smallest withdrawal: a withdrawal of the minimum would leave nothing.',
  percent: 'Enter a percentage below 100 with at most 4 decimals, e.g. 0.5.',
  optionalPercent: 'Enter a percentage below 100 with at most 4 decimals, or leave it empty.',
  amount: 'Enter an amount such as 0.001.',
  optionalAmount: 'Enter an amount such as 0.001, or leave it empty.',
  amountPositive: 'Enter an amount greater than zero, or leave it empty.',
  confirmations: 'Enter a whole number of confirmations from 1 to 1000.',
  scheduleSaved: 'Fee schedule saved. New quotes use it now.',
  schedulePercent: 'Enter a percentage above 0 and at most 10, with at most 2 decimals, e.g. 0.75.',
  scheduleAboveLowerTier: 'A tier must not cost more than the tier below it.',
  reason: 'Please give the reason.',
  reasonTooLong: 'The reason may be at most 500 characters.',
} as const;

const PERCENT = /^\d{1,2}(\.\d{1,4})?$/;
const AMOUNT = /^\d+(\.\d{1,18})?$/;

const percentSchema = z
  .string({ error: ADMIN_TRADING_TEXTS.percent })
  .trim()
  .regex(PERCENT, ADMIN_TRADING_TEXTS.percent);

/** A percentage, or empty (or null) for none. */
const optionalPercentSchema = z
  .string({ error: ADMIN_TRADING_TEXTS.optionalPercent })
  .trim()
  .regex(new RegExp(`(^$)|(${PERCENT.source})`), ADMIN_TRADING_TEXTS.optionalPercent)
  .nullable()
  .transform((value) => (value === '' || value === null ? null : value));

/** An amount of zero or more; the server checks its decimals against the asset's scale. */
const amountSchema = upTo(
  z.string({ error: ADMIN_TRADING_TEXTS.amount }).trim().regex(AMOUNT, ADMIN_TRADING_TEXTS.amount),
  MAX_ASSET_SCALE,
);

/** A positive amount, or empty (or null) for none. */
const optionalPositiveAmountSchema = upTo(
  z
    .string({ error: ADMIN_TRADING_TEXTS.optionalAmount })
    .trim()
    .regex(new RegExp(`(^$)|(${AMOUNT.source})`), ADMIN_TRADING_TEXTS.optionalAmount)
    .refine((text) => text === '' || /[1-9]/.test(text), ADMIN_TRADING_TEXTS.amountPositive)
    .nullable()
    .transform((value) => (value === '' || value === null ? null : value)),
  MAX_ASSET_SCALE,
);

/**
 * The settings as staff saw them, as a short digest: a save sends the revision its form started from and
 * is refused (409, with the settings as they are now in `data.current`) when another save came in between.
 */
const RevisionSchema = z.string().min(1).max(64);

// ---- coins ----

export const AdminCoinSchema = z.object({
  coin_id: CoinIdSchema,
  asset: CryptoAssetSchema,
  name: z.string(),
  active: z.boolean(),
  /** The spec's primary (1): the variant listed in the asset selectors. */
  primary: z.boolean(),
  ask_spread: DecimalStringSchema,
  bid_spread: DecimalStringSchema,
  /** Caps every customer's fee for this coin; null: no cap; '0': traded free. */
  platform_fee: DecimalStringSchema.nullable(),
  /** The smallest trade (and withdrawal), in the coin's units. */
  amount_min: DecimalStringSchema,
  /** The largest single trade; null: no maximum. */
  amount_max: DecimalStringSchema.nullable(),
  withdraw_fee: DecimalStringSchema,
  disable_buy: z.boolean(),
  disable_sell: z.boolean(),
  disable_deposit: z.boolean(),
  disable_withdraw: z.boolean(),
  /** Blocks a deposit waits for before it is credited. */
  confirmations: z.number().int(),
  revision: RevisionSchema,
});
export type AdminCoin = z.infer<typeof AdminCoinSchema>;

export const listAdminCoins = defineEndpoint({
  method: 'GET',
  path: '/api/admin/trading/coins',
  summary: 'Every coin with its trading, deposit and withdrawal settings',
  responses: { 200: z.object({ data: z.array(AdminCoinSchema) }) },
});

export const UpdateAdminCoinBodySchema = z.strictObject({
  active: z.boolean(),
  primary: z.boolean(),
  ask_spread: percentSchema,
  bid_spread: percentSchema,
  platform_fee: optionalPercentSchema,
  amount_min: amountSchema,
  amount_max: optionalPositiveAmountSchema,
  withdraw_fee: amountSchema,
  disable_buy: z.boolean(),
  disable_sell: z.boolean(),
  disable_deposit: z.boolean(),
  disable_withdraw: z.boolean(),
  confirmations: z
    .number({ error: ADMIN_TRADING_TEXTS.confirmations })
    .int(ADMIN_TRADING_TEXTS.confirmations)
    .min(1, ADMIN_TRADING_TEXTS.confirmations)
    .max(1000, ADMIN_TRADING_TEXTS.confirmations),
  revision: RevisionSchema,
});

export const updateAdminCoin = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/trading/coins/{coin_id}',
  summary: 'Replace a coin’s settings (audited; the next quote uses them)',
  params: z.strictObject({ coin_id: CoinIdSchema }),
  body: UpdateAdminCoinBodySchema,
  responses: { 200: z.object({ data: AdminCoinSchema, message: z.string() }) },
});

// ---- fiat currencies ----

export const AdminCurrencySchema = z.object({
  code: FiatCurrencySchema,
  name: z.string(),
  symbol: z.string(),
  active: z.boolean(),
  withdraw_min: DecimalStringSchema,
  withdraw_fee: DecimalStringSchema,
  /** Withdrawals of at least this pay no fee; null: the fee always applies. */
  withdraw_fee_free_from: DecimalStringSchema.nullable(),
  revision: RevisionSchema,
});
export type AdminCurrency = z.infer<typeof AdminCurrencySchema>;

export const listAdminCurrencies = defineEndpoint({
  method: 'GET',
  path: '/api/admin/trading/currencies',
  summary: 'Every fiat currency with its withdrawal minimum, fee and fee-free threshold',
  responses: { 200: z.object({ data: z.array(AdminCurrencySchema) }) },
});

export const UpdateAdminCurrencyBodySchema = z.strictObject({
  withdraw_min: amountSchema,
  withdraw_fee: amountSchema,
  withdraw_fee_free_from: optionalPositiveAmountSchema,
  revision: RevisionSchema,
});

export const updateAdminCurrency = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/trading/currencies/{code}',
  summary: 'Set a fiat currency’s withdrawal settings (audited)',
  params: z.strictObject({ code: FiatCurrencySchema }),
  body: UpdateAdminCurrencyBodySchema,
  responses: { 200: z.object({ data: AdminCurrencySchema, message: z.string() }) },
});

// ---- fee plans ----

export const FeeScheduleRowSchema = z.object({
  tier: z.number().int(),
  /** This calendar year's GBP trading volume that puts a customer in the tier; `to` null: no upper end. */
  volume_from: DecimalStringSchema,
  volume_to: DecimalStringSchema.nullable(),
  /** The instant account's fee (platform 1) and the trading account's (platform 2), in percent. */
  instant_percent: DecimalStringSchema,
  trading_percent: DecimalStringSchema,
});
export type FeeScheduleRow = z.infer<typeof FeeScheduleRowSchema>;

export const CustomFeePlanSchema = z.object({
  user_id: z.number().int(),
  email: z.string(),
  name: z.string(),
  platform: z.number().int(),
  custom_fee_percent: DecimalStringSchema.nullable(),
});
export type CustomFeePlan = z.infer<typeof CustomFeePlanSchema>;

export const getFeePlans = defineEndpoint({
  method: 'GET',
  path: '/api/admin/trading/fee-plans',
  summary: 'The fee schedule and every customer on a Custom fee plan',
  responses: {
    200: z.object({
      data: z.object({
        schedule: z.array(FeeScheduleRowSchema),
        /** What a schedule save sends back as `revision`. */
        schedule_revision: RevisionSchema,
        custom: z.array(CustomFeePlanSchema),
      }),
    }),
  },
});

/** Why staff changed a fee: kept in the audit log. */
const reasonSchema = z
  .string({ error: ADMIN_TRADING_TEXTS.reason })
  .trim()
  .min(1, ADMIN_TRADING_TEXTS.reason)
  .max(500, ADMIN_TRADING_TEXTS.reasonTooLong);

/** A fee of the schedule as typed; the server checks the range and the order of the tiers (checkFeeColumn). */
const schedulePercentSchema = z.string({ error: ADMIN_TRADING_TEXTS.schedulePercent }).trim();

/** Tier 1 to Tier 4 of one platform's column. */
const feeColumnSchema = z.tuple([
  schedulePercentSchema,
  schedulePercentSchema,
  schedulePercentSchema,
  schedulePercentSchema,
]);

export const UpdateFeeScheduleBodySchema = z.strictObject({
  /** The instant account's fees (platform 1), Tier 1 to Tier 4, in percent. */
  instant_percents: feeColumnSchema,
  /** The trading account's fees (platform 2), Tier 1 to Tier 4, in percent. */
  trading_percents: feeColumnSchema,
  reason: reasonSchema,
  revision: RevisionSchema,
});
export type UpdateFeeScheduleBody = z.infer<typeof UpdateFeeScheduleBodySchema>;

export const updateFeeSchedule = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/trading/fee-schedule',
  summary: 'Replace the fee schedule, both columns, with the reason kept in the audit log; new quotes use it',
  body: UpdateFeeScheduleBodySchema,
  responses: { 200: z.object({ data: z.array(FeeScheduleRowSchema), message: z.string() }) },
});

export const SetCustomFeePlanBodySchema = z.strictObject({
  /** Null or empty: the customer goes back to the schedule. */
  custom_fee_percent: optionalPercentSchema,
  reason: reasonSchema,
});

export const setCustomFeePlan = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/trading/fee-plans/{user_id}',
  summary: 'Set or clear a customer’s Custom fee plan, with the reason kept in the audit log',
  params: z.strictObject({ user_id: z.coerce.number().int().positive().max(2_147_483_647) }),
  body: SetCustomFeePlanBodySchema,
  responses: { 200: z.object({ data: CustomFeePlanSchema, message: z.string() }) },
});

// ---- the house's net position ----

export const InventoryRowSchema = z.object({
  asset: z.string(),
  kind: z.enum(['coin', 'fiat']),
  /** The house's inventory balance: negative when customers hold more than the house bought back. */
  balance: DecimalStringSchema,
  /** One unit in GBP now (a coin at its GBP bid); null without a fresh price. */
  gbp_rate: DecimalStringSchema.nullable(),
  gbp_value: DecimalStringSchema.nullable(),
});
export type InventoryRow = z.infer<typeof InventoryRowSchema>;

export const getHouseInventory = defineEndpoint({
  method: 'GET',
  path: '/api/admin/trading/inventory',
  summary: 'The house’s net position per asset with its GBP value at the current bid',
  responses: {
    200: z.object({
      data: z.object({
        assets: z.array(InventoryRowSchema),
        /** The sum of the GBP values known; `complete` false when some asset has no fresh price. */
        total_gbp_value: DecimalStringSchema,
        complete: z.boolean(),
      }),
    }),
  },
});
