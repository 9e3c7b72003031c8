import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { AssetCodeSchema, DecimalStringSchema } from './money.js';

/**
 * The public fees page (spec 002 §9, issue 12), read from the settings the
 * server charges by, so the page can never disagree with a charge. Amounts
 * are decimal strings in the asset's own units and scale.
 */

export const AssetFeesSchema = z.object({
  asset: AssetCodeSchema,
  kind: z.enum(['fiat', 'coin']),
  /** What a deposit costs; deposits are credited in full, so "0". */
  deposit_fee: DecimalStringSchema,
  /** Taken out of the amount withdrawn: the customer receives amount − fee. */
  withdraw_fee: DecimalStringSchema,
  /** Withdrawals of at least this pay no fee; null: the fee always applies. */
  withdraw_fee_free_from: DecimalStringSchema.nullable(),
  /** The smallest withdrawal accepted. */
  withdraw_min: DecimalStringSchema,
  /** The largest withdrawal accepted; null: none (large ones only wait for a second approval). */
  withdraw_max: DecimalStringSchema.nullable(),
});
export type AssetFees = z.infer<typeof AssetFeesSchema>;

/** One row of the trading fee schedule (DECISIONS.md, "Fees, tiers, referrals"). */
export const TradingFeeTierSchema = z.object({
  tier: z.number().int(),
  /** This calendar year's GBP trading volume the tier covers, as the tier table shows it. */
  volume_from: DecimalStringSchema,
  volume_to: DecimalStringSchema,
  /** Percent of the trade's value: the instant account's (platform 1) and the trading account's (platform 2). */
  instant_percent: DecimalStringSchema,
  trading_percent: DecimalStringSchema,
});
export type TradingFeeTier = z.infer<typeof TradingFeeTierSchema>;

export const FeesSchema = z.object({
  /** Active fiat currencies, then active coins, each in the order every screen lists them. */
  assets: z.array(AssetFeesSchema),
  /** Tier 1 first. Above the last tier's volume_to fees are a Custom plan agreed with the customer. */
  trading: z.array(TradingFeeTierSchema),
});
export type Fees = z.infer<typeof FeesSchema>;

export const getFees = defineEndpoint({
  method: 'GET',
  path: '/api/v1/fees',
  summary: 'Deposit and withdrawal fees and limits per asset, and the trading fee schedule, as charged',
  responses: { 200: FeesSchema },
});
