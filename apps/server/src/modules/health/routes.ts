import type { FastifyInstance } from 'fastify';
import {
  getHealth,
  getReadiness,
  LEDGER_CHECK_LISTED_VIOLATIONS,
  runAdminLedgerCheck,
} from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import type { createHealthService } from './service.js';

export function registerHealthRoutes(
  app: FastifyInstance,
  health: ReturnType<typeof createHealthService>,
): void {
  registerRoute(app, getHealth, {
    access: 'public',
    handler: async (_request, reply) => {
      const result = await health.getHealth();
      reply.status(result.status === 'ok' ? 200 : 503);
      return result;
    },
  });
  registerRoute(app, getReadiness, {
    access: 'public',
    handler: async (_request, reply) => {
      const result = await health.getReadiness();
      reply.status(result.status === 'ready' ? 200 : 503);
      return result;
    },
  });
  // `npm run ledger:check` for a running server, whose embedded folder is locked to it: for the staff who
  // answer for the money. The back office's door (registerStaffAuth, added later) still guards it: Fastify
  // runs onRequest hooks on every route of the instance, whenever each was added.
  registerRoute(app, runAdminLedgerCheck, {
    access: { staff: ['compliance', 'finance'] },
    handler: async () => {
      const result = await health.checkLedgerNow();
      return {
        data: {
          ok: result.ok,
          engine: health.engine,
          checked_at: result.checkedAt.toISOString(),
          violation_count: result.violations.length,
          violations: result.violations.slice(0, LEDGER_CHECK_LISTED_VIOLATIONS),
        },
      };
    },
  });
}
