import { Decimal } from 'decimal.js';

/**
 * decimal.js rounds to 20 significant digits by default, which silently cuts
 * an ETH price times a spread; prices get their own clone with room to spare.
 */
export const PriceDecimal = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
export type PriceDecimal = InstanceType<typeof PriceDecimal>;

/** Prices are kept and sent with 8 decimals (the chart's precision; the UI rounds fiat to 2). */
export const PRICE_DECIMALS = 8;

export function formatPrice(value: PriceDecimal): string {
  return value.toFixed(PRICE_DECIMALS);
}
