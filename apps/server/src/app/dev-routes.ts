import type { FastifyInstance } from 'fastify';
import { registerAutoTradeDevRoutes } from '../modules/auto-trade/routes.js';
import { registerCryptoDevRoutes, registerSimulatedChainAdminRoutes } from '../modules/crypto/routes.js';
import { registerDevRoutes } from '../modules/dev/routes.js';
import { registerTermDepositDevRoutes } from '../modules/term-deposits/routes.js';
import { registerTradingDevRoutes } from '../modules/trading/routes.js';
import type { AppDeps } from './deps.js';
import type { AppServices } from './services.js';

/** The routes that drive the simulated chain, prices and clocks in development and tests; never in production. */
export function registerDevelopmentRoutes(app: FastifyInstance, deps: AppDeps, services: AppServices): void {
  const { db, crypto, market, trading } = services;
  registerDevRoutes(app, { db, ledger: deps.ledger, userEvents: services.userEvents });
  registerCryptoDevRoutes(app, { crypto });
  registerSimulatedChainAdminRoutes(app, { crypto });
  registerTradingDevRoutes(app, { db, market, trading });
  registerTermDepositDevRoutes(app, { termDeposits: services.termDeposits });
  registerAutoTradeDevRoutes(app, { autoTrades: services.autoTrades });
}
