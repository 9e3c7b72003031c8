/**
 * Fees, tiers and trade limits (spec 002 section 9, DECISIONS.md "Fees, tiers,
 * referrals"). One pure implementation shared by the server (quotes,
 * execution) and the screens (previews, MAX and percent buttons), so both
 * always agree to the last minor unit.
 *
 * Quantities and money are bigint minor units of their asset (money.ts);
 * prices and percentages are decimal strings, read as exact fractions. Every
 * rounding goes the house's way: what a customer pays is rounded up, what they
 * receive is rounded down, and a quantity worked out from money is floored.
 */
import {
  divCeil,
  divFloor,
  fromMinorUnits,
  parseRatio,
  scaleOf,
  toMinorUnits,
  trimZeros,
  type AssetCode,
  type Ratio,
} from './money.js';

/** 1: the instant account; 2: the trading account. */
export type TradingPlatform = 1 | 2;

/** The fee tiers of the schedule (Custom is a fee plan, not a tier). */
export type FeeTier = 1 | 2 | 3 | 4;

export type TradeSide = 'buy' | 'sell';

/**
 * The fee schedule in percent of the trade's notional, per platform and tier:
 * the instant column is the spec's tier table, the trading column DECISIONS.md's
 * ("fees starting at 0.35%").
 */
export type FeeSchedule = Readonly<Record<TradingPlatform, Readonly<Record<FeeTier, string>>>>;

/**
 * The schedule a new database starts with; staff change it in the back office
 * (DECISIONS.md: "kept in the back office"), and the server prices by the one
 * stored.
 */
export const DEFAULT_FEE_SCHEDULE = {
  1: { 1: '1.39', 2: '1.15', 3: '0.90', 4: '0.65' },
  2: { 1: '0.75', 2: '0.60', 3: '0.45', 4: '0.35' },
} as const satisfies FeeSchedule;

export const FEE_TIERS = [1, 2, 3, 4] as const satisfies readonly FeeTier[];

/** A scheduled fee: above 0 (spreads are divided by Tier 1's) and at most this, with 2 decimals at most. */
export const MAX_SCHEDULE_PERCENT = '10';

export type FeeScheduleProblem = 'format' | 'range' | 'above_lower_tier';

/**
 * What is wrong with one platform's column of a schedule staff entered, per
 * tier: a fee is a percent above 0 and at most MAX_SCHEDULE_PERCENT with at
 * most 2 decimals, and a tier never costs more than the tier below it (a
 * customer trading more never pays a higher rate).
 */
export function checkFeeColumn(
  column: Readonly<Record<FeeTier, string>>,
): Partial<Record<FeeTier, FeeScheduleProblem>> {
  const problems: Partial<Record<FeeTier, FeeScheduleProblem>> = {};
  // The last valid fee below: a wrong one is reported itself, not again as the next tier's fault.
  let previous: Ratio | null = null;
  for (const tier of FEE_TIERS) {
    const text = column[tier];
    if (!/^\d{1,2}(\.\d{1,2})?$/.test(text)) {
      problems[tier] = 'format';
      continue;
    }
    const fee = parseRatio(text);
    if (fee.numerator === 0n || isLess(parseRatio(MAX_SCHEDULE_PERCENT), fee)) {
      problems[tier] = 'range';
      continue;
    }
    if (previous && isLess(previous, fee)) problems[tier] = 'above_lower_tier';
    else previous = fee;
  }
  return problems;
}

/**
 * The tier table's year-to-date GBP volume bands in pence, as shown to
 * customers (`from` and `to` inclusive, `to` null: no upper end). The table
 * leaves gaps (£50,000 to £50,001); tierForVolume closes them: a tier starts
 * as soon as the volume is above the previous tier's `to`. Tier 4's table
 * bound is £1,000,000 (`tableTo`); above it Tier 4 still applies unless staff
 * assign a Custom fee plan.
 */
export const TIER_VOLUME_BOUNDS = [
  { tier: 1, from: 0n, to: 5_000_000n },
  { tier: 2, from: 5_000_100n, to: 10_000_000n },
  { tier: 3, from: 10_000_100n, to: 25_000_000n },
  { tier: 4, from: 25_000_100n, to: null, tableTo: 100_000_000n },
] as const satisfies readonly { tier: FeeTier; from: bigint; to: bigint | null; tableTo?: bigint }[];

