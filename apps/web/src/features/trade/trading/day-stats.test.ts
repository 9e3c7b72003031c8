import { describe, expect, it } from 'vitest';
import { computeDayStats } from './day-stats';

const HOUR = 3_600;
const T0 = 1_795_003_200;

function row(index: number, open: string, high: string, low: string, close: string) {
  return { time: T0 + index * HOUR, open, high, low, close };
}

describe('computeDayStats', () => {
  it('takes the previous close from the hour before the window, high and low from the window', () => {
    const rows = [
      // 24 hours ago: only its close counts (its high must not).
      row(0, '19000.00', '25000.00', '18000.00', '20000.00'),
      row(1, '20000.00', '20500.00', '19800.00', '20400.00'),
      row(2, '20400.00', '21000.00', '20300.00', '20900.00'),
      row(3, '20900.00', '20950.00', '19500.00', '21000.00'),
    ];
    expect(computeDayStats(rows)).toEqual({
      previousClose: 20000,
      high: 21000,
      low: 19500,
      last: 21000,
      change: 1000,
      changePercent: 5,
    });
  });

  it('moves the last price, change and range with the live price', () => {
    const rows = [row(0, '100', '100', '100', '100'), row(1, '100', '110', '95', '105')];
    const stats = computeDayStats(rows, 90);
    expect(stats).toMatchObject({ previousClose: 100, high: 110, low: 90, last: 90, change: -10 });
    expect(stats?.changePercent).toBeCloseTo(-10, 10);
  });

  it('uses the open of a lone candle as the previous close, and says nothing without candles', () => {
    expect(computeDayStats([row(0, '50', '60', '40', '55')])).toMatchObject({
      previousClose: 50,
      high: 60,
      low: 40,
      last: 55,
      change: 5,
      changePercent: 10,
    });
    expect(computeDayStats([])).toBeNull();
    expect(computeDayStats([row(0, '0', '0', '0', '0')])?.changePercent).toBeNull();
  });
});
