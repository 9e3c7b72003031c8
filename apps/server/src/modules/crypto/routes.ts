import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  assignCryptoDeposit,
  broadcastSimulatedDeposit,
  dropSimulatedTransaction,
  generateDepositAddress,
  listAdminCryptoDeposits,
  listCryptoDeposits,
  listWalletAddresses,
  MineBodySchema,
  mineSimulatedBlocks,
  returnCryptoDeposit,
  SimulatedDepositBodySchema,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { CryptoService } from './service.js';

/** Finance works the deposits and the simulated chain; a superadmin is admitted to every staff route anyway. */
const finance = { staff: ['finance'] as const };

export function registerCryptoRoutes(app: FastifyInstance, deps: { crypto: CryptoService }): void {
  const { crypto } = deps;

  // ---- customer ----

  registerRoute(app, listWalletAddresses, {
    access: 'customer',
    handler: async (request) =>
      crypto.listWalletAddresses(requireCustomer(request).userId, request.query.coin),
  });

  registerRoute(app, generateDepositAddress, {
    access: 'customer',
    handler: async (request) =>
      crypto.generateAddress(requireCustomer(request).userId, request.params.coin_id),
  });

  registerRoute(app, listCryptoDeposits, {
    access: 'customer',
    handler: async (request) => crypto.listDeposits(requireCustomer(request).userId, request.query),
  });

  // ---- back office: finance ----

  registerRoute(app, listAdminCryptoDeposits, {
    access: finance,
    handler: async (request) => crypto.listAdminDeposits(request.query.page, request.query.status),
  });

  registerRoute(app, assignCryptoDeposit, {
    access: finance,
    handler: async (request) =>
      crypto.assignDeposit(
        auditActorOf(request),
        String(request.params.id),
        request.body.user_id,
        request.body.reason,
      ),
  });

  registerRoute(app, returnCryptoDeposit, {
    access: finance,
    handler: async (request) =>
      crypto.returnDeposit(auditActorOf(request), String(request.params.id), request.body.reason),
  });

  registerRoute(app, broadcastSimulatedDeposit, {
    access: finance,
    handler: async (request) => crypto.broadcastSimulated(auditActorOf(request), request.body),
  });

  registerRoute(app, mineSimulatedBlocks, {
    access: finance,
    handler: async (request) =>
      crypto.mineSimulated(auditActorOf(request), request.body.asset, request.body.blocks),
  });

  registerRoute(app, dropSimulatedTransaction, {
    access: finance,
    handler: async (request) =>
      crypto.dropSimulated(auditActorOf(request), request.body.asset, request.body.txid),
  });
}

/**
 * The simulated chain for the e2e fixtures and a developer trying the
 * product, without a staff sign-in. Never registered in production.
 */
export function registerCryptoDevRoutes(app: FastifyInstance, deps: { crypto: CryptoService }): void {
  const { crypto } = deps;
  app.post(
    '/dev/crypto/simulated-chain/deposit',
    { config: { access: 'public' }, schema: { body: SimulatedDepositBodySchema } },
    async (request) =>
      crypto.broadcastSimulated(null, request.body as z.output<typeof SimulatedDepositBodySchema>),
  );
  app.post(
    '/dev/crypto/simulated-chain/mine',
    { config: { access: 'public' }, schema: { body: MineBodySchema } },
    async (request) => {
      const body = request.body as z.output<typeof MineBodySchema>;
      return crypto.mineSimulated(null, body.asset, body.blocks);
    },
  );
}
