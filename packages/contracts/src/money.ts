import { z } from 'zod';
import {
  AMOUNT_PRECISION,
  ASSET_CODES,
  PRICE_PRECISION,
  PRICE_SCALE,
  decimalPlaces,
  scaleOf,
  type AssetCode,
} from '@florin/domain';

export const AssetCodeSchema = z.enum(ASSET_CODES as [AssetCode, ...AssetCode[]]);

/** The refusal for a figure over its column, in the words a customer reads, by the figure's kind. */
export const TOO_LARGE_TEXTS = {
  amount: 'This amount is too large. Please enter a smaller amount.',
  price: 'This price is too large. Please enter a smaller price.',
} as const;

/**
 * The upper bound of every amount and price a request carries (issue 40: a 40-digit price was a
 * 500 when its hold was written). An amount of `scale` decimals must fit NUMERIC(40,0) minor
 * units, so it has at most 40 − scale whole digits; a price fits NUMERIC(38,8), 30 whole digits.
 * Text that is not a plain decimal passes: its format is the contract's own check.
 */
export function fitsColumn(text: string, scale: number, kind: 'amount' | 'price' = 'amount'): boolean {
  const whole = /^\s*[-+]?0*(\d*)(\.\d*)?\s*$/.exec(text)?.[1];
  if (whole === undefined) return true;
  return whole.length <= (kind === 'price' ? PRICE_PRECISION - PRICE_SCALE : AMOUNT_PRECISION - scale);
}

/** `schema` (decimal text, or null/undefined where optional) bounded by its column: see fitsColumn. */
export function upTo<S extends z.ZodType<string | null | undefined>>(
  schema: S,
  scale: number,
  kind: 'amount' | 'price' = 'amount',
): S {
  return schema.refine((text) => typeof text !== 'string' || fitsColumn(text, scale, kind), {
    message: TOO_LARGE_TEXTS[kind],
  });
}

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
    .refine((text) => /[1-9]/.test(text), 'Enter an amount greater than zero.')
    .refine((text) => fitsColumn(text, scale), TOO_LARGE_TEXTS.amount);
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
