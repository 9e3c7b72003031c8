import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmountFormatError, fromMinorUnits, parseAmount, parseRatio, type AssetCode } from './money.js';
import {
  checkFeeColumn,
  DEFAULT_FEE_SCHEDULE,
  INSTANT_QUANTITY_DECIMALS,
  MAX_MARGIN,
  SPREAD_MULTIPLIER_DECIMALS,
  TIER_VOLUME_BOUNDS,
  TRADE_DECIMALS,
  feePercent,
  floorQuantity,
  instantQuote,
  maxBuyQuantity,
  maxSellQuantity,
  notional,
  percentOf,
  priceDecimals,
  spreadMultiplier,
  tierForVolume,
  tradeFee,
  type FeeTier,
  type TradingPlatform,
} from './trading.js';

/** Fixed seeds: a failure shows the same counterexample on every run. */
const PROPERTY_RUNS = { seed: 20261123, numRuns: 400 };

const BTC = (text: string) => parseAmount(text, 'BTC');
const GBP = (text: string) => parseAmount(text, 'GBP');

const COINS: AssetCode[] = ['BTC', 'ETH', 'LTC', 'BCH', 'XRP'];
/** One step of a trade quantity: 4 decimals, XRP whole units (spec 002 §5). */
const stepOf = (coin: AssetCode) => parseAmount(coin === 'XRP' ? '1' : '0.0001', coin);
const FIATS: AssetCode[] = ['GBP', 'EUR', 'USD'];
const SCHEDULE_PERCENTS = [
  ...Object.values(DEFAULT_FEE_SCHEDULE[1]),
  ...Object.values(DEFAULT_FEE_SCHEDULE[2]),
];

const coinArb = fc.constantFrom(...COINS);
const fiatArb = fc.constantFrom(...FIATS);
/** Prices from 0.00000001 to 10,000,000 with 0 to 8 decimals. */
const priceArb = fc
  .integer({ min: 0, max: 8 })
  .chain((places) =>
    fc.bigInt({ min: 1n, max: 10n ** BigInt(7 + places) }).map((units) => fromMinorUnits(units, places)),
  );
/** The schedule's fees, zero, and any percent below 100 with up to 4 decimals. */
const percentArb = fc.oneof(
  fc.constantFrom(...SCHEDULE_PERCENTS, '0'),
  fc.bigInt({ min: 0n, max: 999_999n }).map((units) => fromMinorUnits(units, 4)),
);

describe('fee schedule and tiers', () => {
  it('has the instant column of the spec and the trading column starting at 0.35 %', () => {
    expect(DEFAULT_FEE_SCHEDULE).toEqual({
      1: { 1: '1.39', 2: '1.15', 3: '0.90', 4: '0.65' },
      2: { 1: '0.75', 2: '0.60', 3: '0.45', 4: '0.35' },
    });
  });

  it('shows the tier table bands in pence', () => {
    expect(TIER_VOLUME_BOUNDS.map(({ tier, from, to }) => [tier, from, to])).toEqual([
      [1, 0n, 5_000_000n],
      [2, 5_000_100n, 10_000_000n],
      [3, 10_000_100n, 25_000_000n],
      [4, 25_000_100n, null],
    ]);
    expect(TIER_VOLUME_BOUNDS[3].tableTo).toBe(100_000_000n);
  });

  it.each([
    [0n, 1],
    [GBP('49999.99'), 1],
    [GBP('50000'), 1],
    [GBP('50000.01'), 2],
    [GBP('50001'), 2],
    [GBP('100000'), 2],
    [GBP('100000.01'), 3],
    [GBP('250000'), 3],
    [GBP('250000.01'), 4],
    [GBP('1000000'), 4],
    [GBP('1000000.01'), 4],
    [GBP('999999999999'), 4],
  ] as const)('puts a year-to-date GBP volume of %s pence in tier %s', (volume, tier) => {
    expect(tierForVolume(volume)).toBe(tier);
  });

  it('puts both ends of every table band in that band', () => {
    for (const band of TIER_VOLUME_BOUNDS) {
      expect(tierForVolume(band.from)).toBe(band.tier);
      expect(tierForVolume(band.to ?? band.tableTo)).toBe(band.tier);
    }
  });

  it('refuses a negative volume', () => {
    expect(() => tierForVolume(-1n)).toThrow(RangeError);
  });
});

