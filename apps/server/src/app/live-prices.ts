import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../modules/metrics/metrics.js';
import { registerRealtime } from '../modules/realtime/index.js';
import type { AppDeps } from './deps.js';
import type { AppServices } from './services.js';

/**
 * The websocket, and who makes prices: the leading instance ticks, writes candles and fills resting
 * orders; the others follow the prices it relays.
 */
export async function registerLivePrices(
  app: FastifyInstance,
  deps: AppDeps,
  services: AppServices,
  metrics: Metrics | null,
): Promise<void> {
  const { db, market, relay, trading } = services;
  const realtime = await registerRealtime(app, {
    config: deps.config,
    engine: deps.database.engine,
    sessions: services.sessions,
    feed: deps.priceFeed ?? market,
    relay,
  });
  metrics?.watch({
    db,
    websocketClients: realtime.connectionCount,
    prices: () => market.latest(),
    isLeader: () => relay.isLeader(),
  });
  // One instance produces ticks and writes candles; the others quote the prices it relays.
  market.setLeading(relay.isLeader());
  relay.onLeadershipChange((leading) => market.setLeading(leading));
  // The leading instance fills the resting orders each tick crosses.
  market.subscribe((updates) => {
    if (relay.isLeader())
      trading.onPrices(updates).catch((error) => app.log.error({ err: error }, 'order fills failed'));
  });
  // A shutdown stops the ticks, then lets the fills in flight commit before the database closes.
  app.addHook('onClose', async () => {
    await market.stop();
    await trading.stop();
  });
  relay.subscribe((updates) => {
    if (!relay.isLeader())
      market.follow(updates).catch((error) => app.log.error({ err: error }, 'relayed prices failed'));
  });
}
