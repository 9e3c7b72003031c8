import { getHistoDay, getHistoHour, getHistoMinute, type CandleRow } from '@florin/contracts';
import { FIAT_CODES } from '@florin/domain';

/**
 * Chart candles. Prices here are JS numbers because the chart library draws
 * numbers; they are display values only and never feed an amount, a quote or
 * a trade (docs/decisions/037-chart-price-strip-and-stream.md).
 */
export type ChartCandle = { time: number; open: number; high: number; low: number; close: number };

/**
 * The spec's resolutions (5, 240, D; default 5). The server stores 1-minute,
 * hour and day candles; 5-minute and 4-hour ones are rolled up here from
 * `perCandle` source rows each.
 */
export const RESOLUTIONS = {
  '5': { label: '5 minutes', endpoint: getHistoMinute, seconds: 5 * 60, perCandle: 5 },
  '240': { label: '4 hours', endpoint: getHistoHour, seconds: 4 * 60 * 60, perCandle: 4 },
  D: { label: '1 day', endpoint: getHistoDay, seconds: 24 * 60 * 60, perCandle: 1 },
} as const;
export type Resolution = keyof typeof RESOLUTIONS;
export const RESOLUTION_KEYS = Object.keys(RESOLUTIONS) as Resolution[];
export const DEFAULT_RESOLUTION: Resolution = '5';

export function isResolution(value: string | null | undefined): value is Resolution {
  return value !== null && value !== undefined && Object.hasOwn(RESOLUTIONS, value);
}

/** Candles on screen per resolution; the source rows asked for stay within the server's cap of 2,000. */
export const CANDLES_SHOWN = 300;

export function sourceRowLimit(resolution: Resolution): number {
  return CANDLES_SHOWN * RESOLUTIONS[resolution].perCandle;
}

/** The start of the candle a moment (unix seconds) falls in; candles align to the epoch, as the server's do (UTC). */
export function candleStart(unixSeconds: number, bucketSeconds: number): number {
  return Math.floor(unixSeconds / bucketSeconds) * bucketSeconds;
}

/**
 * Folds the server's rows (oldest first, gaps allowed) into candles of
 * `bucketSeconds`: the first open, the highest high, the lowest low and the
 * last close of each bucket.
 */
export function rollUpCandles(rows: readonly CandleRow[], bucketSeconds: number): ChartCandle[] {
  const candles: ChartCandle[] = [];
  for (const row of rows) {
    const time = candleStart(row.time, bucketSeconds);
    const open = Number(row.open);
    const high = Number(row.high);
    const low = Number(row.low);
    const close = Number(row.close);
    const last = candles.at(-1);
    if (last?.time === time) {
      last.high = Math.max(last.high, high);
      last.low = Math.min(last.low, low);
      last.close = close;
    } else {
      candles.push({ time, open, high, low, close });
    }
  }
  return candles;
}

/**
 * The last candle after a live price: the same candle widened and closed at
 * the price while the tick falls inside it, otherwise a new candle opening
 * at the price. A tick older than the last candle changes nothing.
 */
export function applyTick(
  last: ChartCandle | undefined,
  price: number,
  unixSeconds: number,
  bucketSeconds: number,
): ChartCandle | undefined {
  const time = candleStart(unixSeconds, bucketSeconds);
  if (last && time < last.time) return undefined;
  if (last?.time === time) {
    return {
      time,
      open: last.open,
      high: Math.max(last.high, price),
      low: Math.min(last.low, price),
      close: price,
    };
  }
  return { time, open: price, high: price, low: price, close: price };
}

/** Spec section 9: price precision 8, 2 for fiat quotes. */
export function pricePrecision(quoteCode: string): number {
  return (FIAT_CODES as readonly string[]).includes(quoteCode) ? 2 : 8;
}

export function formatChartPrice(price: number, quoteCode: string): string {
  const digits = pricePrecision(quoteCode);
  return price.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
