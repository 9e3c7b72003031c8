import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Engine } from '../../db/index.js';
import type { SessionStore } from '../auth/sessions.js';
import { createPriceHub, type PriceFeed } from './hub.js';
import { createClusterFeed, createInProcessRelay, createPostgresRelay, type PriceRelay } from './relay.js';
import { registerRealtimeRoutes } from './routes.js';

export type { PriceFeed } from './hub.js';
export type { PriceRelay } from './relay.js';

/** Per address: a household or an office behind one NAT has a few tabs each, a script opening hundreds has not. */
export const MAX_WS_CONNECTIONS_PER_IP = 50;

/** Until the market module hands its feed over: no symbols, every subscribe is refused. */
const NO_PRICES: PriceFeed = { subscribe: () => () => undefined, latest: () => [] };

/**
 * The websocket at /ws and the relay that brings every instance the
 * leader's ticks: PostgreSQL LISTEN/NOTIFY with a server, in process on
 * PGlite. The returned relay tells the market module whether this instance
 * should produce ticks (relay.isLeader()).
 */
export async function registerRealtime(
  app: FastifyInstance,
  options: {
    config: Config;
    engine: Engine;
    sessions: Pick<SessionStore, 'find'>;
    feed?: PriceFeed;
    relay?: PriceRelay;
  },
): Promise<{ relay: PriceRelay }> {
  const { config } = options;
  const relay =
    options.relay ??
    (options.engine === 'postgres' && config.DATABASE_URL
      ? await createPostgresRelay({
          url: config.DATABASE_URL,
          onError: (error) => app.log.warn({ err: error }, 'price relay connection lost; reconnecting'),
        })
      : createInProcessRelay());
  const feed = createClusterFeed(options.feed ?? NO_PRICES, relay);
  await registerRealtimeRoutes(app, {
    hub: createPriceHub(feed),
    sessions: options.sessions,
    allowedOrigin: config.isProduction ? new URL(config.publicUrl).origin : null,
    maxConnectionsPerIp: MAX_WS_CONNECTIONS_PER_IP,
  });
  app.addHook('onClose', async () => {
    feed.close();
    await relay.close();
  });
  return { relay };
}
