import { PriceDecimal } from './decimal.js';
import type { FeedState, PriceSource, Tick } from './source.js';

/** A feed's last tick of a symbol, and when it arrived by our clock. */
type Heard = { tick: Tick; receivedAt: number };

export type FailoverOptions = {
  sources: readonly PriceSource[];
  /** A feed without a tick of a symbol for this long is stale for it: its price is not used. */
  staleAfterMs: number;
  /** Two live feeds further apart than this (basis points of the lower mid) refuse the quote. */
  maxDisagreementBps: number;
  now?: () => Date;
};

/**
 * Several exchange feeds as one source (issue 44): each symbol's price comes
 * from the freshest feed that is not stale; while two live feeds disagree by
 * more than the band the price goes out disputed, shown but never quoted;
 * when every feed is stale nothing goes out and the market marks it stale.
 */
export function createFailoverSource(options: FailoverOptions): PriceSource {
  const now = options.now ?? (() => new Date());
  const heard = options.sources.map(() => new Map<string, Heard>());
  const band = new PriceDecimal(options.maxDisagreementBps).div(10_000);

  const isLive = (entry: Heard | undefined, at: number): entry is Heard =>
    entry !== undefined && at - entry.receivedAt <= options.staleAfterMs;

  const combine = (symbol: string): Tick | undefined => {
    const at = now().getTime();
    const live = heard.map((bySymbol) => bySymbol.get(symbol)).filter((entry) => isLive(entry, at));
    if (live.length === 0) return undefined;
    const freshest = live.reduce((best, entry) => (entry.tick.at > best.tick.at ? entry : best));
    const mids = live.map((entry) => new PriceDecimal(entry.tick.mid));
    const low = PriceDecimal.min(...mids);
    const high = PriceDecimal.max(...mids);
    const disputed = high.minus(low).greaterThan(low.times(band));
    return { ...freshest.tick, disputed };
  };

  return {
    name: options.sources.map((source) => source.name).join('+'),
    start(onTicks) {
      options.sources.forEach((source, index) => {
        source.start((ticks) => {
          const receivedAt = now().getTime();
          for (const tick of ticks) heard[index]!.set(`${tick.base}/${tick.quote}`, { tick, receivedAt });
          const combined = ticks
            .map((tick) => combine(`${tick.base}/${tick.quote}`))
            .filter((tick) => tick !== undefined);
          if (combined.length > 0) onTicks(combined);
        });
      });
    },
    stop() {
      for (const source of options.sources) source.stop();
    },
    feeds(): FeedState[] {
      const at = now().getTime();
      return options.sources.map((source, index) => {
        const ticks = [...heard[index]!.values()];
        const lastTickAt = Math.max(...ticks.map((entry) => entry.receivedAt));
        return {
          name: source.name,
          lastMessageAt: source.lastMessageAt?.() ?? (ticks.length > 0 ? new Date(lastTickAt) : undefined),
          state: ticks.some((entry) => isLive(entry, at)) ? 'live' : 'stale',
        };
      });
    },
  };
}
