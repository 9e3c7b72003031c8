import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  approveFiatWithdrawal,
  assignFiatDeposit,
  cancelFiatWithdrawal,
  createBankAccount,
  exportPayoutFile,
  fiatWithdraw,
  getBankAccountDetails,
  getDepositBankInfo,
  getFiatWithdrawInfo,
  importBankStatement,
  listCustomerBankAccounts,
  listFiatActivity,
  listFiatBankSettings,
  listFiatDeposits,
  listPayoutQueue,
  markFiatWithdrawalPaid,
  recordFiatDeposit,
  rejectFiatWithdrawal,
  request2fa,
  returnFiatDeposit,
  updateBankAccount,
  updateFiatBankSettings,
  verifyBankAccount,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { idempotencyKeyOf } from '../../http/idempotency.js';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { FiatService } from './service.js';

/** Finance works the money; a superadmin is admitted to every staff route anyway. */
const finance = { staff: ['finance'] as const };

function customerIdOf(request: FastifyRequest): number {
  return requireCustomer(request).userId;
}

export function registerFiatRoutes(app: FastifyInstance, deps: { fiat: FiatService }): void {
  const { fiat } = deps;

  // ---- customer ----

  registerRoute(app, getBankAccountDetails, {
    access: 'customer',
    handler: async (request) => fiat.getBankAccounts(customerIdOf(request), request.query.currency_code),
  });

  registerRoute(app, createBankAccount, {
    access: 'customer',
    handler: async (request) => fiat.createBankAccount(customerIdOf(request), request.body),
  });

  registerRoute(app, updateBankAccount, {
    access: 'customer',
    handler: async (request) => fiat.updateBankAccount(customerIdOf(request), request.body),
  });

  registerRoute(app, getDepositBankInfo, {
    access: 'customer',
    handler: async (request) => ({ data: await fiat.getDepositInfo(customerIdOf(request)) }),
  });

  registerRoute(app, getFiatWithdrawInfo, {
    access: 'customer',
    handler: async (request) => ({
      data: await fiat.getWithdrawInfo(customerIdOf(request), request.query.currency_code),
    }),
  });

  registerRoute(app, request2fa, {
    access: 'customer',
    allowWhenTerminated: true,
    rateLimit: { max: 5, timeWindow: '1 minute' },
    handler: async (request) => fiat.requestCode(customerIdOf(request), request.body.purpose),
  });

  registerRoute(app, fiatWithdraw, {
    access: 'customer',
    allowWhenTerminated: true,
    handler: async (request) => fiat.withdraw(customerIdOf(request), idempotencyKeyOf(request), request.body),
  });

  registerRoute(app, cancelFiatWithdrawal, {
    access: 'customer',
    allowWhenTerminated: true,
    handler: async (request) => fiat.cancelWithdrawal(customerIdOf(request), String(request.params.id)),
  });

  registerRoute(app, listFiatActivity, {
    access: 'customer',
    handler: async (request) =>
      fiat.listActivity(customerIdOf(request), request.query.page, request.query.currency_code),
  });

  // ---- back office: finance ----

  registerRoute(app, listFiatBankSettings, {
    access: finance,
    handler: async () => ({ data: await fiat.listSettings() }),
  });

  registerRoute(app, updateFiatBankSettings, {
    access: finance,
    handler: async (request) =>
      fiat.updateSettings(auditActorOf(request), request.params.currency, request.body),
  });

  registerRoute(app, recordFiatDeposit, {
    access: finance,
    handler: async (request) => fiat.recordDeposit(auditActorOf(request), request.body),
  });

  registerRoute(app, importBankStatement, {
    access: finance,
    handler: async (request) => fiat.importStatement(auditActorOf(request), request.body),
  });

  registerRoute(app, listFiatDeposits, {
    access: finance,
    handler: async (request) => fiat.listDeposits(request.query.page, request.query.status),
  });

  registerRoute(app, assignFiatDeposit, {
    access: finance,
    handler: async (request) =>
      fiat.assignDeposit(
        auditActorOf(request),
        String(request.params.id),
        request.body.user_id,
        request.body.reason,
      ),
  });

  registerRoute(app, returnFiatDeposit, {
    access: finance,
    handler: async (request) =>
      fiat.returnDeposit(auditActorOf(request), String(request.params.id), request.body.reason),
  });

  registerRoute(app, listPayoutQueue, {
    access: finance,
    handler: async (request) => fiat.listWithdrawals(request.query.page, request.query.status),
  });

  registerRoute(app, exportPayoutFile, {
    access: finance,
    handler: async (request) => fiat.exportPayoutFile(auditActorOf(request), request.body.currency),
  });

  registerRoute(app, approveFiatWithdrawal, {
    access: finance,
    handler: async (request) => fiat.approveWithdrawal(auditActorOf(request), String(request.params.id)),
  });

  registerRoute(app, markFiatWithdrawalPaid, {
    access: finance,
    handler: async (request) =>
      fiat.markWithdrawalPaid(
        auditActorOf(request),
        String(request.params.id),
        request.body.payment_reference,
      ),
  });

  registerRoute(app, rejectFiatWithdrawal, {
    access: finance,
    handler: async (request) =>
      fiat.rejectWithdrawal(auditActorOf(request), String(request.params.id), request.body.reason, {
        bankReturned: request.body.bank_returned === true,
      }),
  });

  registerRoute(app, listCustomerBankAccounts, {
    access: finance,
    handler: async (request) => ({ data: await fiat.listCustomerBankAccounts(request.params.userId) }),
  });

  registerRoute(app, verifyBankAccount, {
    access: finance,
    handler: async (request) =>
      fiat.verifyBankAccount(auditActorOf(request), request.params.id, request.body.reason),
  });
}