describe('feePercent', () => {
  it('takes the schedule for the platform and tier', () => {
    const platforms: TradingPlatform[] = [1, 2];
    const tiers: FeeTier[] = [1, 2, 3, 4];
    const got = platforms.map((platform) =>
      tiers.map((tier) => feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform, tier })),
    );
    expect(got).toEqual([
      ['1.39', '1.15', '0.9', '0.65'],
      ['0.75', '0.6', '0.45', '0.35'],
    ]);
  });

  it('takes a Custom plan over the schedule, below or above it', () => {
    expect(feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 2, tier: 1, customPercent: '0.25' })).toBe(
      '0.25',
    );
    expect(feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 4, customPercent: '2' })).toBe(
      '2',
    );
    expect(feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 2, customPercent: null })).toBe(
      '1.15',
    );
  });

  it("caps the fee at the coin's platform_fee, which makes the coin free at 0", () => {
    expect(
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, coinPlatformFee: '0.5000' }),
    ).toBe('0.5');
    expect(
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 2, tier: 4, coinPlatformFee: '0.5000' }),
    ).toBe('0.35');
    expect(
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 2, tier: 4, coinPlatformFee: '0.35' }),
    ).toBe('0.35');
    expect(feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, coinPlatformFee: '0' })).toBe(
      '0',
    );
    expect(
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, coinPlatformFee: '0.0000' }),
    ).toBe('0');
    expect(feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, coinPlatformFee: null })).toBe(
      '1.39',
    );
    expect(
      feePercent({
        schedule: DEFAULT_FEE_SCHEDULE,
        platform: 2,
        tier: 1,
        customPercent: '0.2',
        coinPlatformFee: '0.1',
      }),
    ).toBe('0.1');
    expect(
      feePercent({
        schedule: DEFAULT_FEE_SCHEDULE,
        platform: 2,
        tier: 1,
        customPercent: '0.05',
        coinPlatformFee: '0.1',
      }),
    ).toBe('0.05');
  });

  it("takes a promo code's discount off the fee, after the cap, exactly", () => {
    expect(feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, discountPercent: '50' })).toBe(
      '0.695',
    );
    expect(
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, discountPercent: '12.5' }),
    ).toBe('1.21625');
    expect(feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 2, tier: 4, discountPercent: '100' })).toBe(
      '0',
    );
    expect(feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 2, tier: 4, discountPercent: '0' })).toBe(
      '0.35',
    );
    expect(feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 2, tier: 4, discountPercent: null })).toBe(
      '0.35',
    );
    expect(
      feePercent({
        schedule: DEFAULT_FEE_SCHEDULE,
        platform: 1,
        tier: 1,
        coinPlatformFee: '0.5',
        discountPercent: '20',
      }),
    ).toBe('0.4');
    expect(
      feePercent({
        schedule: DEFAULT_FEE_SCHEDULE,
        platform: 2,
        tier: 1,
        customPercent: '0.3',
        discountPercent: '10',
      }),
    ).toBe('0.27');
  });

  it('refuses a discount outside 0 to 100 percent', () => {
    expect(() =>
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, discountPercent: '100.01' }),
    ).toThrow(RangeError);
    expect(() =>
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, discountPercent: '-5' }),
    ).toThrow();
    expect(() =>
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, discountPercent: 'half' }),
    ).toThrow();
  });

  it('refuses percentages that are not plain decimals in [0, 100)', () => {
    for (const bad of ['-0.1', '100', '150', 'abc', '', '1e2']) {
      expect(
        () => feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, customPercent: bad }),
        bad,
      ).toThrow();
      expect(
        () => feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, coinPlatformFee: bad }),
        bad,
      ).toThrow();
    }
    expect(() =>
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, customPercent: 'abc' }),
    ).toThrow(AmountFormatError);
    expect(() =>
      feePercent({ schedule: DEFAULT_FEE_SCHEDULE, platform: 1, tier: 1, customPercent: '100' }),
    ).toThrow(RangeError);
  });
});

