import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AmountFormatError,
  compareDecimals,
  divCeil,
  divFloor,
  formatAmount,
  fromMinorUnits,
  mulRatioCeil,
  mulRatioFloor,
  parseAmount,
  parseRatio,
  toMinorUnits,
} from './money.js';

describe('amount conversion', () => {
  it('reads decimal strings into minor units at the asset scale', () => {
    expect(parseAmount('12.5', 'GBP')).toBe(1250n);
    expect(parseAmount('0.005', 'BTC')).toBe(500_000n);
    expect(parseAmount('9.223372036854775808', 'ETH')).toBe(9_223_372_036_854_775_808n);
    expect(parseAmount('7', 'XRP')).toBe(7_000_000n);
  });

  it('writes minor units with exactly the asset scale', () => {
    expect(formatAmount(500_000n, 'BTC')).toBe('0.00500000');
    expect(formatAmount(5n, 'GBP')).toBe('0.05');
    expect(formatAmount(-1250n, 'GBP')).toBe('-12.50');
    expect(fromMinorUnits(42n, 0)).toBe('42');
  });

  it('refuses more decimals than the asset has, and anything that is not a plain decimal', () => {
    expect(() => parseAmount('0.001', 'GBP')).toThrow(AmountFormatError);
    expect(() => parseAmount('0.000000001', 'BTC')).toThrow(AmountFormatError);
    for (const bad of ['', '.', '1.', '.5', '1e3', ' 1', '1,000', 'NaN', '0x10', '+1']) {
      expect(() => toMinorUnits(bad, 2), bad).toThrow(AmountFormatError);
    }
  });

  it('round-trips every amount exactly, far beyond what a JS number can hold', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 39n), max: 10n ** 39n }),
        fc.integer({ min: 0, max: 18 }),
        (units, scale) => {
          expect(toMinorUnits(fromMinorUnits(units, scale), scale)).toBe(units);
        },
      ),
    );
  });
});

describe('comparing decimal strings', () => {
  it('is exact where a JS number is not', () => {
    expect(compareDecimals('1.0000000000000000002', '1.0000000000000000001')).toBe(1);
    expect(Number('1.0000000000000000002') > Number('1.0000000000000000001')).toBe(false);
    expect(compareDecimals('0.5', '0.50')).toBe(0);
    expect(compareDecimals('2', '10')).toBe(-1);
  });
});

describe('rounding in the house’s favour', () => {
  it('floors and ceils like mathematics for both signs', () => {
    expect(divFloor(7n, 2n)).toBe(3n);
    expect(divFloor(-7n, 2n)).toBe(-4n);
    expect(divCeil(7n, 2n)).toBe(4n);
    expect(divCeil(-7n, 2n)).toBe(-3n);
    expect(divCeil(6n, 2n)).toBe(3n);
  });

  it('makes the customer pay the ceiling and receive the floor, never more than one unit apart', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 10 }),
        (qty, priceUnits, places) => {
          const ratio = parseRatio(fromMinorUnits(priceUnits, places));
          const pays = mulRatioCeil(qty, ratio);
          const receives = mulRatioFloor(qty, ratio);
          const exact = qty * ratio.numerator;
          expect(pays * ratio.denominator >= exact).toBe(true);
          expect(receives * ratio.denominator <= exact).toBe(true);
          expect(pays - receives <= 1n).toBe(true);
        },
      ),
    );
  });
});
