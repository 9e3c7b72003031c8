import type { CandleResolution } from '@florin/contracts';
import { PriceDecimal, formatPrice } from '../../adapters/prices/decimal.js';
import { createSeededRandom, randomFactor, simulatedStartPrice } from '../../adapters/prices/simulated.js';
import type { PricePair } from '../../adapters/prices/source.js';
import type { CandleRecord, MarketRepository } from './repository.js';

/** How much simulated past a fresh install gets, and how far a price moves per period (millionths). */
const BACKFILL: Record<CandleResolution, { periods: number; periodMs: number; stepPpm: number }> = {
  minute: { periods: 2 * 24 * 60, periodMs: 60_000, stepPpm: 1_000 },
  hour: { periods: 30 * 24, periodMs: 3_600_000, stepPpm: 6_000 },
  day: { periods: 365, periodMs: 86_400_000, stepPpm: 30_000 },
};
const INSERT_CHUNK = 5000;

/**
 * The simulated past for every pair and resolution, walked backwards from the
 * simulated market's starting prices so the live ticks carry on where the
 * history ends. The same seed and clock give the same candles.
 */
export function simulateHistory(options: {
  pairs: readonly PricePair[];
  now: Date;
  seed: string;
}): CandleRecord[] {
  const random = createSeededRandom(`history:${options.seed}`);
  const candles: CandleRecord[] = [];
  for (const pair of options.pairs) {
    const symbol = `${pair.base}/${pair.quote}`;
    for (const [resolution, plan] of Object.entries(BACKFILL) as [
      CandleResolution,
      (typeof BACKFILL)['minute'],
    ][]) {
      // Period starts are UTC-aligned, as the live fold (date_trunc … 'UTC') makes them.
      const currentStart = Math.floor(options.now.getTime() / plan.periodMs) * plan.periodMs;
      let close = simulatedStartPrice(pair.base, pair.quote);
      const series: CandleRecord[] = [];
      for (let index = 1; index <= plan.periods; index += 1) {
        const open = close.times(randomFactor(random, plan.stepPpm));
        const wick = Math.ceil(plan.stepPpm / 2);
        const high = PriceDecimal.max(open, close).times(PriceDecimal.max(randomFactor(random, wick), 1));
        const low = PriceDecimal.min(open, close).times(PriceDecimal.min(randomFactor(random, wick), 1));
        series.push({
          symbol,
          resolution,
          start_at: new Date(currentStart - index * plan.periodMs),
          open: formatPrice(open),
          close: formatPrice(close),
          high: formatPrice(high),
          low: formatPrice(low),
        });
        close = open;
      }
      candles.push(...series.reverse());
    }
  }
  return candles;
}

/** On the first start (no candle at all) writes the simulated past; returns whether it did. */
export async function backfillHistory(
  repository: MarketRepository,
  options: { pairs: readonly PricePair[]; now: Date; seed: string },
): Promise<boolean> {
  if (await repository.hasAnyCandle()) return false;
  const candles = simulateHistory(options);
  for (let offset = 0; offset < candles.length; offset += INSERT_CHUNK) {
    await repository.insertCandles(candles.slice(offset, offset + INSERT_CHUNK));
  }
  return true;
}