describe('checkFeeColumn', () => {
  it('accepts the default columns and any column that never rises with the tier', () => {
    expect(checkFeeColumn(DEFAULT_FEE_SCHEDULE[1])).toEqual({});
    expect(checkFeeColumn(DEFAULT_FEE_SCHEDULE[2])).toEqual({});
    expect(checkFeeColumn({ 1: '10', 2: '10', 3: '0.01', 4: '0.01' })).toEqual({});
  });

  it('names each tier that is not a percent with 2 decimals, is 0 or above 10, or costs more than the tier below', () => {
    expect(checkFeeColumn({ 1: '0.755', 2: 'abc', 3: '-1', 4: '' })).toEqual({
      1: 'format',
      2: 'format',
      3: 'format',
      4: 'format',
    });
    expect(checkFeeColumn({ 1: '0', 2: '10.01', 3: '0.5', 4: '0.00' })).toEqual({
      1: 'range',
      2: 'range',
      4: 'range',
    });
    expect(checkFeeColumn({ 1: '0.75', 2: '0.80', 3: '0.45', 4: '0.46' })).toEqual({
      2: 'above_lower_tier',
      4: 'above_lower_tier',
    });
    // Each tier is compared with the last valid one below it: a wrong fee is not blamed on the next tier.
    expect(checkFeeColumn({ 1: '0', 2: '0.75', 3: 'x', 4: '0.80' })).toEqual({
      1: 'range',
      3: 'format',
      4: 'above_lower_tier',
    });
    // Tier 3 at 0.80 would still cost more than Tier 2 once Tier 2 is mended to at most Tier 1's 0.75.
    expect(checkFeeColumn({ 1: '0.75', 2: '0.90', 3: '0.80', 4: '0.70' })).toEqual({
      2: 'above_lower_tier',
      3: 'above_lower_tier',
    });
  });
});

describe('spreadMultiplier', () => {
  it('is 1 at Tier 1 and the fee over Tier 1 otherwise, exact when the quotient ends', () => {
    expect(spreadMultiplier(DEFAULT_FEE_SCHEDULE, 1, '1.39')).toBe('1');
    expect(spreadMultiplier(DEFAULT_FEE_SCHEDULE, 2, '0.75')).toBe('1');
    expect(spreadMultiplier(DEFAULT_FEE_SCHEDULE, 2, '0.45')).toBe('0.6');
    expect(spreadMultiplier(DEFAULT_FEE_SCHEDULE, 2, '0.6')).toBe('0.8');
    expect(spreadMultiplier(DEFAULT_FEE_SCHEDULE, 2, '1.5')).toBe('2');
    expect(spreadMultiplier(DEFAULT_FEE_SCHEDULE, 1, '0')).toBe('0');
  });

  it('rounds a quotient that does not end up at 18 decimals, widening the spread', () => {
    expect(SPREAD_MULTIPLIER_DECIMALS).toBe(18);
    expect(spreadMultiplier(DEFAULT_FEE_SCHEDULE, 2, '0.35')).toBe('0.466666666666666667');
    expect(spreadMultiplier(DEFAULT_FEE_SCHEDULE, 1, '0.65')).toBe('0.46762589928057554');
    expect(spreadMultiplier(DEFAULT_FEE_SCHEDULE, 1, '1.15')).toBe('0.827338129496402878');
  });

  it('never narrows the spread and is off by less than one unit in the last place', () => {
    fc.assert(
      fc.property(fc.constantFrom<TradingPlatform>(1, 2), percentArb, (platform, percent) => {
        const multiplier = parseRatio(spreadMultiplier(DEFAULT_FEE_SCHEDULE, platform, percent));
        const tierOne = parseRatio(DEFAULT_FEE_SCHEDULE[platform][1]);
        const fee = parseRatio(percent);
        // multiplier × tierOne ≥ fee, and (multiplier − 10⁻¹⁸) × tierOne < fee
        const lhs = multiplier.numerator * tierOne.numerator * fee.denominator;
        const rhs = fee.numerator * multiplier.denominator * tierOne.denominator;
        expect(lhs >= rhs).toBe(true);
        const lower = multiplier.numerator * 10n ** 18n - multiplier.denominator;
        expect(
          lower * tierOne.numerator * fee.denominator <
            fee.numerator * multiplier.denominator * 10n ** 18n * tierOne.denominator,
        ).toBe(true);
      }),
      PROPERTY_RUNS,
    );
  });
});

