/**
 * Amounts are integer counts of an asset's smallest unit (bigint) in code and
 * decimal strings in the asset's units on the wire. This module is the only
 * place that converts between the two; it never goes through a JS number.
 */

export const ASSET_SCALES = {
  GBP: 2,
  EUR: 2,
  USD: 2,
  BTC: 8,
  LTC: 8,
  BCH: 8,
  XRP: 6,
  ETH: 18,
} as const;

export type AssetCode = keyof typeof ASSET_SCALES;
export const ASSET_CODES = Object.keys(ASSET_SCALES) as AssetCode[];
export const FIAT_CODES = ['GBP', 'EUR', 'USD'] as const satisfies readonly AssetCode[];

/** An amount is stored as NUMERIC(40,0) minor units (LEDGER.md): at most this many digits. */
export const AMOUNT_PRECISION = 40;
/** The largest amount any column (and so any balance or hold) can keep, in minor units. */
export const MAX_MINOR_UNITS = 10n ** BigInt(AMOUNT_PRECISION) - 1n;
/** A price is kept as the market's candles keep it, NUMERIC(38,8): at most 30 whole digits. */
export const PRICE_PRECISION = 38;
export const PRICE_SCALE = 8;
/** The most decimals any asset has (ETH's 18): a coin amount whose coin is not known yet fits every coin. */
export const MAX_ASSET_SCALE = Math.max(...Object.values(ASSET_SCALES));

export function isAssetCode(code: string): code is AssetCode {
  return Object.hasOwn(ASSET_SCALES, code);
}

export function scaleOf(asset: AssetCode): number {
  return ASSET_SCALES[asset];
}

/**
 * The most decimals a customer may type for a coin amount (spec README: where the documents give two
 * readings, at most 8 for crypto), below ETH's 18: nothing smaller than a satoshi's worth is ever asked of
 * a customer, nor left behind where it could not be withdrawn.
 */
export const CRYPTO_ENTRY_DECIMALS = 8;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

export class AmountFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AmountFormatError';
  }
}

/** Decimal places a decimal string carries; null when it is not a plain decimal. */
export function decimalPlaces(text: string): number | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  return match[3]?.length ?? 0;
}

/**
 * "12.5" at scale 2 → 1250n. Refuses exponents, spaces, a bare ".", and more
 * decimals than the scale allows (rounding someone's money silently is a bug).
 */
export function toMinorUnits(text: string, scale: number): bigint {
  const match = DECIMAL.exec(text);
  if (!match) throw new AmountFormatError(`"${text}" is not a decimal amount`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > scale) {
    throw new AmountFormatError(`"${text}" has more than ${scale} decimal places`);
  }
  const units = BigInt(whole + fraction.padEnd(scale, '0'));
  return sign ? -units : units;
}

/** 1250n at scale 2 → "12.50": always exactly `scale` decimals. */
export function fromMinorUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** "0.01000000" → "0.01", "20.000000" → "20": a decimal string as a sentence reads it. */
/** -1, 0 or 1 as decimal string a compares with b: exact, on the strings, never through a JS number. */
export function compareDecimals(a: string, b: string): number {
  const places = Math.max(decimalPlaces(a) ?? 0, decimalPlaces(b) ?? 0);
  const left = toMinorUnits(a, places);
  const right = toMinorUnits(b, places);
  return left === right ? 0 : left < right ? -1 : 1;
}

export function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

export function parseAmount(text: string, asset: AssetCode): bigint {
  return toMinorUnits(text, scaleOf(asset));
}

export function formatAmount(units: bigint, asset: AssetCode): string {
  return fromMinorUnits(units, scaleOf(asset));
}

/** A price or rate as an exact fraction: "27123.45" → 2712345 / 100. */
export type Ratio = { numerator: bigint; denominator: bigint };

export function parseRatio(text: string): Ratio {
  const places = decimalPlaces(text);
  if (places === null) throw new AmountFormatError(`"${text}" is not a decimal number`);
  return { numerator: toMinorUnits(text, places), denominator: 10n ** BigInt(places) };
}

/** a × ratio, rounded towards +∞ (what a customer pays: the house never rounds in its own disfavour). */
export function mulRatioCeil(a: bigint, ratio: Ratio): bigint {
  return divCeil(a * ratio.numerator, ratio.denominator);
}

/** a × ratio, rounded towards −∞ (what a customer receives). */
export function mulRatioFloor(a: bigint, ratio: Ratio): bigint {
  return divFloor(a * ratio.numerator, ratio.denominator);
}

export function divFloor(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('division by zero');
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function divCeil(a: bigint, b: bigint): bigint {
  return -divFloor(-a, b);
}
