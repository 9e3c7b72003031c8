import type { FastifyInstance } from 'fastify';
import { createFirstApiToken, deleteApiToken, generateApiToken, listApiTokens } from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import type { ApiTokenService } from './service.js';

/** Making tokens is worth limiting more tightly than reading them. */
const GENERATE_LIMIT = { max: 20, timeWindow: '1 minute' };

/** Token settings: a signed-in browser only (no `token` rule, so API tokens are refused here). */
export function registerApiTokenRoutes(app: FastifyInstance, deps: { tokens: ApiTokenService }): void {
  const { tokens } = deps;
  const userIdOf = (request: Parameters<typeof requireCustomer>[0]) => requireCustomer(request).userId;

  registerRoute(app, createFirstApiToken, {
    access: 'customer',
    rateLimit: GENERATE_LIMIT,
    handler: async (request) => tokens.createFirst(userIdOf(request)),
  });

  registerRoute(app, generateApiToken, {
    access: 'customer',
    rateLimit: GENERATE_LIMIT,
    handler: async (request) => tokens.generateAnother(userIdOf(request), request.body),
  });

  registerRoute(app, listApiTokens, {
    access: 'customer',
    handler: async (request) => tokens.list(userIdOf(request), request.params.user_id),
  });

  registerRoute(app, deleteApiToken, {
    access: 'customer',
    handler: async (request) => tokens.delete(userIdOf(request), request.params.id),
  });
}
