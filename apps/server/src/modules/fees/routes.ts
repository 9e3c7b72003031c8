import type { FastifyInstance } from 'fastify';
import { getFees } from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import type { FeesService } from './service.js';

/** Public: the fees page shows them before sign-in. */
export function registerFeesRoutes(app: FastifyInstance, deps: { fees: FeesService }): void {
  registerRoute(app, getFees, {
    access: 'public',
    handler: () => deps.fees.getFees(),
  });
}
