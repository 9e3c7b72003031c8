import { z } from 'zod';
import { MAX_ASSET_SCALE } from '@florin/domain';
import { CoinIdSchema, CryptoAssetSchema } from './crypto.js';
import { defineEndpoint } from './endpoint.js';
import { DecimalStringSchema, upTo } from './money.js';

/** The back office's crypto withdrawal settings per coin: the daily limit, auto-approval and automatic payouts. */

/** One automatic payout limit in coins (more than zero), or null for none. */
function payoutLimit(name: string) {
  return upTo(
    z
      .string({ error: `Enter ${name}, e.g. 1.5.` })
      .trim()
      .regex(/^\d+(\.\d{1,18})?$/, `Enter ${name}, e.g. 1.5.`)
      .refine(
        (text) => /[1-9]/.test(text),
        `${name.charAt(0).toUpperCase()}${name.slice(1)} must be more than zero.`,
      ),
    MAX_ASSET_SCALE,
  ).nullable();
}

export const CryptoWithdrawalSettingsSchema = z.object({
  coin_id: CoinIdSchema,
  asset: CryptoAssetSchema,
  /** Per customer and rolling 24 hours; beyond it a second staff approval. */
  daily_limit: DecimalStringSchema.nullable(),
  /** Withdrawals to an address whitelisted over 24 hours ago, within the daily limit, skip staff approval. */
  auto_approve_whitelisted: z.boolean(),
  wallet: z.enum(['simulated', 'cold_storage']),
  /** Automatic payouts from the node's hot wallet (decision 131); limits in coins, null when not set. */
  payout: z.object({
    /** Whether a hot wallet is configured for the coin (HOT_WALLET_*): without one nothing is sent automatically. */
    hot_wallet: z.boolean(),
    auto_payout: z.boolean(),
    max_per_withdrawal: DecimalStringSchema.nullable(),
    daily_total: DecimalStringSchema.nullable(),
    hot_wallet_ceiling: DecimalStringSchema.nullable(),
  }),
});
export type CryptoWithdrawalSettings = z.infer<typeof CryptoWithdrawalSettingsSchema>;

export const listCryptoWithdrawalSettings = defineEndpoint({
  method: 'GET',
  path: '/api/admin/crypto/withdrawal-settings',
  summary: 'Each coin’s daily withdrawal limit, auto-approval switch and wallet',
  responses: { 200: z.object({ data: z.array(CryptoWithdrawalSettingsSchema) }) },
});

export const updateCryptoWithdrawalSettings = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/crypto/withdrawal-settings/{coin_id}',
  summary: 'Set a coin’s daily withdrawal limit and auto-approval switch',
  params: z.strictObject({ coin_id: CoinIdSchema }),
  body: z.strictObject({
    daily_limit: upTo(
      z
        .string({ error: 'Enter the daily limit, e.g. 1.5.' })
        .trim()
        .regex(/^\d+(\.\d{1,18})?$/, 'Enter the daily limit, e.g. 1.5.')
        .refine((text) => /[1-9]/.test(text), 'The daily limit must be more than zero.'),
      MAX_ASSET_SCALE,
    ),
    auto_approve_whitelisted: z.boolean(),
    /** The automatic payout limits; left out, they stay as they are. */
    payout: z
      .strictObject({
        auto_payout: z.boolean(),
        max_per_withdrawal: payoutLimit('the most per withdrawal'),
        daily_total: payoutLimit('the daily total'),
        hot_wallet_ceiling: payoutLimit('the hot wallet ceiling'),
      })
      .refine(
        (payout) =>
          !payout.auto_payout ||
          (payout.max_per_withdrawal !== null &&
            payout.daily_total !== null &&
            payout.hot_wallet_ceiling !== null),
        { message: 'Set all three limits before turning automatic payouts on.', path: ['auto_payout'] },
      )
      .optional(),
  }),
  responses: { 200: z.object({ data: CryptoWithdrawalSettingsSchema, message: z.string() }) },
});
