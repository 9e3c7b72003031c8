import type { FastifyInstance } from 'fastify';
import { getHealth, getReadiness } from '@florin/contracts';
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
}