describe('tradeFee', () => {
  it('is the percent of the notional in fiat minor units', () => {
    expect(tradeFee(GBP('1000'), '1.39')).toBe(GBP('13.90'));
    expect(tradeFee(GBP('1000'), '0.35')).toBe(GBP('3.50'));
    expect(tradeFee(GBP('20000'), '0.65')).toBe(GBP('130'));
    expect(tradeFee(GBP('1000'), '0')).toBe(0n);
    expect(tradeFee(0n, '1.39')).toBe(0n);
  });

  it('rounds up: the house never rounds against itself', () => {
    expect(tradeFee(1n, '0.35')).toBe(1n);
    expect(tradeFee(GBP('999.99'), '0.75')).toBe(GBP('7.50'));
    expect(tradeFee(GBP('271.24'), '1.39')).toBe(GBP('3.78'));
  });

  it('refuses a negative notional or a bad percent', () => {
    expect(() => tradeFee(-1n, '1')).toThrow(RangeError);
    expect(() => tradeFee(100n, '-1')).toThrow(RangeError);
    expect(() => tradeFee(100n, '1.2.3')).toThrow(AmountFormatError);
  });
});

describe('notional', () => {
  it('is quantity × price in the fiat minor units, rounded as asked', () => {
    expect(notional(BTC('1'), 'BTC', '27123.45', 'GBP', 'ceil')).toBe(GBP('27123.45'));
    expect(notional(BTC('0.00012345'), 'BTC', '27123.45', 'GBP', 'ceil')).toBe(335n);
    expect(notional(BTC('0.00012345'), 'BTC', '27123.45', 'GBP', 'floor')).toBe(334n);
    expect(notional(parseAmount('1.5', 'ETH'), 'ETH', '1800.123', 'EUR', 'ceil')).toBe(270019n);
    expect(notional(parseAmount('1.5', 'ETH'), 'ETH', '1800.123', 'EUR', 'floor')).toBe(270018n);
    expect(notional(parseAmount('1', 'XRP'), 'XRP', '0.51234', 'USD', 'ceil')).toBe(52n);
    expect(notional(parseAmount('1', 'XRP'), 'XRP', '0.51234', 'USD', 'floor')).toBe(51n);
    expect(notional(0n, 'BTC', '27123.45', 'GBP', 'ceil')).toBe(0n);
  });

  it('stays exact far beyond what a JS number holds', () => {
    const wei = parseAmount('123456789.123456789123456789', 'ETH');
    expect(notional(wei, 'ETH', '98765.4321', 'GBP', 'floor')).toBe(1219326312345679n);
    expect(notional(wei, 'ETH', '98765.4321', 'GBP', 'ceil')).toBe(1219326312345680n);
  });

  it('refuses a zero or negative price and a negative quantity', () => {
    expect(() => notional(1n, 'BTC', '0', 'GBP', 'ceil')).toThrow(RangeError);
    expect(() => notional(1n, 'BTC', '-1', 'GBP', 'ceil')).toThrow(RangeError);
    expect(() => notional(-1n, 'BTC', '1', 'GBP', 'ceil')).toThrow(RangeError);
  });
});

