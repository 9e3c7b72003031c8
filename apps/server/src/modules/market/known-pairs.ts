import type { CoinRow, MarketRepository } from './repository.js';

const COINS_CACHE_MS = 5000;

/** The listed coins (with their spreads) and fiat currencies: the pairs the market prices. */
export type KnownPairs = { coins: Map<string, CoinRow>; fiats: Set<string> };

/** Reads the listed pairs, and keeps them a few seconds for the ticks. */
export function createKnownPairs(options: { repository: MarketRepository; now: () => Date }) {
  const { repository, now } = options;
  let cachedPairs: { value: KnownPairs; loadedAt: number } | undefined;

  const load = async (): Promise<KnownPairs> => {
    const [coins, fiats] = await Promise.all([repository.listActiveCoins(), repository.listActiveFiats()]);
    return { coins: new Map(coins.map((coin) => [coin.asset, coin])), fiats: new Set(fiats) };
  };

  return {
    load,

    // Read a few seconds at most, so a tick never waits on the database and a spread edited in
    // the back office still applies within seconds.
    async cached(): Promise<KnownPairs> {
      const at = now().getTime();
      if (!cachedPairs || at - cachedPairs.loadedAt >= COINS_CACHE_MS || at < cachedPairs.loadedAt) {
        cachedPairs = { value: await load(), loadedAt: at };
      }
      return cachedPairs.value;
    },

    /** Reads them again now, whatever the cache holds. */
    async reload(): Promise<KnownPairs> {
      const value = await load();
      cachedPairs = { value, loadedAt: now().getTime() };
      return value;
    },
  };
}
