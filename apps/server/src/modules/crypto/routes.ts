import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  approveCryptoWithdrawal,
  cancelCryptoWithdrawal,
  confirmCryptoWithdrawal,
  cryptoWithdraw,
  exportSigningRequest,
  getCryptoWithdrawInfo,
  listCryptoActivity,
  listCryptoPayoutQueue,
  listCryptoWithdrawalSettings,
  rejectCryptoWithdrawal,
  resendWithdrawCode,
  sendCryptoWithdrawal,
  sendVerifyWithdraw,
  updateCryptoWithdrawalSettings,
  verifyWithdraw,
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
  WITHDRAW_SAVED_ADDRESS_PERMISSION,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { idempotencyKeyOf } from '../../http/idempotency.js';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { CryptoService } from './service.js';
import type { CryptoWithdrawalService } from './withdrawals.js';

/** Finance works the deposits and the simulated chain; a superadmin is admitted to every staff route anyway. */
const finance = { staff: ['finance'] as const };

export function registerCryptoRoutes(
  app: FastifyInstance,
  deps: { crypto: CryptoService; withdrawals: CryptoWithdrawalService },
): void {
  const { crypto, withdrawals } = deps;
  const customerId = (request: Parameters<typeof requireCustomer>[0]) => requireCustomer(request).userId;

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

  // ---- customer: withdrawals (the spec's first reading, bound to one withdrawal) ----

  registerRoute(app, getCryptoWithdrawInfo, {
    access: 'customer',
    handler: async (request) => withdrawals.withdrawInfo(customerId(request), request.query.coin),
  });

  registerRoute(app, sendVerifyWithdraw, {
    access: 'customer',
    allowWhenTerminated: true,
    handler: async (request) =>
      withdrawals.request(customerId(request), idempotencyKeyOf(request), request.body, {
        savedAddressOnly:
          requireCustomer(request).apiToken?.permissionId === WITHDRAW_SAVED_ADDRESS_PERMISSION,
      }),
  });

  registerRoute(app, resendWithdrawCode, {
    access: 'customer',
    allowWhenTerminated: true,
    handler: async (request) => withdrawals.resendCode(customerId(request), String(request.params.id)),
  });

  registerRoute(app, verifyWithdraw, {
    access: 'customer',
    allowWhenTerminated: true,
    handler: async (request) =>
      withdrawals.verify(customerId(request), String(request.body.withdrawal_id), request.body.verify_code),
  });

  registerRoute(app, cryptoWithdraw, {
    access: 'customer',
    allowWhenTerminated: true,
    handler: async (request) =>
      withdrawals.submit(customerId(request), String(request.body.withdrawal_id), request.body.passcode),
  });

  registerRoute(app, cancelCryptoWithdrawal, {
    access: 'customer',
    allowWhenTerminated: true,
    handler: async (request) => withdrawals.cancel(customerId(request), String(request.params.id)),
  });

  registerRoute(app, listCryptoActivity, {
    access: 'customer',
    handler: async (request) =>
      withdrawals.listActivity(customerId(request), request.query.page, request.query.coin),
  });

  // ---- back office: the crypto payout queue (finance) ----

  registerRoute(app, listCryptoPayoutQueue, {
    access: finance,
    handler: async (request) => withdrawals.listQueue(request.query.page, request.query.status),
  });

  registerRoute(app, approveCryptoWithdrawal, {
    access: finance,
    handler: async (request) => withdrawals.approve(auditActorOf(request), String(request.params.id)),
  });

  registerRoute(app, exportSigningRequest, {
    access: finance,
    handler: async (request) => withdrawals.signingRequest(String(request.params.id)),
  });

  registerRoute(app, sendCryptoWithdrawal, {
    access: finance,
    handler: async (request) =>
      withdrawals.send(auditActorOf(request), String(request.params.id), request.body.txid),
  });

  registerRoute(app, confirmCryptoWithdrawal, {
    access: finance,
    handler: async (request) => withdrawals.confirm(auditActorOf(request), String(request.params.id)),
  });

  registerRoute(app, rejectCryptoWithdrawal, {
    access: finance,
    handler: async (request) =>
      withdrawals.reject(auditActorOf(request), String(request.params.id), request.body.reason),
  });

  registerRoute(app, listCryptoWithdrawalSettings, {
    access: finance,
    handler: async () => withdrawals.listSettings(),
  });

  registerRoute(app, updateCryptoWithdrawalSettings, {
    access: finance,
    handler: async (request) =>
      withdrawals.updateSettings(auditActorOf(request), request.params.coin_id, request.body),
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
}

/**
 * The back office's controls of the simulated chain: pay into it, mine, reorganise. Never in
 * production (app.ts): there a payment made up here would credit real balances.
 */
export function registerSimulatedChainAdminRoutes(
  app: FastifyInstance,
  deps: { crypto: CryptoService },
): void {
  const { crypto } = deps;

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
