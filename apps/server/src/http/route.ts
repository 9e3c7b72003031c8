import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, type Endpoint } from '@florin/contracts';
import {
  isAdminApiPath,
  isStaffAccess,
  requireCustomer,
  staffMayCall,
  type Access,
  type TokenUse,
} from './auth.js';

type Input<T> = T extends z.ZodType ? z.output<T> : undefined;
type Output<E extends Endpoint> = z.input<E['responses'][keyof E['responses']]>;

export type RouteRequest<E extends Endpoint> = FastifyRequest & {
  body: Input<E['body']>;
  query: Input<E['query']>;
  params: Input<E['params']>;
};

export type RouteOptions<E extends Endpoint> = {
  access: Access;
  /** Tighter than the global limit, for routes worth guessing at (login, codes). */
  rateLimit?: { max: number; timeWindow: string };
  /**
   * Customer routes: what an API token may do here. Unset: the rule in
   * modules/api-tokens/token-rules.ts, and without one there, tokens are refused.
   */
  token?: TokenUse;
  /** A change a terminated account may still make (withdrawals, sign-out, closing): see registerAuth. */
  allowWhenTerminated?: boolean;
  handler: (request: RouteRequest<E>, reply: FastifyReply) => Promise<Output<E>>;
};

function isStrictObject(schema: z.ZodType): boolean {
  if (!(schema instanceof z.ZodObject)) return true;
  const catchall = schema._zod.def.catchall;
  return catchall !== undefined && catchall._zod.def.type === 'never';
}

/**
 * Registers one contract endpoint. Bodies must be strict objects, so a field
 * the contract does not name is a 422, not silently dropped.
 */
export function registerRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: RouteOptions<E>,
): void {
  if (endpoint.body && !isStrictObject(endpoint.body)) {
    throw new Error(`${endpoint.method} ${endpoint.path}: the body schema must be z.strictObject`);
  }
  // Staff roles mean something only behind the back office's door (registerStaffAuth), and that
  // door admits no customer session: so staff access exactly under /api/admin/, and there only it or public.
  const isAdminPath = isAdminApiPath(endpoint.path);
  const { access } = options;
  if (isStaffAccess(access) !== isAdminPath && !(isAdminPath && access === 'public')) {
    throw new Error(
      `${endpoint.method} ${endpoint.path}: staff access belongs to /api/admin/ routes and only there`,
    );
  }
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path.replace(/\{(\w+)\}/g, ':$1'),
    schema: {
      summary: endpoint.summary,
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      response: endpoint.responses,
    },
    config: {
      access: options.access,
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(options.token ? { token: options.token } : {}),
      ...(options.allowWhenTerminated ? { allowWhenTerminated: true } : {}),
    },
    ...(access === 'customer'
      ? {
          preHandler: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
            requireCustomer(request);
            done();
          },
        }
      : {}),
    // The door (registerStaffAuth) has refused outsiders before validation; this is the second lock.
    ...(isStaffAccess(access)
      ? {
          preHandler: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
            if (!staffMayCall(request.staff, access)) throw new AppError('NOT_FOUND');
            done();
          },
        }
      : {}),
    handler: (request, reply) => options.handler(request as RouteRequest<E>, reply),
  });
}
