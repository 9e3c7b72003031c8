import type { FastifyInstance } from 'fastify';
import {
  getFeePlans,
  getHouseInventory,
  listAdminCoins,
  listAdminCurrencies,
  setCustomFeePlan,
  updateAdminCoin,
  updateAdminCurrency,
  updateFeeSchedule,
} from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { TradingAdminService } from './admin.js';

/** Finance keeps the coins, currencies and fee plans; a superadmin is admitted to every staff route anyway. */
const finance = { staff: ['finance'] as const };

export function registerTradingAdminRoutes(app: FastifyInstance, deps: { admin: TradingAdminService }): void {
  const { admin } = deps;

  registerRoute(app, listAdminCoins, {
    access: finance,
    handler: async () => admin.listCoins(),
  });

  registerRoute(app, updateAdminCoin, {
    access: finance,
    handler: async (request) => admin.updateCoin(auditActorOf(request), request.params.coin_id, request.body),
  });

  registerRoute(app, listAdminCurrencies, {
    access: finance,
    handler: async () => admin.listCurrencies(),
  });

  registerRoute(app, updateAdminCurrency, {
    access: finance,
    handler: async (request) =>
      admin.updateCurrency(auditActorOf(request), request.params.code, request.body),
  });

  registerRoute(app, getFeePlans, {
    access: finance,
    handler: async () => admin.feePlans(),
  });

  registerRoute(app, updateFeeSchedule, {
    access: finance,
    handler: async (request) => admin.updateFeeSchedule(auditActorOf(request), request.body),
  });

  registerRoute(app, setCustomFeePlan, {
    access: finance,
    handler: async (request) =>
      admin.setCustomFeePlan(auditActorOf(request), request.params.user_id, request.body),
  });

  registerRoute(app, getHouseInventory, {
    access: finance,
    handler: async () => admin.inventory(),
  });
}
