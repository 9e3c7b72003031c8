import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createAdminTermDepositOption,
  createTermDeposit,
  listAdminTermDepositOptions,
  listTermDepositCoins,
  listTermDepositTransactions,
  updateAdminTermDepositOption,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { idempotencyKeyOf } from '../../http/idempotency.js';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { TermDepositService } from './service.js';

/** Finance keeps the terms offered; a superadmin is admitted to every staff route anyway. */
const finance = { staff: ['finance'] as const };

export function registerTermDepositRoutes(
  app: FastifyInstance,
  deps: { termDeposits: TermDepositService },
): void {
  const { termDeposits } = deps;
  const customerId = (request: Parameters<typeof requireCustomer>[0]) => requireCustomer(request).userId;

  registerRoute(app, listTermDepositCoins, {
    access: 'customer',
    token: 'read',
    handler: async (request) => termDeposits.coins(customerId(request)),
  });

  registerRoute(app, createTermDeposit, {
    access: 'customer',
    handler: async (request) =>
      termDeposits.create(customerId(request), idempotencyKeyOf(request), request.body),
  });

  registerRoute(app, listTermDepositTransactions, {
    access: 'customer',
    token: 'read',
    handler: async (request) => termDeposits.list(customerId(request), request.query),
  });

  registerRoute(app, listAdminTermDepositOptions, {
    access: finance,
    handler: async () => termDeposits.listOptions(),
  });

  registerRoute(app, createAdminTermDepositOption, {
    access: finance,
    handler: async (request) => termDeposits.createOption(auditActorOf(request), request.body),
  });

  registerRoute(app, updateAdminTermDepositOption, {
    access: finance,
    handler: async (request) =>
      termDeposits.updateOption(auditActorOf(request), request.params.id, request.body),
  });
}

const MatureSchema = z.object({ email: z.string().email() });

/**
 * For the e2e tests and a developer trying the product: moves a customer's
 * live deposits' maturity into the past and runs the maturity job. Never
 * registered in production.
 */
export function registerTermDepositDevRoutes(
  app: FastifyInstance,
  deps: { termDeposits: TermDepositService },
): void {
  app.post(
    '/dev/term-deposits/mature',
    { config: { access: 'public' }, schema: { body: MatureSchema } },
    async (request) => {
      const body = request.body as z.infer<typeof MatureSchema>;
      const paid = await deps.termDeposits.matureNowForTesting(body.email);
      return { data: { paid } };
    },
  );
}
