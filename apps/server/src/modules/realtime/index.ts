import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { UserEvent } from '@florin/contracts';
import type { Config } from '../../config.js';
import { listenOnPglite } from '../../db/cached-read.js';
import type { Database, Engine } from '../../db/index.js';
import type { SessionStore } from '../auth/sessions.js';
import { createPriceHub, type PriceFeed } from './hub.js';
import {
  createClusterFeed,
  createInProcessRelay,
  createPostgresRelay,
  type PriceRelay,
  type UserNotice,
} from './relay.js';
import { registerRealtimeRoutes } from './routes.js';

export type { PriceFeed } from './hub.js';
export type { PriceRelay, UserNotice } from './relay.js';

/**
 * How a module tells a customer's open pages that something of theirs
 * changed, after its transaction committed: fire and forget (a lost notice
 * only delays a refresh; the money is already right). `moneyMoved`: balances
 * and activity; `ordersChanged`: an order executed, or a limit or stop order
 * placed, filled, cancelled or expired.
 */
export type UserEvents = {
  moneyMoved(userIds: readonly (string | number)[]): void;
  ordersChanged(userIds: readonly (string | number)[]): void;
};

export function createUserEvents(relay: PriceRelay, log: FastifyBaseLogger): UserEvents {
  // The notices of one turn of the event loop go out together: a trade's two events, and those of the trades
  // finishing beside it, are one NOTIFY rather than one each (issue 43).
  let pending = new Map<string, UserNotice>();
  const flush = () => {
    const notices = [...pending.values()];
    pending = new Map();
    relay
      .publishUserNotices(notices)
      .catch((error: unknown) => log.warn({ err: error }, 'customer event not relayed'));
  };
  const tell = (userIds: readonly (string | number)[], event: UserEvent) => {
    for (const id of userIds) {
      if (pending.size === 0) setImmediate(flush);
      const userId = String(id);
      pending.set(`${userId}:${event}`, { userId, event });
    }
  };
  return {
    moneyMoved: (userIds) => tell(userIds, 'balances'),
    ordersChanged: (userIds) => tell(userIds, 'orders'),
  };
}

/**
 * LISTEN/NOTIFY on a PostgreSQL server; in process on PGlite (one instance), whose own LISTEN hears
 * the cache triggers. PostgreSQL without DATABASE_URL (tests given a pool): nothing hears them, so
 * nothing is cached.
 */
export async function openRelay(options: {
  config: Config;
  database: Pick<Database, 'engine' | 'listen'>;
  log: FastifyBaseLogger;
}): Promise<PriceRelay> {
  const { config, database } = options;
  if (database.engine === 'postgres' && config.DATABASE_URL)
    return createPostgresRelay({
      url: config.DATABASE_URL,
      onError: (error) => options.log.warn({ err: error }, 'relay connection lost; reconnecting'),
    });
  return createInProcessRelay(database.listen ? await listenOnPglite(database.listen) : undefined);
}

/** Per address: a household or an office behind one NAT has a few tabs each, a script opening hundreds has not. */
export const MAX_WS_CONNECTIONS_PER_IP = 50;

/** Until the market module hands its feed over: no symbols, every subscribe is refused. */
const NO_PRICES: PriceFeed = { subscribe: () => () => undefined, latest: () => [] };

/**
 * The websocket at /ws, streaming the leader's ticks and each customer's
 * events that the relay brings to this instance.
 */
export async function registerRealtime(
  app: FastifyInstance,
  options: {
    config: Config;
    engine: Engine;
    sessions: Pick<SessionStore, 'find'>;
    feed?: PriceFeed;
    relay: PriceRelay;
  },
): Promise<{ connectionCount: () => number }> {
  const { config, relay } = options;
  const feed = createClusterFeed(options.feed ?? NO_PRICES, relay);
  const hub = createPriceHub(feed);
  const stopNotices = relay.subscribeUserNotices((notice) => hub.notifyUser(notice.userId, notice.event));
  await registerRealtimeRoutes(app, {
    hub,
    sessions: options.sessions,
    allowedOrigin: config.isProduction ? new URL(config.publicUrl).origin : null,
    maxConnectionsPerIp: MAX_WS_CONNECTIONS_PER_IP,
  });
  app.addHook('onClose', async () => {
    stopNotices();
    feed.close();
    await relay.close();
  });
  return { connectionCount: () => hub.connectionCount };
}
