import type {
  CandleQuery,
  CandleResolution,
  CandleRow,
  PriceFeed,
  PriceUpdate,
  PublicCoins,
} from '@florin/contracts';
import { PRICE_DECIMALS } from '../../adapters/prices/decimal.js';
import {
  systemTimers,
  type FeedState,
  type PriceSource,
  type Tick,
  type Timers,
} from '../../adapters/prices/source.js';
import { createMarketCharts } from './charts.js';
import { createKnownPairs } from './known-pairs.js';
import { createPriceBook, type QuoteOptions } from './price-book.js';
import type { MarketRepository } from './repository.js';

export type { QuoteOptions } from './price-book.js';

export type MarketFeed = {
  /** Every processed update (one per symbol per tick); returns unsubscribe. */
  subscribe(listener: (updates: PriceUpdate[]) => void): () => void;
  /** The latest update of each symbol (for a new subscriber's first message). */
  latest(symbol?: string): PriceUpdate[];
};

/** Without a tick for this long a price is stale: shown, never quoted. */
export const STALE_AFTER_MS = 10_000;

export type MarketService = MarketFeed & {
  /** Starts the staleness watch, and the source while this instance leads. */
  start(): void;
  stop(): Promise<void>;
  /**
   * Whether this instance produces the ticks (the relay's leader; always, on
   * one process). A follower's source is off: its prices come through
   * follow() and the leader alone writes candles. Taking over, the source
   * carries on from the last prices heard.
   */
  setLeading(leading: boolean): void;
  /** Prices the leader produced, relayed here: quoted like our own, never folded into candles. */
  follow(updates: readonly PriceUpdate[]): Promise<void>;
  /**
   * Moves a pair's mid to `mid` now, as a tick (and the simulated market
   * walks on from it): how tests and the dev route drive the market through
   * a limit price. A real feed's next tick overrides it.
   */
  drive(symbol: string, mid: string): Promise<void>;
  /** Takes one batch from the source: updates the latest prices, tells subscribers, folds into candles. */
  ingest(ticks: readonly Tick[]): Promise<void>;
  /** Marks prices without a recent tick stale and tells subscribers (the watch calls it every second). */
  checkStaleness(): void;
  /**
   * Reads the coins again now and quotes the prices held with their new
   * spreads: the back office calls it after an edit, so the next quote on this
   * instance uses it (other instances within COINS_CACHE_MS).
   */
  refreshCoins(): Promise<void>;
  /** The live bid and ask of a symbol; PRICES_STALE when there is no fresh price. */
  quote(symbol: string, options?: QuoteOptions): PriceUpdate;
  /**
   * What one unit of an asset is worth in GBP now, for valuations (never for
   * trading): a coin at its GBP bid, another fiat at the rate its coins'
   * mids imply. Null without a fresh price.
   */
  gbpRate(asset: string): string | null;
  /**
   * Each exchange feed behind the source and how it is, for staff; `off` on an instance that does not
   * lead (its source is stopped). Empty for the simulated market.
   */
  priceFeeds(): (Omit<FeedState, 'state'> & { state: FeedState['state'] | 'off' })[];
  listCandles(resolution: CandleResolution, query: CandleQuery): Promise<CandleRow[]>;
  getPriceFeed(): Promise<PriceFeed>;
  listPublicCoins(): Promise<PublicCoins>;
};

/**
 * The market: the price book (price-book.ts) fed by the source or the leader, the listed pairs
 * (known-pairs.ts), and the charts and feeds read from the candles (charts.ts), as one service.
 */
