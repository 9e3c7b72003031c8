import type { FastifyInstance } from 'fastify';
import { getHistoDay, getHistoHour, getHistoMinute, getPriceFeed, listPublicCoins } from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import type { MarketService } from './service.js';

/** Market data is public: the public site's strip and the fees page show it before sign-in. */
export function registerMarketRoutes(app: FastifyInstance, deps: { market: MarketService }): void {
  const { market } = deps;
  registerRoute(app, getHistoMinute, {
    access: 'public',
    handler: async (request) => ({ data: await market.listCandles('minute', request.query) }),
  });
  registerRoute(app, getHistoHour, {
    access: 'public',
    handler: async (request) => ({ data: await market.listCandles('hour', request.query) }),
  });
  registerRoute(app, getHistoDay, {
    access: 'public',
    handler: async (request) => ({ data: await market.listCandles('day', request.query) }),
  });
  registerRoute(app, getPriceFeed, {
    access: 'public',
    handler: () => market.getPriceFeed(),
  });
  registerRoute(app, listPublicCoins, {
    access: 'public',
    handler: () => market.listPublicCoins(),
  });
}
