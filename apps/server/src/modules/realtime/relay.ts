import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PriceUpdateSchema, UserEventSchema, type PriceUpdate, type UserEvent } from '@florin/contracts';
import { z } from 'zod';
import {
  CACHE_CHANNEL,
  createCacheSignalHub,
  NO_CACHE_SIGNALS,
  type CacheSignals,
} from '../../db/cached-read.js';
import type { PriceFeed } from './hub.js';

/** A customer's event on its way to whichever instance holds their websocket. */
export type UserNotice = { userId: string; event: UserEvent };

/**
 * How ticks and customers' events reach every server instance. One instance
 * (the leader) produces ticks and publishes them; every instance, the leader
 * included, hears them and streams them to its own websocket clients. Any
 * instance may publish a customer's event (the one that moved their money).
 */
export type PriceRelay = {
  /** Delivers customers' events here at once and to the other instances (many in one NOTIFY). */
  publishUserNotices(notices: readonly UserNotice[]): Promise<void>;
  subscribeUserNotices(listener: (notice: UserNotice) => void): () => void;
  /** Delivers one tick's updates here at once and to the other instances. */
  publish(updates: PriceUpdate[]): Promise<void>;
  subscribe(listener: (updates: PriceUpdate[]) => void): () => void;
  /** Whether this instance produces the ticks now (the market source should run only here). */
  isLeader(): boolean;
  onLeadershipChange(listener: (isLeader: boolean) => void): () => void;
  /** What the cache triggers NOTIFY (db/cached-read.ts), from every instance; live while listening. */
  cacheSignals: CacheSignals;
  close(): Promise<void>;
};

type Listeners<T> = { add: (listener: (value: T) => void) => () => void; emit: (value: T) => void };

function listeners<T>(): Listeners<T> {
  const set = new Set<(value: T) => void>();
  return {
    add(listener) {
      set.add(listener);
      return () => set.delete(listener);
    },
    emit(value) {
      for (const listener of [...set]) listener(value);
    },
  };
}

/**
 * One process (PGlite, tests): it is always the leader and its ticks go straight to its clients.
 * `cacheSignals`: PGlite's own LISTEN (db/cached-read.ts listenOnPglite); none, nothing is cached.
 */
export function createInProcessRelay(cacheSignals: CacheSignals = NO_CACHE_SIGNALS): PriceRelay {
  const ticks = listeners<PriceUpdate[]>();
  const notices = listeners<UserNotice>();
  return {
    publishUserNotices(items) {
      for (const notice of items) notices.emit(notice);
      return Promise.resolve();
    },
    subscribeUserNotices: notices.add,
    publish(updates) {
      ticks.emit(updates);
      return Promise.resolve();
    },
    subscribe: ticks.add,
    isLeader: () => true,
    onLeadershipChange: () => () => undefined,
    cacheSignals,
    async close() {},
  };
}

export const PRICE_CHANNEL = 'florin_prices';
export const USER_CHANNEL = 'florin_user_events';
/** The advisory lock the tick producer holds: 'Flor' 'Tick' as two int4 keys. */
const LEADER_LOCK = [0x466c6f72, 0x5469636b] as const;
/** NOTIFY payloads must stay under 8000 bytes; a tick larger than this is sent in several. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7_500;

const NotificationSchema = z.object({ from: z.string(), updates: z.array(PriceUpdateSchema) });
const UserNotificationSchema = z.object({
  from: z.string(),
  notices: z.array(z.object({ userId: z.string(), event: UserEventSchema })),
});

/**
 * Splits items into JSON payloads `{from, [field]: items}` under the NOTIFY
 * limit, each item whole in exactly one of them; each item is serialised
 * once, so a tick that fills thousands of orders packs in linear time.
 */
function packPayloads(from: string, field: string, items: readonly unknown[], maxBytes: number): string[] {
  const head = `${JSON.stringify({ from }).slice(0, -1)},${JSON.stringify(field)}:[`;
  const tail = ']}';
  const payloads: string[] = [];
  let batch: string[] = [];
  let bytes = Buffer.byteLength(head) + Buffer.byteLength(tail);
  for (const item of items) {
    const json = JSON.stringify(item);
    const size = Buffer.byteLength(json) + (batch.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes && batch.length > 0) {
      payloads.push(head + batch.join(',') + tail);
      batch = [];
      bytes = Buffer.byteLength(head) + Buffer.byteLength(tail);
    }
    bytes += Buffer.byteLength(json) + (batch.length > 0 ? 1 : 0);
    batch.push(json);
  }
  if (batch.length > 0) payloads.push(head + batch.join(',') + tail);
  return payloads;
}

/** Splits a tick's updates into JSON payloads under the NOTIFY limit, each update whole in exactly one of them. */
export function batchPayloads(
  from: string,
  updates: PriceUpdate[],
  maxBytes = MAX_NOTIFY_PAYLOAD_BYTES,
): string[] {
  return packPayloads(from, 'updates', updates, maxBytes);
}

/** The same for customers' events. */
export function batchNoticePayloads(
  from: string,
  notices: readonly UserNotice[],
  maxBytes = MAX_NOTIFY_PAYLOAD_BYTES,
): string[] {
  return packPayloads(from, 'notices', notices, maxBytes);
}

export type PostgresRelayOptions = {
  url: string;
  /** How often a follower tries to become the leader, and how soon a lost connection is reopened. */
  retryMs?: number;
  onError?: (error: Error) => void;
};

/**
 * Several instances on one PostgreSQL server. Each keeps one dedicated
 * connection (outside the pool: LISTEN and a session advisory lock belong to
 * a connection). Whoever holds the advisory lock is the leader; if its
 * process or connection dies, PostgreSQL releases the lock and the next
 * follower to try takes it over. Ticks travel as NOTIFY on PRICE_CHANNEL.
 */