export function createMarketService(options: {
  repository: MarketRepository;
  source: PriceSource;
  now?: () => Date;
  timers?: Timers;
  staleAfterMs?: number;
  onError?: (error: unknown) => void;
}): MarketService {
  const { repository, source } = options;
  const now = options.now ?? (() => new Date());
  const timers = options.timers ?? systemTimers;
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  const onError = options.onError ?? (() => undefined);
  const book = createPriceBook({ now, staleAfterMs });
  const { prices, isStale, toUpdate, remember } = book;
  const pairs = createKnownPairs({ repository, now });
  const listeners = new Set<(updates: PriceUpdate[]) => void>();
  let staleWatch: unknown;
  let started = false;
  let leading = true;
  let sourceRunning = false;
  // Candle writes run one after another, so a slow write never reorders two batches.
  let writing: Promise<void> = Promise.resolve();

  const startSource = (): void => {
    if (sourceRunning) return;
    sourceRunning = true;
    source.continueFrom?.(new Map([...prices.values()].map((state) => [state.symbol, state.mid.toFixed()])));
    source.start((ticks) => {
      service.ingest(ticks).catch(onError);
    });
  };
  const stopSource = (): void => {
    if (!sourceRunning) return;
    sourceRunning = false;
    source.stop();
  };

  const publish = (updates: PriceUpdate[]): void => {
    if (updates.length === 0) return;
    for (const listener of listeners) {
      try {
        listener(updates);
      } catch (error) {
        onError(error);
      }
    }
  };

  const service: MarketService = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    latest: book.latest,

    start() {
      started = true;
      if (leading) startSource();
      staleWatch = timers.setInterval(() => service.checkStaleness(), 1000);
    },

    async stop() {
      started = false;
      stopSource();
      if (staleWatch !== undefined) timers.clearInterval(staleWatch);
      staleWatch = undefined;
      await writing;
    },

    async ingest(ticks) {
      const { coins, fiats } = await pairs.cached();
      const updates: PriceUpdate[] = [];
      const rows: { symbol: string; at: Date; price: string }[] = [];
      for (const tick of ticks) {
        const coin = coins.get(tick.base);
        if (!coin || !fiats.has(tick.quote)) continue;
        const symbol = `${tick.base}/${tick.quote}`;
        const state = remember(symbol, tick.mid, tick.at, coin, tick.disputed);
        if (!state) continue;
        updates.push(toUpdate(state));
        // A disputed price may be a broken feed's: the chart keeps only prices the feeds agree on.
        if (!state.disputed) rows.push({ symbol, at: tick.at, price: state.mid.toFixed(PRICE_DECIMALS) });
      }
      publish(updates);
      writing = writing.then(() => repository.foldTicks(rows)).catch(onError);
      await writing;
    },

    async drive(symbol, mid) {
      const [base = '', quote = ''] = symbol.split('/');
      source.continueFrom?.(new Map([[symbol, mid]]));
      await service.ingest([{ base, quote, mid, at: now() }]);
    },

    setLeading(value) {
      leading = value;
      if (!started) return;
      if (leading) startSource();
      else stopSource();
    },

    async follow(updates) {
      const { coins } = await pairs.cached();
      for (const update of updates) {
        const coin = coins.get(update.symbol.split('/')[0] ?? '');
        // The bid and ask are worked out here from the same spreads (and a customer's multiplier). A fresh
        // price the leader sent stale is disputed there: it stays unquoted here too.
        if (coin) remember(update.symbol, update.mid, new Date(update.at), coin, update.stale);
      }
    },

    async refreshCoins() {
      const { coins } = await pairs.reload();
      for (const state of prices.values()) {
        const coin = coins.get(state.symbol.split('/')[0] ?? '');
        if (!coin) continue;
        state.askSpread = coin.ask_spread;
        state.bidSpread = coin.bid_spread;
      }
    },

    checkStaleness() {
      const updates: PriceUpdate[] = [];
      for (const state of prices.values()) {
        if (state.announcedStale || !isStale(state)) continue;
        state.announcedStale = true;
        updates.push(toUpdate(state));
      }
      publish(updates);
    },

    quote: book.quote,
    gbpRate: book.gbpRate,

    priceFeeds() {
      const feeds = source.feeds?.() ?? [];
      return sourceRunning ? feeds : feeds.map((feed) => ({ ...feed, state: 'off' as const }));
    },

    ...createMarketCharts({ repository, book, loadPairs: pairs.load, now }),
  };
  return service;
}
