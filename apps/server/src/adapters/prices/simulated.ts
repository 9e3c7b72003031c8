import { PriceDecimal, formatPrice } from './decimal.js';
import { systemTimers, type PricePair, type PriceSource, type Tick, type Timers } from './source.js';

/** Roughly where each coin traded in GBP when the market was written; unknown coins start at 1. */
const START_PRICES_GBP: Record<string, string> = {
  BTC: '72000',
  ETH: '2600',
  LTC: '70',
  BCH: '350',
  XRP: '0.45',
};
/** One pound in each fiat at the start. */
const START_FX_FROM_GBP: Record<string, string> = { GBP: '1', EUR: '1.17', USD: '1.27' };

/** A coin moves at most ±0.1 % a tick; a fiat rate ±0.005 %. In millionths. */
const COIN_STEP_PPM = 1000;
const FX_STEP_PPM = 50;
const TICK_MS = 1000;

export type SeededRandom = {
  /** A whole number from -bound to bound inclusive. */
  nextInt(bound: number): number;
};

/** mulberry32 over an FNV-1a hash of the seed: small, fast and the same on every machine. */
export function createSeededRandom(seed: string): SeededRandom {
  let state = 0x811c9dc5;
  for (let index = 0; index < seed.length; index += 1) {
    state = Math.imul(state ^ seed.charCodeAt(index), 0x01000193) >>> 0;
  }
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return { nextInt: (bound) => Math.floor(next() * (2 * bound + 1)) - bound };
}

/** A multiplier 1 ± a random step in millionths, exact in decimal. */
export function randomFactor(random: SeededRandom, stepPpm: number): PriceDecimal {
  return new PriceDecimal(random.nextInt(stepPpm)).div(1_000_000).plus(1);
}

export function simulatedStartPrice(base: string, quote: string): PriceDecimal {
  return new PriceDecimal(START_PRICES_GBP[base] ?? '1').times(START_FX_FROM_GBP[quote] ?? '1');
}

export type SimulatedMarket = PriceSource & {
  /** Moves every price one step and delivers the batch (what the timer calls each second). */
  step(): Tick[];
};

/**
 * The embedded market: each coin walks randomly against GBP and each fiat
 * rate walks a little, so BTC/EUR is BTC/GBP times GBP→EUR. The same seed gives
 * the same prices, tick for tick.
 */
export function createSimulatedMarket(options: {
  pairs: readonly PricePair[];
  seed: string;
  now?: () => Date;
  timers?: Timers;
  intervalMs?: number;
  /** Last known mids by symbol (BTC/GBP), so a restart carries on where the stored history ends. */
  lastPrices?: ReadonlyMap<string, string>;
}): SimulatedMarket {
  const now = options.now ?? (() => new Date());
  const timers = options.timers ?? systemTimers;
  const random = createSeededRandom(options.seed);
  const coins = [...new Set(options.pairs.map((pair) => pair.base))].sort();
  const fiats = [...new Set(options.pairs.map((pair) => pair.quote))].sort();
  const gbpPrices = new Map(coins.map((coin) => [coin, simulatedStartPrice(coin, 'GBP')]));
  const fxRates = new Map(fiats.map((fiat) => [fiat, new PriceDecimal(START_FX_FROM_GBP[fiat] ?? '1')]));
  /** Carries on from known mids; a coin or fiat they do not price keeps its current value. */
  const carryOn = (lastPrices: ReadonlyMap<string, string>): void => {
    const last = (symbol: string) => {
      const price = lastPrices.get(symbol);
      return price === undefined ? undefined : new PriceDecimal(price);
    };
    for (const coin of coins) {
      const price = last(`${coin}/GBP`);
      if (price) gbpPrices.set(coin, price);
    }
    for (const fiat of fiats) {
      // The rate implied by the first coin quoted in both fiats.
      const anchor = coins.find((coin) => last(`${coin}/${fiat}`) && last(`${coin}/GBP`));
      if (anchor) fxRates.set(fiat, last(`${anchor}/${fiat}`)!.div(last(`${anchor}/GBP`)!));
    }
  };
  if (options.lastPrices) carryOn(options.lastPrices);
  let listener: ((ticks: Tick[]) => void) | undefined;
  let timer: unknown;

  const step = (): Tick[] => {
    // Always in sorted order, so the random draws land on the same prices for the same seed.
    for (const coin of coins) {
      gbpPrices.set(coin, gbpPrices.get(coin)!.times(randomFactor(random, COIN_STEP_PPM)));
    }
    for (const fiat of fiats) {
      if (fiat !== 'GBP') fxRates.set(fiat, fxRates.get(fiat)!.times(randomFactor(random, FX_STEP_PPM)));
    }
    const at = now();
    const ticks = options.pairs.map((pair) => ({
      base: pair.base,
      quote: pair.quote,
      mid: formatPrice(gbpPrices.get(pair.base)!.times(fxRates.get(pair.quote)!)),
      at,
    }));
    listener?.(ticks);
    return ticks;
  };

  return {
    name: 'simulated',
    step,
    start(onTicks) {
      listener = onTicks;
      timer = timers.setInterval(step, options.intervalMs ?? TICK_MS);
    },
    stop() {
      listener = undefined;
      if (timer !== undefined) timers.clearInterval(timer);
      timer = undefined;
    },
    continueFrom: carryOn,
  };
}
