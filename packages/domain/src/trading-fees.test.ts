import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmountFormatError, parseAmount, parseRatio } from './money.js';
import {
  checkFeeColumn,
  DEFAULT_FEE_SCHEDULE,
  SPREAD_MULTIPLIER_DECIMALS,
  TIER_VOLUME_BOUNDS,
  feePercent,
  notional,
  spreadMultiplier,
  tierForVolume,
  tradeFee,
  type FeeTier,
  type TradingPlatform,
} from './trading.js';
import { PROPERTY_RUNS, BTC, GBP, percentArb } from './trading.test-kit.js';

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