export async function createPostgresRelay(options: PostgresRelayOptions): Promise<PriceRelay> {
  const retryMs = options.retryMs ?? 2_000;
  const instanceId = randomUUID();
  const ticks = listeners<PriceUpdate[]>();
  const notices = listeners<UserNotice>();
  const leadership = listeners<boolean>();
  const cache = createCacheSignalHub();
  let client: pg.Client | null = null;
  let leader = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  // pg refuses (from 9.0; 8.x warns) a query on a connection still running one: the relay's queries take turns.
  let turn: Promise<unknown> = Promise.resolve();

  function queryInTurn<R extends pg.QueryResultRow>(connection: pg.Client, text: string, values: unknown[]) {
    const result = turn.then(() => connection.query<R>(text, values));
    turn = result.catch(() => undefined);
    return result;
  }

  function setLeader(value: boolean): void {
    if (leader === value) return;
    leader = value;
    leadership.emit(value);
  }

  function schedule(): void {
    if (closed) return;
    timer = setTimeout(() => void tick(), retryMs);
    timer.unref();
  }

  function lost(connection: pg.Client, error?: Error): void {
    if (client !== connection) return;
    client = null;
    setLeader(false);
    // Changes committed while nobody listens go unheard: read through until listening again.
    cache.setLive(false);
    if (error && !closed) options.onError?.(error);
    connection.end().catch(() => undefined);
  }

  async function connect(): Promise<pg.Client> {
    const connection = new pg.Client({ connectionString: options.url });
    connection.on('error', (error) => lost(connection, error));
    connection.on('end', () => lost(connection));
    connection.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === CACHE_CHANNEL) {
        // The triggers' topics, this instance's own changes included: they are not JSON.
        cache.emit(message.payload);
        return;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(message.payload);
      } catch {
        return;
      }
      // What this instance published it has already delivered here.
      if (message.channel === PRICE_CHANNEL) {
        const parsed = NotificationSchema.safeParse(payload);
        if (parsed.success && parsed.data.from !== instanceId) ticks.emit(parsed.data.updates);
      } else if (message.channel === USER_CHANNEL) {
        const parsed = UserNotificationSchema.safeParse(payload);
        if (parsed.success && parsed.data.from !== instanceId)
          for (const notice of parsed.data.notices) notices.emit(notice);
      }
    });
    await connection.connect();
    await connection.query(`LISTEN ${PRICE_CHANNEL}`);
    await connection.query(`LISTEN ${USER_CHANNEL}`);
    await connection.query(`LISTEN ${CACHE_CHANNEL}`);
    cache.setLive(true);
    return connection;
  }

  async function tick(): Promise<void> {
    try {
      client ??= await connect();
      if (!leader) {
        const result = await queryInTurn<{ locked: boolean }>(
          client,
          'SELECT pg_try_advisory_lock($1, $2) AS locked',
          [...LEADER_LOCK],
        );
        if (result.rows[0]?.locked) setLeader(true);
      }
    } catch (error) {
      if (client) lost(client, error as Error);
      else if (!closed) options.onError?.(error as Error);
    }
    schedule();
  }

  await tick();

  return {
    async publish(updates) {
      if (!leader || updates.length === 0) return;
      ticks.emit(updates);
      const connection = client;
      if (!connection) return;
      for (const payload of batchPayloads(instanceId, updates)) {
        await queryInTurn(connection, 'SELECT pg_notify($1, $2)', [PRICE_CHANNEL, payload]);
      }
    },
    subscribe: ticks.add,
    async publishUserNotices(items) {
      for (const notice of items) notices.emit(notice);
      // Lost connection: the customers' other instances miss these events; their pages still
      // refetch on focus and on their own next change.
      const connection = client;
      if (!connection) return;
      for (const payload of batchNoticePayloads(instanceId, items)) {
        await queryInTurn(connection, 'SELECT pg_notify($1, $2)', [USER_CHANNEL, payload]);
      }
    },
    subscribeUserNotices: notices.add,
    isLeader: () => leader,
    onLeadershipChange: leadership.add,
    cacheSignals: cache.signals,
    async close() {
      closed = true;
      cache.setLive(false);
      if (timer) clearTimeout(timer);
      const connection = client;
      client = null;
      setLeader(false);
      // Ending the session releases the advisory lock for the next leader.
      await connection?.end().catch(() => undefined);
    },
  };
}

/**
 * The feed the websocket hub streams: the local market feed's ticks go out
 * through the relay while this instance leads; what the relay brings in is
 * what clients see, so every instance streams the leader's prices.
 */
export function createClusterFeed(local: PriceFeed, relay: PriceRelay): PriceFeed & { close(): void } {
  const latestBySymbol = new Map<string, PriceUpdate>();
  const ticks = listeners<PriceUpdate[]>();
  const stopLocal = local.subscribe((updates) => {
    if (relay.isLeader()) void relay.publish(updates).catch(() => undefined);
  });
  const stopRelay = relay.subscribe((updates) => {
    for (const update of updates) latestBySymbol.set(update.symbol, update);
    ticks.emit(updates);
  });
  return {
    subscribe: ticks.add,
    latest(symbol) {
      if (symbol === undefined) {
        const merged = new Map(local.latest().map((update) => [update.symbol, update]));
        for (const [key, update] of latestBySymbol) merged.set(key, update);
        return [...merged.values()];
      }
      // Before the first relayed tick (a follower just started), the local feed's view.
      const relayed = latestBySymbol.get(symbol);
      return relayed ? [relayed] : local.latest(symbol);
    },
    close() {
      stopLocal();
      stopRelay();
    },
  };
}