describe('instantQuote', () => {
  const btc = { coin: 'BTC', fiat: 'GBP', price: '27123.45', feePercent: '1.39' } as const;

  it('quotes a buy from a quantity: notional rounded up, plus the fee', () => {
    expect(instantQuote({ ...btc, side: 'buy', quantity: BTC('0.01') })).toEqual({
      quantity: BTC('0.01'),
      notional: GBP('271.24'),
      fee: GBP('3.78'),
      total: GBP('275.02'),
    });
  });

  it('quotes a sell from a quantity: notional rounded down, less the fee', () => {
    expect(instantQuote({ ...btc, side: 'sell', quantity: BTC('0.01') })).toEqual({
      quantity: BTC('0.01'),
      notional: GBP('271.23'),
      fee: GBP('3.78'),
      total: GBP('267.45'),
    });
  });

  it('keeps a typed quantity as it is (instant trade takes up to 8 decimals)', () => {
    expect(instantQuote({ ...btc, side: 'buy', quantity: BTC('0.00012345') }).quantity).toBe(12345n);
  });

  it('turns a buy cost into the most whole 4-decimal quantity it pays for, fee included', () => {
    expect(INSTANT_QUANTITY_DECIMALS).toBe(4);
    expect(instantQuote({ ...btc, side: 'buy', cost: GBP('100') })).toEqual({
      quantity: BTC('0.0036'),
      notional: GBP('97.65'),
      fee: GBP('1.36'),
      total: GBP('99.01'),
    });
    // 0.0037 BTC would cost 100.36 + 1.40.
    expect(instantQuote({ ...btc, side: 'buy', quantity: BTC('0.0037') }).total).toBeGreaterThan(GBP('100'));
  });

  it('turns a sell cost (what the customer gets) into a quantity floored to 4 decimals', () => {
    expect(instantQuote({ ...btc, side: 'sell', cost: GBP('100') })).toEqual({
      quantity: BTC('0.0037'),
      notional: GBP('100.35'),
      fee: GBP('1.40'),
      total: GBP('98.95'),
    });
    expect(instantQuote({ ...btc, side: 'sell', quantity: BTC('0.0038') }).total).toBeGreaterThan(GBP('100'));
  });

  it('gives a zero quantity for a cost too small to buy one 4-decimal step', () => {
    expect(instantQuote({ ...btc, side: 'buy', cost: GBP('1') })).toEqual({
      quantity: 0n,
      notional: 0n,
      fee: 0n,
      total: 0n,
    });
    expect(instantQuote({ ...btc, side: 'buy', cost: 0n }).quantity).toBe(0n);
  });

  it('charges nothing on a free coin', () => {
    expect(instantQuote({ ...btc, feePercent: '0', side: 'buy', cost: GBP('271.24') })).toEqual({
      quantity: BTC('0.01'),
      notional: GBP('271.24'),
      fee: 0n,
      total: GBP('271.24'),
    });
  });

  it('wants exactly one of a quantity and a cost, neither negative', () => {
    expect(() => instantQuote({ ...btc, side: 'buy' })).toThrow(RangeError);
    expect(() => instantQuote({ ...btc, side: 'buy', quantity: 1n, cost: 1n })).toThrow(RangeError);
    expect(() => instantQuote({ ...btc, side: 'buy', cost: -1n })).toThrow(RangeError);
    expect(() => instantQuote({ ...btc, side: 'sell', quantity: -1n })).toThrow(RangeError);
  });

  it('from a cost, never exceeds it, and one more step would', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('buy' as const, 'sell' as const),
        coinArb,
        fiatArb,
        priceArb,
        percentArb,
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (side, coin, fiat, price, percent, cost) => {
          const input = { side, coin, fiat, price, feePercent: percent };
          const quote = instantQuote({ ...input, cost });
          expect(quote.quantity % stepOf(coin)).toBe(0n);
          expect(quote.total).toBeLessThanOrEqual(cost);
          expect(quote).toEqual(instantQuote({ ...input, quantity: quote.quantity }));
          const next = instantQuote({ ...input, quantity: quote.quantity + stepOf(coin) });
          expect(next.total).toBeGreaterThan(cost);
        },
      ),
      PROPERTY_RUNS,
    );
  });
});

