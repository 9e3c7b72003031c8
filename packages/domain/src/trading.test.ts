import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAmount } from './money.js';
import {
  INSTANT_QUANTITY_DECIMALS,
  MAX_MARGIN,
  TRADE_DECIMALS,
  floorQuantity,
  instantQuote,
  maxBuyQuantity,
  maxSellQuantity,
  percentOf,
  priceDecimals,
} from './trading.js';
import {
  PROPERTY_RUNS,
  BTC,
  GBP,
  stepOf,
  coinArb,
  fiatArb,
  priceArb,
  percentArb,
} from './trading.test-kit.js';

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
