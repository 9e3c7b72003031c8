import type { FastifyInstance } from 'fastify';
import { getUpgradeWebhook, listPlatformUpgrades, setUpgradeWebhook } from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { UpgradeService } from './service.js';

/** Support answers customers and finance watches the trading accounts; a superadmin is admitted anyway. */
const upgradeReaders = { staff: ['support', 'finance'] as const };
/** The webhook's address is a secret of the chat it posts to: a superadmin's alone. */
const superadmin = { staff: [] as const };

export function registerUpgradeRoutes(app: FastifyInstance, deps: { upgrades: UpgradeService }): void {
  const { upgrades } = deps;

  registerRoute(app, listPlatformUpgrades, {
    access: upgradeReaders,
    handler: async (request) => upgrades.listUpgrades(request.query),
  });

  registerRoute(app, getUpgradeWebhook, {
    access: superadmin,
    handler: async () => upgrades.getWebhook(),
  });

  registerRoute(app, setUpgradeWebhook, {
    access: superadmin,
    handler: async (request) => upgrades.setWebhook(auditActorOf(request), request.body.url),
  });
}
