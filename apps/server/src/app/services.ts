import type { FastifyBaseLogger } from 'fastify';
import type { TradingService } from '../modules/trading/service.js';
import type { WhitelistService } from '../modules/whitelists/service.js';
import { buildAccountServices, type AccountServices } from './account-services.js';
import { buildBaseServices, type BaseServices } from './base-services.js';
import type { AppDeps } from './deps.js';
import { lateBound } from './late-bound.js';
import { buildMoneyServices, type MoneyServices } from './money-services.js';

/** Every module service the routes, the websocket and the background jobs are given. */
export type AppServices = BaseServices & AccountServices & MoneyServices;

/**
 * The module services in dependency order. Two of the account services' questions are answered by
 * services built after them (a sign-in's whitelisted address, trading volumes): those are bound last.
 */
export async function buildServices(deps: AppDeps, log: FastifyBaseLogger): Promise<AppServices> {
  const base = await buildBaseServices(deps, log);
  const tradingLater = lateBound<TradingService>('the trading service');
  const whitelistsLater = lateBound<WhitelistService>('the whitelist service');
  const accounts = buildAccountServices(
    deps,
    base,
    {
      tradingVolumes: {
        listOverSourceOfWealthThreshold: (userIds, executor) =>
          tradingLater.get().listOverSourceOfWealthThreshold(userIds, executor),
      },
      isSignInIpAllowed: (userId, ip) => whitelistsLater.get().isSignInIpAllowed(userId, ip),
    },
    log,
  );
  const money = buildMoneyServices(deps, base, accounts, log);
  tradingLater.set(money.trading);
  whitelistsLater.set(money.whitelists);
  return { ...base, ...accounts, ...money };
}
