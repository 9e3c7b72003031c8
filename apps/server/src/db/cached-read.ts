/**
 * Reads that every request makes and that rarely change (decision 133): sessions, coins, currencies,
 * the fee schedule. A value is kept at most `maxAgeMs`; a database trigger sends a NOTIFY on
 * CACHE_CHANNEL in the writing transaction (delivered at its commit, to every instance, this one
 * included), and the relay hands it to `drop`, which forgets the value at once.
 */

/** The channel the triggers of migration 0038 notify on; the payload is a CacheTopic, for sessions `session:<user id>`. */
export const CACHE_CHANNEL = 'florin_cache';

/** What a notification names: a table's cached reads, or one customer's sessions. */
export type CacheTopic = 'coins' | 'currencies' | 'fee_schedule' | `session:${string}` | 'everything';

/**
 * How an instance hears that cached rows changed. `isLive`: while false (the listening connection is
 * down, so a change could go unheard) nothing is kept and every read goes to the database.
 */
export type CacheSignals = {
  subscribe(listener: (topic: string) => void): () => void;
  isLive(): boolean;
};

/** Never hears anything, so keeps nothing: a store built without signals reads the database every time. */
export const NO_CACHE_SIGNALS: CacheSignals = { subscribe: () => () => undefined, isLive: () => false };

type Entry<V> = { value: V; loadedAt: number };

/**
 * Values by key, each loaded on first use and kept at most `maxAgeMs` of `now` (a monotonic clock in
 * milliseconds). `drop` forgets matching entries and bumps the generation, so a load that began
 * before the change committed (and may have read the old row) is not kept after it.
 */
export function createKeyedCache<K, V>(options: {
  maxAgeMs: number;
  signals: CacheSignals;
  /** Which entries a notification's topic drops. */
  dropsOn: (topic: string, key: K, value: V) => boolean;
  /** Beyond this many entries the oldest go first. */
  maxEntries?: number;
  now?: () => number;
}) {
  const now = options.now ?? (() => performance.now());
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<K, Entry<V>>();
  let generation = 0;

  function drop(topic: string): void {
    generation += 1;
    if (topic === 'everything') {
      entries.clear();
      return;
    }
    for (const [key, entry] of entries) if (options.dropsOn(topic, key, entry.value)) entries.delete(key);
  }

  const unsubscribe = options.signals.subscribe(drop);

  return {
    /** The value kept for `key`, else `load()`'s, kept if nothing changed meanwhile and `keep` allows it. */
    async get(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
      const at = now();
      const entry = entries.get(key);
      if (entry && at - entry.loadedAt < options.maxAgeMs) return entry.value;
      entries.delete(key);
      const loadedIn = generation;
      const live = options.signals.isLive();
      const value = await load();
      if (live && loadedIn === generation && options.signals.isLive() && keep(value)) {
        if (entries.size >= maxEntries) {
          const oldest = entries.keys().next();
          if (!oldest.done) entries.delete(oldest.value);
        }
        entries.set(key, { value, loadedAt: at });
      }
      return value;
    },
    /** What this instance drops on its own, not waiting for its notification (a write it just made). */
    drop,
    forget(key: K): void {
      generation += 1;
      entries.delete(key);
    },
    close: unsubscribe,
  };
}

/** One value (a table's rows), dropped on `topic`. */
export function createCachedRead<V>(options: {
  topic: CacheTopic;
  maxAgeMs: number;
  signals: CacheSignals;
  load: () => Promise<V>;
  now?: () => number;
}) {
  const cache = createKeyedCache<'value', V>({
    maxAgeMs: options.maxAgeMs,
    signals: options.signals,
    dropsOn: (topic) => topic === options.topic,
    now: options.now,
  });
  return {
    get: () => cache.get('value', options.load),
    drop: () => cache.drop('everything'),
    close: cache.close,
  };
}

/** Signals fed by whoever listens (the relay's connection, or PGlite's own LISTEN). */
export function createCacheSignalHub() {
  const listeners = new Set<(topic: string) => void>();
  let live = false;
  const emit = (topic: string) => {
    for (const listener of [...listeners]) listener(topic);
  };
  const signals: CacheSignals = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isLive: () => live,
  };
  return {
    signals,
    emit,
    /** Listening or not: either way what is kept is dropped, as changes may have gone unheard. */
    setLive(value: boolean) {
      live = value;
      emit('everything');
    },
  };
}

/** On PGlite (one process): its own LISTEN hears the triggers' NOTIFY when the writing transaction commits. */
export async function listenOnPglite(
  listen: (channel: string, callback: (payload: string) => void) => Promise<unknown>,
): Promise<CacheSignals> {
  const hub = createCacheSignalHub();
  await listen(CACHE_CHANNEL, hub.emit);
  hub.setLive(true);
  return hub.signals;
}
