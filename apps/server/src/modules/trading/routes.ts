import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  AppError,
  cancelLimitOrder,
  createQuote,
  getTradingTerms,
  listLimitOrders,
  listLimitOrdersBySingularPath,
  listPositions,
  marketBuy,
  marketSell,
  placeInstantOrder,
  placeLimitOrder,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { idempotencyKeyOf } from '../../http/idempotency.js';
import { registerRoute } from '../../http/route.js';
import type { DB } from '../../db/schema.js';
import type { MarketService } from '../market/service.js';
import type { TradingService } from './service.js';

export function registerTradingRoutes(app: FastifyInstance, deps: { trading: TradingService }): void {
  const { trading } = deps;
  const customerId = (request: Parameters<typeof requireCustomer>[0]) => requireCustomer(request).userId;

  registerRoute(app, getTradingTerms, {
    access: 'customer',
    handler: async (request) => trading.terms(customerId(request)),
  });

  registerRoute(app, createQuote, {
    access: 'customer',
    handler: async (request) => trading.quote(customerId(request), request.body),
  });

  registerRoute(app, placeInstantOrder, {
    access: 'customer',
    handler: async (request) => trading.executeQuote(customerId(request), request.body.quote_id),
  });

  registerRoute(app, marketBuy, {
    access: 'customer',
    handler: async (request) =>
      trading.marketOrder(customerId(request), idempotencyKeyOf(request), 'buy', request.body),
  });

  registerRoute(app, marketSell, {
    access: 'customer',
    handler: async (request) =>
      trading.marketOrder(customerId(request), idempotencyKeyOf(request), 'sell', request.body),
  });

  registerRoute(app, placeLimitOrder, {
    access: 'customer',
    handler: async (request) =>
      trading.placeOrder(customerId(request), idempotencyKeyOf(request), request.body),
  });

  for (const endpoint of [listLimitOrders, listLimitOrdersBySingularPath])
    registerRoute(app, endpoint, {
      access: 'customer',
      handler: async (request) => trading.listOrders(customerId(request), request.query),
    });

  registerRoute(app, cancelLimitOrder, {
    access: 'customer',
    // A terminated customer may not trade but must be able to take back what their open orders hold.
    allowWhenTerminated: true,
    handler: async (request) => trading.cancelOrder(customerId(request), String(request.params.id)),
  });

  registerRoute(app, listPositions, {
    access: 'customer',
    handler: async (request) => trading.positions(customerId(request)),
  });
}

const DriveSchema = z.object({
  symbol: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{2,10}\/[A-Z0-9]{2,10}$/),
  mid: z.string().regex(/^\d+(\.\d+)?$/),
});
const PlatformSchema = z.object({
  email: z.string().email(),
  platform: z.union([z.literal(1), z.literal(2)]),
});

/**
 * For the e2e fixtures and a developer trying the product: drive the
 * simulated market to a price (resting orders it crosses fill before the
 * answer) and put a customer on the instant or trading platform. Never
 * registered in production.
 */
export function registerTradingDevRoutes(
  app: FastifyInstance,
  deps: { db: Kysely<DB>; market: Pick<MarketService, 'drive' | 'latest'>; trading: TradingService },
): void {
  app.post(
    '/dev/market/drive',
    { config: { access: 'public' }, schema: { body: DriveSchema } },
    async (request) => {
      const body = request.body as z.infer<typeof DriveSchema>;
      await deps.market.drive(body.symbol, body.mid);
      await deps.trading.onPrices(deps.market.latest(body.symbol));
      return { data: deps.market.latest(body.symbol)[0] ?? null };
    },
  );

  app.post(
    '/dev/users/platform',
    { config: { access: 'public' }, schema: { body: PlatformSchema } },
    async (request) => {
      const body = request.body as z.infer<typeof PlatformSchema>;
      const updated = await deps.db
        .updateTable('users')
        .set({ platform: body.platform })
        .where('email', '=', body.email.toLowerCase())
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw new AppError('NOT_FOUND');
      return { message: `Platform ${body.platform}.` };
    },
  );
}
