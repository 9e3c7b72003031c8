import type { FastifyBaseLogger } from 'fastify';
import type { WhitelistService } from '../modules/whitelists/service.js';
import { buildAccountServices, type AccountServices } from './account-services.js';
import { buildBaseServices, type BaseServices } from './base-services.js';
import type { AppDeps } from './deps.js';
import { lateBound } from './late-bound.js';
import { buildMoneyServices, type MoneyServices } from './money-services.js';

/** Every module service the routes, the websocket and the background jobs are given. */
export type AppServices = BaseServices & AccountServices & MoneyServices;

/**
 * The module services in dependency order. One of the account services' questions is answered by a
 * service built after them (a sign-in's whitelisted address): it is bound last.
 */
export async function buildServices(deps: AppDeps, log: FastifyBaseLogger): Promise<AppServices> {
  const base = await buildBaseServices(deps, log);
  const whitelistsLater = lateBound<WhitelistService>('the whitelist service');
  const accounts = buildAccountServices(
    deps,
    base,
    { isSignInIpAllowed: (userId, ip) => whitelistsLater.get().isSignInIpAllowed(userId, ip) },
    log,
  );
  const money = buildMoneyServices(deps, base, accounts, log);
  whitelistsLater.set(money.whitelists);
  return { ...base, ...accounts, ...money };
}
