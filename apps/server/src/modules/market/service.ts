import {
  AppError,
  type CandleQuery,
  type CandleResolution,
  type CandleRow,
  type PriceFeed,
  type PriceUpdate,
  type PublicCoins,
} from '@florin/contracts';
import { fromMinorUnits } from '@florin/domain';
import { PriceDecimal, PRICE_DECIMALS } from '../../adapters/prices/decimal.js';
import { systemTimers, type PriceSource, type Tick, type Timers } from '../../adapters/prices/source.js';
import type { CoinRow, MarketRepository } from './repository.js';

export type MarketFeed = {
  /** Every processed update (one per symbol per tick); returns unsubscribe. */
  subscribe(listener: (updates: PriceUpdate[]) => void): () => void;
  /** The latest update of each symbol (for a new subscriber's first message). */
  latest(symbol?: string): PriceUpdate[];
};

/** Without a tick for this long a price is stale: shown, never quoted. */
export const STALE_AFTER_MS = 10_000;
/** How far ahead of the server's clock a client's toTs may be (clocks drift), before it is refused. */
const TO_TS_LEEWAY_SECONDS = 300;
const PRICE_FEED_HOURS = 24;
const COINS_CACHE_MS = 5000;

type PriceState = {
  symbol: string;
  mid: PriceDecimal;
  at: Date;
  askSpread: string;
  bidSpread: string;
  /** The stale update went out already, so subscribers hear it once. */
  announcedStale: boolean;
};