/** Instant trade: a quantity worked out from a fiat amount is floored to this many decimals. */
export const INSTANT_QUANTITY_DECIMALS = 4;

/** Market and limit trading: quantities and prices carry at most this many decimals; so do MAX and percent results. */
export const TRADE_DECIMALS = 4;

/** MAX stays this far (in coin units) below a coin's amount_max, so a moving price never tips it over. */
export const MAX_MARGIN = '0.00005';

/**
 * A spread multiplier that does not end (0.35 ÷ 0.75 = 0.4666…) is rounded up
 * to this many decimals: a hair wider spread, never a narrower one.
 */
export const SPREAD_MULTIPLIER_DECIMALS = 18;

/**
 * The fee tier for this calendar year's GBP trading volume in pence.
 * £50,000.00 is still Tier 1, £50,000.01 is Tier 2; everything above
 * £250,000 is Tier 4.
 */
export function tierForVolume(gbpVolumePence: bigint): FeeTier {
  if (gbpVolumePence < 0n) throw new RangeError('a trading volume cannot be negative');
  for (const band of TIER_VOLUME_BOUNDS) {
    if (band.to === null || gbpVolumePence <= band.to) return band.tier;
  }
  return 4;
}

/**
 * Reads a fee percentage ("1.39", "0.5000"), refusing anything that is not a
 * plain decimal in [0, 100). The ratio is the percentage itself (1.39 → 139/100).
 */
function readPercent(percent: string): Ratio {
  const ratio = parseRatio(percent);
  if (ratio.numerator < 0n) throw new RangeError(`fee percent "${percent}" is negative`);
  if (ratio.numerator >= 100n * ratio.denominator) {
    throw new RangeError(`fee percent "${percent}" is not below 100`);
  }
  return ratio;
}

/** a < b for two non-negative ratios. */
function isLess(a: Ratio, b: Ratio): boolean {
  return a.numerator * b.denominator < b.numerator * a.denominator;
}

/**
 * The customer's fee percent for one coin: their Custom plan's percent when
 * staff assigned one, else the schedule's for their platform and tier; a coin's
 * platform_fee (when not null) caps it, so '0' makes the coin free. Returned
 * without trailing zeros ('0.5000' → '0.5').
 */
export function feePercent(input: {
  schedule: FeeSchedule;
  platform: TradingPlatform;
  tier: FeeTier;
  customPercent?: string | null;
  coinPlatformFee?: string | null;
  /**
   * A promo code's fee discount in percent of the fee (issue 10: '25' takes a
   * quarter off, '100' makes the trade free), applied last, after the cap.
   */
  discountPercent?: string | null;
}): string {
  let chosen = readPercent(input.customPercent ?? input.schedule[input.platform][input.tier]);
  if (input.coinPlatformFee != null) {
    const cap = readPercent(input.coinPlatformFee);
    if (isLess(cap, chosen)) chosen = cap;
  }
  if (input.discountPercent != null) {
    const discount = readDiscount(input.discountPercent);
    // Both denominators are powers of ten, so the product still ends: an exact decimal.
    chosen = {
      numerator: chosen.numerator * (100n * discount.denominator - discount.numerator),
      denominator: chosen.denominator * discount.denominator * 100n,
    };
  }
  return trimZeros(fromMinorUnits(chosen.numerator, decimalsOf(chosen)));
}

/** A discount in percent, 0 to 100 inclusive (100: free). */
function readDiscount(percent: string): Ratio {
  const ratio = parseRatio(percent);
  if (ratio.numerator < 0n || ratio.numerator > 100n * ratio.denominator) {
    throw new RangeError(`discount percent "${percent}" is not between 0 and 100`);
  }
  return ratio;
}

function decimalsOf(ratio: Ratio): number {
  return ratio.denominator.toString().length - 1;
}

/**
 * What the coin's spreads are multiplied by for this customer: their fee
 * percent ÷ the Tier 1 fee of their platform's schedule (DECISIONS.md), e.g.
 * 0.45 ÷ 0.75 = '0.6'. Exact when the quotient ends; otherwise rounded up to
 * SPREAD_MULTIPLIER_DECIMALS decimals. The market module takes it as
 * QuoteOptions.spreadMultiplier.
 */
