import type { FastifyInstance } from 'fastify';
import {
  assignPromoCode,
  createPromoCode,
  listAdminPromoCodes,
  listPromoCodes,
  setPromoCodeActive,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { PromoService } from './service.js';

/** Promo benefits are incentives: a superadmin keeps them, beside the incentives policy. */
const superadmin = { staff: ['superadmin'] as const };

export function registerPromoRoutes(app: FastifyInstance, deps: { promo: PromoService }): void {
  const { promo } = deps;

  registerRoute(app, assignPromoCode, {
    access: 'customer',
    // A code is worth guessing at.
    rateLimit: { max: 10, timeWindow: '1 minute' },
    handler: async (request) => promo.apply(requireCustomer(request).userId, request.body),
  });

  registerRoute(app, listPromoCodes, {
    access: 'customer',
    handler: async (request) => ({ data: { data: await promo.list(requireCustomer(request).userId) } }),
  });

  registerRoute(app, listAdminPromoCodes, {
    access: superadmin,
    handler: async () => ({ data: await promo.listCodes() }),
  });

  registerRoute(app, createPromoCode, {
    access: superadmin,
    handler: async (request) => promo.createCode(auditActorOf(request), request.body),
  });

  registerRoute(app, setPromoCodeActive, {
    access: superadmin,
    handler: async (request) =>
      promo.setActive(auditActorOf(request), request.params.id, request.body.is_active),
  });
}