export type QuoteOptions = {
  /**
   * The customer's fee divided by the Tier 1 fee of their schedule
   * (DECISIONS.md): spreads are multiplied by it. Unset: 1.
   */
  spreadMultiplier?: string;
};

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
  listCandles(resolution: CandleResolution, query: CandleQuery): Promise<CandleRow[]>;
  getPriceFeed(): Promise<PriceFeed>;
  listPublicCoins(): Promise<PublicCoins>;
};

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
  const prices = new Map<string, PriceState>();
  const listeners = new Set<(updates: PriceUpdate[]) => void>();
  let staleWatch: unknown;
  let started = false;
  let leading = true;
  let sourceRunning = false;
  // Candle writes run one after another, so a slow write never reorders two batches.
  let writing: Promise<void> = Promise.resolve();

  const isStale = (state: PriceState): boolean => now().getTime() - state.at.getTime() > staleAfterMs;

  const toUpdate = (state: PriceState, multiplier = '1'): PriceUpdate => {
    const factor = new PriceDecimal(multiplier).div(100);
    // Rounded in the house's favour: the customer buys at the higher price and sells at the lower.
    const ask = state.mid.times(factor.times(state.askSpread).plus(1));
    const bid = state.mid.times(new PriceDecimal(1).minus(factor.times(state.bidSpread)));
    return {
      symbol: state.symbol,
      mid: state.mid.toFixed(PRICE_DECIMALS),
      bid: bid.toFixed(PRICE_DECIMALS, PriceDecimal.ROUND_DOWN),
      ask: ask.toFixed(PRICE_DECIMALS, PriceDecimal.ROUND_UP),
      at: state.at.toISOString(),
      stale: isStale(state),
    };
  };

  /** Holds a new price unless it is older than the one held (a late frame would move the price back). */
  const remember = (symbol: string, mid: string, at: Date, coin: CoinRow): PriceState | undefined => {
    const previous = prices.get(symbol);
    if (previous && at < previous.at) return undefined;
    const state: PriceState = {
      symbol,
      mid: new PriceDecimal(mid),
      at,
      askSpread: coin.ask_spread,
      bidSpread: coin.bid_spread,
      announcedStale: false,
    };
    prices.set(symbol, state);
    return state;
  };

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

  type KnownPairs = { coins: Map<string, CoinRow>; fiats: Set<string> };
  let cachedPairs: { value: KnownPairs; loadedAt: number } | undefined;
  const loadPairs = async (): Promise<KnownPairs> => {
    const [coins, fiats] = await Promise.all([repository.listActiveCoins(), repository.listActiveFiats()]);
    return { coins: new Map(coins.map((coin) => [coin.asset, coin])), fiats: new Set(fiats) };
  };
  // Read a few seconds at most, so a tick never waits on the database and a spread edited in
  // the back office still applies within seconds.
  const knownPairs = async (): Promise<KnownPairs> => {
    const at = now().getTime();
    if (!cachedPairs || at - cachedPairs.loadedAt >= COINS_CACHE_MS || at < cachedPairs.loadedAt) {
      cachedPairs = { value: await loadPairs(), loadedAt: at };
    }
    return cachedPairs.value;
  };

  const resolveSymbol = async (query: CandleQuery): Promise<string> => {
    const [fromSymbol, toSymbol] = query.symbol?.split('/') ?? [];
    const base = query.fsym ?? fromSymbol ?? '';
    const quote = query.tsym ?? toSymbol ?? 'GBP';
    const { coins, fiats } = await loadPairs();
    const errors: Record<string, string[]> = {};
    if (!coins.has(base)) errors[query.fsym ? 'fsym' : 'symbol'] = [`${base} is not a listed coin.`];
    if (!fiats.has(quote)) errors[query.tsym ? 'tsym' : 'symbol'] = [`${quote} is not a listed currency.`];
    if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', undefined, errors);
    return `${base}/${quote}`;
  };

  const service: MarketService = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    latest(symbol) {
      const states = symbol === undefined ? [...prices.values()] : [prices.get(symbol)].filter((s) => !!s);
      return states.map((state) => toUpdate(state));
    },

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
      const { coins, fiats } = await knownPairs();
      const updates: PriceUpdate[] = [];
      const rows: { symbol: string; at: Date; price: string }[] = [];
      for (const tick of ticks) {
        const coin = coins.get(tick.base);
        if (!coin || !fiats.has(tick.quote)) continue;
        const symbol = `${tick.base}/${tick.quote}`;
        const state = remember(symbol, tick.mid, tick.at, coin);
        if (!state) continue;
        updates.push(toUpdate(state));
        rows.push({ symbol, at: tick.at, price: state.mid.toFixed(PRICE_DECIMALS) });
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
      const { coins } = await knownPairs();
      for (const update of updates) {
        const coin = coins.get(update.symbol.split('/')[0] ?? '');
        // The bid and ask are worked out here from the same spreads (and a customer's multiplier).
        if (coin) remember(update.symbol, update.mid, new Date(update.at), coin);
      }
    },

    async refreshCoins() {
      cachedPairs = { value: await loadPairs(), loadedAt: now().getTime() };
      for (const state of prices.values()) {
        const coin = cachedPairs.value.coins.get(state.symbol.split('/')[0] ?? '');
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

    quote(symbol, quoteOptions = {}) {
      const state = prices.get(symbol);
      if (!state || isStale(state)) throw new AppError('PRICES_STALE');
      return toUpdate(state, quoteOptions.spreadMultiplier);
    },

    gbpRate(asset) {
      if (asset === 'GBP') return '1';
      const fresh = (symbol: string) => {
        const state = prices.get(symbol);
        return state && !isStale(state) ? state : undefined;
      };
      const inGbp = fresh(`${asset}/GBP`);
      if (inGbp) return toUpdate(inGbp).bid;
      // A fiat: any coin priced in both gives the cross rate.
      for (const state of prices.values()) {
        if (!state.symbol.endsWith('/GBP')) continue;
        const coin = state.symbol.slice(0, -'/GBP'.length);
        const inFiat = fresh(`${coin}/${asset}`);
        if (inFiat && !isStale(state)) return state.mid.div(inFiat.mid).toFixed(PRICE_DECIMALS);
      }
      return null;
    },

    async listCandles(resolution, query) {
      const symbol = await resolveSymbol(query);
      const nowSeconds = Math.floor(now().getTime() / 1000);
      if (query.toTs !== undefined && query.toTs > nowSeconds + TO_TS_LEEWAY_SECONDS) {
        throw new AppError('VALIDATION_FAILED', undefined, { toTs: ['Must not be in the future.'] });
      }
      const to = new Date((query.toTs ?? nowSeconds) * 1000);
      const candles = await repository.listCandles({
        symbol,
        resolution,
        to,
        limit: query.limit,
        aggregate: query.aggregate,
      });
      return candles.map((candle) => ({
        time: Math.floor(candle.start_at.getTime() / 1000),
        low: candle.low,
        high: candle.high,
        open: candle.open,
        close: candle.close,
      }));
    },

    async getPriceFeed() {
      const coins = await repository.listActiveCoins();
      const feed: PriceFeed = {};
      for (const coin of coins) {
        const symbol = `${coin.asset}/GBP`;
        const history = await repository.listCandles({
          symbol,
          resolution: 'hour',
          to: now(),
          limit: PRICE_FEED_HOURS,
        });
        const state = prices.get(symbol);
        const current =
          state?.mid ?? (history.length > 0 ? new PriceDecimal(history.at(-1)!.close) : undefined);
        const first = history[0];
        feed[coin.coin_id] = {
          coin: { coin_id: coin.coin_id, name: coin.name },
          history: history.map((candle) => ({
            open: candle.open,
            time: Math.floor(candle.start_at.getTime() / 1000),
          })),
          percentage:
            first && current ? current.minus(first.open).div(first.open).times(100).toFixed(2) : null,
          details: { gbp_bid: state && !isStale(state) ? toUpdate(state).bid : null },
        };
      }
      return feed;
    },

    async listPublicCoins() {
      const coins = await repository.listActiveCoins();
      return Object.fromEntries(
        coins.map((coin) => [
          coin.coin_id,
          {
            coin_id: coin.coin_id,
            platform_fee: coin.platform_fee,
            amount_min: fromMinorUnits(BigInt(coin.amount_min), coin.scale),
            amount_max: coin.amount_max === null ? null : fromMinorUnits(BigInt(coin.amount_max), coin.scale),
          },
        ]),
      );
    },
  };
  return service;
}