export function spreadMultiplier(schedule: FeeSchedule, platform: TradingPlatform, percent: string): string {
  const fee = readPercent(percent);
  const tierOne = parseRatio(schedule[platform][1]);
  const numerator = fee.numerator * tierOne.denominator;
  const denominator = fee.denominator * tierOne.numerator;
  const scale = 10n ** BigInt(SPREAD_MULTIPLIER_DECIMALS);
  return trimZeros(fromMinorUnits(divCeil(numerator * scale, denominator), SPREAD_MULTIPLIER_DECIMALS));
}

/**
 * The fee on a trade: percent of its notional, in the trade's fiat minor
 * units, rounded up (the house never rounds against itself).
 */
export function tradeFee(notionalFiatUnits: bigint, percent: string): bigint {
  if (notionalFiatUnits < 0n) throw new RangeError('a notional cannot be negative');
  const fee = readPercent(percent);
  return divCeil(notionalFiatUnits * fee.numerator, fee.denominator * 100n);
}

/** Reads a price per whole coin, refusing zero and negatives. */
function readPrice(price: string): Ratio {
  const ratio = parseRatio(price);
  if (ratio.numerator <= 0n) throw new RangeError(`price "${price}" is not positive`);
  return ratio;
}

/**
 * quantity × price in the fiat's minor units. The quantity is in the coin's
 * minor units and the price is fiat per whole coin; 'ceil' for what a buyer
 * pays, 'floor' for what a seller gets.
 */
export function notional(
  quantityUnits: bigint,
  coin: AssetCode,
  price: string,
  fiat: AssetCode,
  rounding: 'ceil' | 'floor',
): bigint {
  if (quantityUnits < 0n) throw new RangeError('a quantity cannot be negative');
  const ratio = readPrice(price);
  const numerator = quantityUnits * ratio.numerator * 10n ** BigInt(scaleOf(fiat));
  const denominator = ratio.denominator * 10n ** BigInt(scaleOf(coin));
  return rounding === 'ceil' ? divCeil(numerator, denominator) : divFloor(numerator, denominator);
}

/**
 * The decimals a quantity of this coin may carry where `decimals` is the rule: none for XRP, which
 * spec 002 §5 trades in whole units ("For xrp no decimal point is allowed").
 */
export function quantityDecimalsOf(coin: string, decimals: number): number {
  return coin.toUpperCase() === 'XRP' ? 0 : decimals;
}

/** The coin's minor units in one step of the last allowed decimal (BTC at 4 decimals: 10,000; XRP: 1,000,000). */
function stepUnits(coin: AssetCode, decimals: number): bigint {
  const scale = scaleOf(coin);
  const places = quantityDecimalsOf(coin, decimals);
  return scale > places ? 10n ** BigInt(scale - places) : 1n;
}

/**
 * Floors a quantity in the coin's minor units to `decimals` decimals
 * (TRADE_DECIMALS unless told): 1.23456789 BTC → 1.2345 BTC.
 */
export function floorQuantity(
  quantityUnits: bigint,
  coin: AssetCode,
  decimals: number = TRADE_DECIMALS,
): bigint {
  const step = stepUnits(coin, decimals);
  return divFloor(quantityUnits, step) * step;
}

/** An instant trade worked out to the minor unit. */
export type InstantQuote = {
  /** Coin minor units. */
  quantity: bigint;
  /** quantity × price in fiat minor units (ceil for a buy, floor for a sell). */
  notional: bigint;
  /** The fee in fiat minor units. */
  fee: bigint;
  /** What the customer pays (buy: notional + fee) or gets (sell: notional − fee), fiat minor units. */
  total: bigint;
};

type PriceInput = { side: TradeSide; coin: AssetCode; fiat: AssetCode; price: string; feePercent: string };

function quoteQuantity(input: PriceInput, quantity: bigint): InstantQuote {
  const isBuy = input.side === 'buy';
  const value = notional(quantity, input.coin, input.price, input.fiat, isBuy ? 'ceil' : 'floor');
  const fee = tradeFee(value, input.feePercent);
  return { quantity, notional: value, fee, total: isBuy ? value + fee : value - fee };
}

/**
 * The largest quantity, a whole number of `step`s, whose total does not
 * exceed `limit`. The total grows with the quantity on both sides (a sell's
 * fee is below 100 %, so notional − fee never falls), so this doubles to
 * bracket the answer and then halves in on it: exact, in a few dozen steps.
 */
