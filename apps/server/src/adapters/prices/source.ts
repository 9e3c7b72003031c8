/**
 * A price source: where mid prices come from. The embedded default is the
 * simulated market; a real one reads an exchange's public ticker. Prices are
 * decimal strings, never JS numbers.
 */
export type Tick = {
  /** Coin asset code, upper case (BTC). */
  base: string;
  /** Fiat asset code (GBP, EUR, USD). */
  quote: string;
  /** The mid price in the fiat, a decimal string. */
  mid: string;
  at: Date;
  /**
   * The feeds disagree on this price by more than the allowed band: it is
   * shown, never quoted (failover.ts).
   */
  disputed?: boolean;
};

/** How one feed is, for staff: when it last said anything, and whether its prices are used. */
export type FeedState = { name: string; lastMessageAt: Date | undefined; state: 'live' | 'stale' };

export type PriceSource = {
  readonly name: string;
  /** Starts delivering batches of ticks (at most one per pair per batch). */
  start(onTicks: (ticks: Tick[]) => void): void;
  stop(): void;
  /**
   * The mids (by symbol, BTC/GBP) another instance was producing when this
   * one took over, so an invented price carries on rather than jumps. A real
   * feed has its own prices and ignores them.
   */
  continueFrom?(lastPrices: ReadonlyMap<string, string>): void;
  /** When the source last heard its exchange (any frame, heartbeats too); a simulation has none. */
  lastMessageAt?(): Date | undefined;
  /** Each feed behind the source and its state (failover.ts). */
  feeds?(): FeedState[];
};

/** A coin/fiat pair the source should price. */
export type PricePair = { base: string; quote: string };

/** Timers a source uses, injectable so tests drive time by hand. */
export type Timers = {
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

export const systemTimers: Timers = {
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A source that never ticks: what a server built without a configured market (tests) gets. */
export function createIdleSource(): PriceSource {
  return { name: 'idle', start: () => undefined, stop: () => undefined };
}
