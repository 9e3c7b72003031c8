import { Decimal } from 'decimal.js';
import type { CryptoAsset } from '@florin/contracts';
import { formatAmount } from '@florin/domain';

/** GBP values in journal metadata: exact decimal arithmetic, never a JS number. */
const GbpDecimal = Decimal.clone({ precision: 80 });

export type Answer<T> = { data: T; message: string };

export function asAsset(code: string): CryptoAsset {
  return code as CryptoAsset;
}

export function coins(units: string | bigint, asset: string): string {
  return formatAmount(BigInt(units), asAsset(asset));
}

export const custodyRef = (asset: string) => ({ asset: asAsset(asset), kind: 'custody' as const });
export const feeRef = (asset: string) => ({ asset: asAsset(asset), kind: 'withdrawal_fee_revenue' as const });
export const suspenseRef = (asset: string) => ({ asset: asAsset(asset), kind: 'suspense' as const });
export const userRef = (userId: number, asset: string) => ({
  asset: asAsset(asset),
  kind: 'available' as const,
  ownerUserId: String(userId),
});

/**
 * A journal's `gbp_value`: what `amount` (smallest units of `asset`) was worth in pounds at `rate` (one
 * unit's GBP price, as the market gives it), in pence rounded down, for the customer's history and their
 * accountant's CSV; nothing without a price.
 */
export function gbpValueMetadata(rate: string | null, asset: string, amount: bigint): { gbp_value?: string } {
  if (rate === null) return {};
  const units = formatAmount(amount, asAsset(asset));
  return {
    gbp_value: new GbpDecimal(rate).times(units).toDecimalPlaces(2, GbpDecimal.ROUND_DOWN).toFixed(2),
  };
}
