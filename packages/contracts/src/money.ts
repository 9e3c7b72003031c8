import { z } from 'zod';
import { ASSET_CODES, decimalPlaces, scaleOf, type AssetCode } from '@florin/domain';

export const AssetCodeSchema = z.enum(ASSET_CODES as [AssetCode, ...AssetCode[]]);

/**
 * A positive amount of `asset` as a decimal string, with no more decimals than
 * the asset's scale. The server converts it with `parseAmount` from domain.
 */
export function amountSchema(asset: AssetCode) {
  const scale = scaleOf(asset);
  return z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'Enter an amount such as 10 or 10.50.')
    .refine((text) => (decimalPlaces(text) ?? 0) <= scale, {
      message: scale === 0 ? 'Enter a whole amount.' : `Enter at most ${scale} decimal places.`,
    })
    .refine((text) => /[1-9]/.test(text), 'Enter an amount greater than zero.');
}

/** An amount whose asset travels beside it; the scale is checked against that asset. */
export const MoneySchema = z
  .object({ asset: AssetCodeSchema, amount: z.string() })
  .superRefine((value, ctx) => {
    const result = amountSchema(value.asset).safeParse(value.amount);
    if (!result.success) {
      for (const issue of result.error.issues) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: issue.message });
      }
    }
  });
export type Money = z.infer<typeof MoneySchema>;

/** A decimal string as the server writes it: an amount or a balance, any sign. */
export const DecimalStringSchema = z.string().regex(/^-?\d+(\.\d+)?$/);
