import type { FastifyInstance } from 'fastify';
import { cancelAutoTrade, createAutoTrade, listAutoTrades } from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import type { AutoTradeService } from './service.js';

export function registerAutoTradeRoutes(app: FastifyInstance, deps: { autoTrades: AutoTradeService }): void {
  registerRoute(app, listAutoTrades, {
    access: 'customer',
    handler: async (request) => deps.autoTrades.list(requireCustomer(request).userId, request.params.id),
  });
  registerRoute(app, createAutoTrade, {
    access: 'customer',
    handler: async (request) =>
      deps.autoTrades.create(requireCustomer(request).userId, request.params.id, request.body),
  });
  registerRoute(app, cancelAutoTrade, {
    access: 'customer',
    handler: async (request) => deps.autoTrades.cancel(requireCustomer(request).userId, request.params.id),
  });
}

/** Dev only: one pass of the conversion job now, for e2e stories that cannot wait for the timer. */
export function registerAutoTradeDevRoutes(
  app: FastifyInstance,
  deps: { autoTrades: AutoTradeService },
): void {
  app.post('/dev/auto-trade/run', async () => ({ data: await deps.autoTrades.runOnce() }));
}