describe('maxBuyQuantity', () => {
  it("is the balance over the price, less the fee, floored to 4 decimals (the spec's rule)", () => {
    // £1,000 at £20,000 with a 1 % fee: 0.05 ÷ 1.01 = 0.049504… → 0.0495 (990.00 + 9.90).
    expect(
      maxBuyQuantity({
        fiatAvailable: GBP('1000'),
        price: '20000',
        feePercent: '1',
        coin: 'BTC',
        fiat: 'GBP',
        amountMax: null,
      }),
    ).toBe(BTC('0.0495'));
    expect(
      maxBuyQuantity({
        fiatAvailable: GBP('1000'),
        price: '27123.45',
        feePercent: '1.39',
        coin: 'BTC',
        fiat: 'GBP',
        amountMax: BTC('5'),
      }),
    ).toBe(BTC('0.0363'));
  });

  it("is capped at the coin's amount_max less the 0.00005 margin", () => {
    expect(MAX_MARGIN).toBe('0.00005');
    expect(TRADE_DECIMALS).toBe(4);
    const rich = { fiatAvailable: GBP('10000000'), price: '20000', feePercent: '0.35', fiat: 'GBP' } as const;
    expect(maxBuyQuantity({ ...rich, coin: 'BTC', amountMax: BTC('5') })).toBe(BTC('4.9999'));
    expect(maxBuyQuantity({ ...rich, coin: 'BTC', amountMax: BTC('0.03') })).toBe(BTC('0.0299'));
    expect(maxBuyQuantity({ ...rich, coin: 'BTC', amountMax: BTC('0.00016') })).toBe(BTC('0.0001'));
    expect(maxBuyQuantity({ ...rich, coin: 'BTC', amountMax: BTC('0.00005') })).toBe(0n);
    expect(maxBuyQuantity({ ...rich, coin: 'BTC', amountMax: 1n })).toBe(0n);
    // Uncapped: 498.2561 × 20,000 = 9,965,122.00 + 34,877.93 fee fits £10,000,000; 498.2562 does not.
    expect(maxBuyQuantity({ ...rich, coin: 'BTC', amountMax: null })).toBe(BTC('498.2561'));
    expect(
      maxBuyQuantity({ ...rich, price: '0.5', coin: 'XRP', amountMax: parseAmount('200000', 'XRP') }),
    ).toBe(parseAmount('199999', 'XRP'));
  });

  it('is zero with nothing (or less than nothing) to spend', () => {
    const input = { price: '20000', feePercent: '1', coin: 'BTC', fiat: 'GBP', amountMax: null } as const;
    expect(maxBuyQuantity({ ...input, fiatAvailable: 0n })).toBe(0n);
    expect(maxBuyQuantity({ ...input, fiatAvailable: -500n })).toBe(0n);
    expect(maxBuyQuantity({ ...input, fiatAvailable: GBP('2.01') })).toBe(0n);
    expect(maxBuyQuantity({ ...input, fiatAvailable: GBP('2.02') })).toBe(BTC('0.0001'));
  });

  it('never lets notional + fee exceed the balance, and is the most that fits', () => {
    fc.assert(
      fc.property(
        coinArb,
        fiatArb,
        priceArb,
        percentArb,
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.option(fc.bigInt({ min: 1n, max: 10n ** 22n })),
        (coin, fiat, price, percent, fiatAvailable, amountMax) => {
          const quantity = maxBuyQuantity({
            fiatAvailable,
            price,
            feePercent: percent,
            coin,
            fiat,
            amountMax,
          });
          const step = stepOf(coin);
          const margin = parseAmount(MAX_MARGIN, coin);
          const buy = (units: bigint) =>
            instantQuote({ side: 'buy', coin, fiat, price, feePercent: percent, quantity: units });
          expect(quantity % step).toBe(0n);
          expect(quantity).toBeGreaterThanOrEqual(0n);
          expect(buy(quantity).total).toBeLessThanOrEqual(fiatAvailable);
          if (amountMax !== null)
            expect(quantity).toBeLessThanOrEqual(amountMax - margin > 0n ? amountMax - margin : 0n);
          const more = quantity + step;
          const overCap = amountMax !== null && more > amountMax - margin;
          expect(overCap || buy(more).total > fiatAvailable).toBe(true);
        },
      ),
      PROPERTY_RUNS,
    );
  });
});

