import { describe, expect, it } from 'vitest';
import {
  applyTick,
  formatChartPrice,
  isResolution,
  pricePrecision,
  rollUpCandles,
  sourceRowLimit,
  RESOLUTIONS,
} from './candles';

const T0 = 1_795_000_200; // a 5-minute boundary (divisible by 300)

function row(time: number, open: string, high: string, low: string, close: string) {
  return { time, open, high, low, close };
}

describe('rollUpCandles', () => {
  it('folds minute rows into 5-minute candles: first open, highest high, lowest low, last close', () => {
    const rows = [
      row(T0, '100.00', '105.00', '99.00', '104.00'),
      row(T0 + 60, '104.00', '110.00', '103.00', '108.00'),
      // a quiet minute has no row
      row(T0 + 240, '108.00', '109.00', '95.50', '97.25'),
      row(T0 + 300, '97.25', '98.00', '97.00', '97.50'),
    ];
    expect(rollUpCandles(rows, RESOLUTIONS['5'].seconds)).toEqual([
      { time: T0, open: 100, high: 110, low: 95.5, close: 97.25 },
      { time: T0 + 300, open: 97.25, high: 98, low: 97, close: 97.5 },
    ]);
  });

  it('folds hour rows into 4-hour candles aligned to midnight UTC', () => {
    const midnight = 1_795_046_400; // 2026-11-19T00:00:00Z
    const rows = [
      row(midnight + 2 * 3600, '1.0', '2.0', '0.5', '1.5'),
      row(midnight + 3 * 3600, '1.5', '3.0', '1.0', '2.5'),
      row(midnight + 4 * 3600, '2.5', '2.6', '2.4', '2.45'),
    ];
    expect(rollUpCandles(rows, RESOLUTIONS['240'].seconds)).toEqual([
      { time: midnight, open: 1, high: 3, low: 0.5, close: 2.5 },
      { time: midnight + 4 * 3600, open: 2.5, high: 2.6, low: 2.4, close: 2.45 },
    ]);
  });

  it('keeps day rows as they are', () => {
    const rows = [row(1_795_046_400, '10', '12', '9', '11')];
    expect(rollUpCandles(rows, RESOLUTIONS.D.seconds)).toEqual([
      { time: 1_795_046_400, open: 10, high: 12, low: 9, close: 11 },
    ]);
  });
});

describe('applyTick', () => {
  const last = { time: T0, open: 100, high: 105, low: 99, close: 104 };

  it('moves the last candle while the tick falls inside it', () => {
    expect(applyTick(last, 106.5, T0 + 299, 300)).toEqual({
      time: T0,
      open: 100,
      high: 106.5,
      low: 99,
      close: 106.5,
    });
    expect(applyTick(last, 98, T0 + 10, 300)).toEqual({ time: T0, open: 100, high: 105, low: 98, close: 98 });
  });

  it('opens a new candle at the tick once its bucket has passed', () => {
    expect(applyTick(last, 101, T0 + 300, 300)).toEqual({
      time: T0 + 300,
      open: 101,
      high: 101,
      low: 101,
      close: 101,
    });
  });

  it('ignores a tick older than the last candle', () => {
    expect(applyTick(last, 50, T0 - 1, 300)).toBeUndefined();
  });

  it('starts the first candle when there is no history', () => {
    expect(applyTick(undefined, 7, T0 + 5, 300)).toEqual({ time: T0, open: 7, high: 7, low: 7, close: 7 });
  });
});

describe('resolutions and precision', () => {
  it('asks the server for no more rows than its cap of 2,000', () => {
    expect(sourceRowLimit('5')).toBe(1500);
    expect(sourceRowLimit('240')).toBe(1200);
    expect(sourceRowLimit('D')).toBe(300);
  });

  it('knows only the spec resolutions 5, 240 and D', () => {
    expect(['5', '240', 'D', '60', null].map((value) => isResolution(value))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('shows fiat quotes with 2 decimals and anything else with 8', () => {
    expect(pricePrecision('GBP')).toBe(2);
    expect(pricePrecision('BTC')).toBe(8);
    expect(formatChartPrice(65432.1, 'GBP')).toBe('65,432.10');
    expect(formatChartPrice(0.0000123, 'BTC')).toBe('0.00001230');
  });
});
