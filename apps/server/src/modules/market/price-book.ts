import { AppError, type PriceUpdate } from '@florin/contracts';
import { PriceDecimal, PRICE_DECIMALS } from '../../adapters/prices/decimal.js';
import type { CoinRow } from './repository.js';

export type PriceState = {
  symbol: string;
  mid: PriceDecimal;
  at: Date;
  askSpread: string;
  bidSpread: string;
  /** The stale update went out already, so subscribers hear it once. */
  announcedStale: boolean;
  /** The feeds disagree on it (failover.ts): shown, and stale at once, so never quoted. */
  disputed: boolean;
};

export type QuoteOptions = {
  /**
   * The customer's fee divided by the Tier 1 fee of their schedule
   * (DECISIONS.md): spreads are multiplied by it. Unset: 1.
   */
  spreadMultiplier?: string;
};

export type PriceBook = ReturnType<typeof createPriceBook>;

/** The latest price of each symbol, and the bid, ask and GBP rates worked out from it. */
export function createPriceBook(options: { now: () => Date; staleAfterMs: number }) {
  const { now, staleAfterMs } = options;
  const prices = new Map<string, PriceState>();

  const isStale = (state: PriceState): boolean =>
    state.disputed || now().getTime() - state.at.getTime() > staleAfterMs;

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
  const remember = (
    symbol: string,
    mid: string,
    at: Date,
    coin: CoinRow,
    disputed = false,
  ): PriceState | undefined => {
    const previous = prices.get(symbol);
    if (previous && at < previous.at) return undefined;
    const state: PriceState = {
      symbol,
      mid: new PriceDecimal(mid),
      at,
      askSpread: coin.ask_spread,
      bidSpread: coin.bid_spread,
      // A disputed price goes out stale with its own update; the watch need not announce it again.
      announcedStale: disputed,
      disputed,
    };
    prices.set(symbol, state);
    return state;
  };

  const latest = (symbol?: string): PriceUpdate[] => {
    const states = symbol === undefined ? [...prices.values()] : [prices.get(symbol)].filter((s) => !!s);
    return states.map((state) => toUpdate(state));
  };

  const quote = (symbol: string, quoteOptions: QuoteOptions = {}): PriceUpdate => {
    const state = prices.get(symbol);
    if (!state || isStale(state)) throw new AppError('PRICES_STALE');
    return toUpdate(state, quoteOptions.spreadMultiplier);
  };

  const gbpRate = (asset: string): string | null => {
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
  };

  return { prices, isStale, toUpdate, remember, latest, quote, gbpRate };
}