describe('maxSellQuantity', () => {
  it('is the coin balance floored to 4 decimals', () => {
    expect(maxSellQuantity({ coinAvailable: BTC('1.23456789'), coin: 'BTC', amountMax: null })).toBe(
      BTC('1.2345'),
    );
    expect(
      maxSellQuantity({
        coinAvailable: parseAmount('2.123456789012345678', 'ETH'),
        coin: 'ETH',
        amountMax: null,
      }),
    ).toBe(parseAmount('2.1234', 'ETH'));
    expect(maxSellQuantity({ coinAvailable: BTC('0.00009999'), coin: 'BTC', amountMax: null })).toBe(0n);
    // XRP is traded in whole units (spec 002 §5).
    expect(
      maxSellQuantity({ coinAvailable: parseAmount('15.123456', 'XRP'), coin: 'XRP', amountMax: null }),
    ).toBe(parseAmount('15', 'XRP'));
    expect(
      instantQuote({
        side: 'buy',
        coin: 'XRP',
        fiat: 'GBP',
        price: '0.5',
        feePercent: '0',
        cost: parseAmount('10.40', 'GBP'),
      }).quantity,
    ).toBe(parseAmount('20', 'XRP'));
    expect(maxSellQuantity({ coinAvailable: 0n, coin: 'BTC', amountMax: BTC('5') })).toBe(0n);
    expect(maxSellQuantity({ coinAvailable: -1n, coin: 'BTC', amountMax: BTC('5') })).toBe(0n);
  });

  it("is capped at the coin's amount_max less the 0.00005 margin", () => {
    expect(maxSellQuantity({ coinAvailable: BTC('7'), coin: 'BTC', amountMax: BTC('5') })).toBe(
      BTC('4.9999'),
    );
    expect(maxSellQuantity({ coinAvailable: BTC('4.99995'), coin: 'BTC', amountMax: BTC('5') })).toBe(
      BTC('4.9999'),
    );
    expect(maxSellQuantity({ coinAvailable: BTC('4.5'), coin: 'BTC', amountMax: BTC('5') })).toBe(BTC('4.5'));
    expect(
      maxSellQuantity({
        coinAvailable: parseAmount('300000', 'XRP'),
        coin: 'XRP',
        amountMax: parseAmount('200000', 'XRP'),
      }),
    ).toBe(parseAmount('199999', 'XRP'));
  });

  it('never exceeds the balance nor the cap', () => {
    fc.assert(
      fc.property(
        coinArb,
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.option(fc.bigInt({ min: 1n, max: 10n ** 24n })),
        (coin, coinAvailable, amountMax) => {
          const quantity = maxSellQuantity({ coinAvailable, coin, amountMax });
          const step = stepOf(coin);
          expect(quantity % step).toBe(0n);
          expect(quantity).toBeLessThanOrEqual(coinAvailable);
          expect(
            coinAvailable - quantity < step ||
              (amountMax !== null && quantity + step > amountMax - parseAmount(MAX_MARGIN, coin)),
          ).toBe(true);
          if (amountMax !== null) expect(quantity).toBeLessThan(amountMax);
        },
      ),
      PROPERTY_RUNS,
    );
  });
});

describe('percentOf', () => {
  it('fills 50 % or 100 % of a maximum, floored to 4 decimals', () => {
    expect(percentOf(BTC('1.2345'), 'BTC', 100)).toBe(BTC('1.2345'));
    expect(percentOf(BTC('1.2345'), 'BTC', 50)).toBe(BTC('0.6172'));
    expect(percentOf(BTC('0.0001'), 'BTC', 50)).toBe(0n);
    expect(percentOf(parseAmount('3', 'XRP'), 'XRP', 50)).toBe(parseAmount('1', 'XRP'));
    expect(percentOf(0n, 'ETH', 50)).toBe(0n);
    expect(() => percentOf(-1n, 'BTC', 50)).toThrow(RangeError);
  });

  it('floors an unfloored maximum too', () => {
    expect(percentOf(BTC('1.23456789'), 'BTC', 100)).toBe(BTC('1.2345'));
  });
});

describe('floorQuantity', () => {
  it('floors to 4 decimals unless told otherwise', () => {
    expect(floorQuantity(BTC('1.23456789'), 'BTC')).toBe(BTC('1.2345'));
    expect(floorQuantity(BTC('1.23456789'), 'BTC', 0)).toBe(BTC('1'));
    expect(floorQuantity(parseAmount('12.345678', 'XRP'), 'XRP', 0)).toBe(parseAmount('12', 'XRP'));
    expect(floorQuantity(BTC('1.23456789'), 'BTC', 8)).toBe(BTC('1.23456789'));
    expect(floorQuantity(BTC('1.23456789'), 'BTC', 12)).toBe(BTC('1.23456789'));
  });
});

describe('priceDecimals', () => {
  it('shows prices with 2 decimals, 5 for xlm', () => {
    expect(priceDecimals('btc')).toBe(2);
    expect(priceDecimals('xrp')).toBe(2);
    expect(priceDecimals('eth')).toBe(2);
    expect(priceDecimals('xlm')).toBe(5);
    expect(priceDecimals('XLM')).toBe(5);
  });
});
