import type { CandleRow } from '@florin/contracts';

/**
 * The trading screen's 24-hour statistics (spec 002 section 2.4), from real
 * hourly candles rather than the earlier layout's placeholders. Display
 * values only, as JS numbers like the chart's (chart prices in
 * docs/decisions/037-chart-price-strip-and-stream.md): nothing here feeds
 * an amount, a quote or a trade.
 */

/** One more than a day of hours: the first row's close is the price 24 hours ago. */
export const DAY_STATS_HOURS = 25;

export type DayStats = {
  /** The close of the hour that ended 24 hours ago (the open of the oldest hour when that is all there is). */
  previousClose: number;
  high: number;
  low: number;
  /** The newest price: the live mid when one arrived, else the last candle's close. */
  last: number;
  change: number;
  /** null when the previous close is zero. */
  changePercent: number | null;
};

/**
 * Statistics over the last 24 hourly candles (oldest first, as the server
 * answers), widened by the live price; null without a single candle.
 */
export function computeDayStats(rows: readonly CandleRow[], livePrice?: number): DayStats | null {
  const first = rows[0];
  if (!first) return null;
  const hasBaseline = rows.length > 1;
  const window = hasBaseline ? rows.slice(1) : rows;
  const previousClose = Number(hasBaseline ? first.close : first.open);
  const live = livePrice !== undefined && Number.isFinite(livePrice) ? livePrice : undefined;
  const last = live ?? Number(window.at(-1)?.close ?? first.close);
  let high = Math.max(...window.map((row) => Number(row.high)));
  let low = Math.min(...window.map((row) => Number(row.low)));
  if (live !== undefined) {
    high = Math.max(high, live);
    low = Math.min(low, live);
  }
  const change = last - previousClose;
  return {
    previousClose,
    high,
    low,
    last,
    change,
    changePercent: previousClose === 0 ? null : (change / previousClose) * 100,
  };
}