function largestQuoteWithin(input: PriceInput, limit: bigint, step: bigint): InstantQuote {
  const fits = (steps: bigint): InstantQuote | null => {
    const quote = quoteQuantity(input, steps * step);
    return quote.total <= limit ? quote : null;
  };
  let best = fits(0n);
  if (best === null) throw new RangeError('the limit cannot be negative');
  let low = 0n;
  let high = 1n;
  for (let quote = fits(high); quote !== null; quote = fits(high)) {
    best = quote;
    low = high;
    high *= 2n;
  }
  // fits(low) holds and fits(high) does not.
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    const quote = fits(middle);
    if (quote === null) {
      high = middle;
    } else {
      best = quote;
      low = middle;
    }
  }
  return best;
}

/**
 * Quotes an instant trade from a quantity (coin minor units, as given) or
 * from a cost (fiat minor units: what the customer pays including the fee
 * for a buy, what they get after the fee for a sell). From a cost, the
 * quantity is the largest one floored to INSTANT_QUANTITY_DECIMALS whose
 * total does not exceed the cost. Give exactly one of the two.
 */
export function instantQuote(input: {
  side: TradeSide;
  coin: AssetCode;
  fiat: AssetCode;
  price: string;
  feePercent: string;
  quantity?: bigint;
  cost?: bigint;
}): InstantQuote {
  const { quantity, cost } = input;
  if ((quantity === undefined) === (cost === undefined)) {
    throw new RangeError('give either a quantity or a cost');
  }
  if (quantity !== undefined) return quoteQuantity(input, quantity);
  if (cost! < 0n) throw new RangeError('a cost cannot be negative');
  return largestQuoteWithin(input, cost!, stepUnits(input.coin, INSTANT_QUANTITY_DECIMALS));
}

/** amount_max less the margin, floored to TRADE_DECIMALS; null without a maximum. */
function quantityCap(coin: AssetCode, amountMax: bigint | null): bigint | null {
  if (amountMax === null) return null;
  const margin = toMinorUnits(MAX_MARGIN, scaleOf(coin));
  const cap = floorQuantity(amountMax - margin, coin);
  return cap > 0n ? cap : 0n;
}

function capQuantity(quantity: bigint, coin: AssetCode, amountMax: bigint | null): bigint {
  const cap = quantityCap(coin, amountMax);
  return cap !== null && cap < quantity ? cap : quantity;
}

/**
 * The MAX a customer can buy (coin minor units): the largest quantity floored
 * to TRADE_DECIMALS whose notional (rounded up) plus fee fits the fiat
 * available, capped at amount_max − MAX_MARGIN (floored to TRADE_DECIMALS;
 * amountMax null: no cap).
 */
export function maxBuyQuantity(input: {
  fiatAvailable: bigint;
  price: string;
  feePercent: string;
  coin: AssetCode;
  fiat: AssetCode;
  amountMax: bigint | null;
}): bigint {
  const available = input.fiatAvailable > 0n ? input.fiatAvailable : 0n;
  const cap = quantityCap(input.coin, input.amountMax);
  const step = stepUnits(input.coin, TRADE_DECIMALS);
  const affordable = largestQuoteWithin(
    { side: 'buy', coin: input.coin, fiat: input.fiat, price: input.price, feePercent: input.feePercent },
    available,
    step,
  ).quantity;
  return cap !== null && cap < affordable ? cap : affordable;
}

/**
 * The MAX a customer can sell (coin minor units): the coin available floored
 * to TRADE_DECIMALS, capped at amount_max − MAX_MARGIN (amountMax null: no cap).
 */
export function maxSellQuantity(input: {
  coinAvailable: bigint;
  coin: AssetCode;
  amountMax: bigint | null;
}): bigint {
  const available = input.coinAvailable > 0n ? input.coinAvailable : 0n;
  return capQuantity(floorQuantity(available, input.coin), input.coin, input.amountMax);
}

/** What the 50 % and 100 % buttons fill in: that share of a maximum, floored to TRADE_DECIMALS. */
export function percentOf(maxUnits: bigint, coin: AssetCode, percent: 50 | 100): bigint {
  if (maxUnits < 0n) throw new RangeError('a maximum cannot be negative');
  return floorQuantity(divFloor(maxUnits * BigInt(percent), 100n), coin);
}

/** Decimals a price is shown with: 5 for xlm, 2 for every other coin. */
export function priceDecimals(coinId: string): number {
  return coinId.toLowerCase() === 'xlm' ? 5 : 2;
}
