import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, parseCustomerInput, type Endpoint } from '@florin/contracts';
import { UNACCEPTED_CONTENT_TYPE, zodFieldErrors } from './errors.js';
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

/**
 * A route's own request limit, counted per IP address or, with `per: 'customer'`, per signed-in
 * customer (so customers behind one office address do not share a count, and one customer's
 * count does not start afresh from another address). `message` says how long to wait when the
 * window is longer than the minute RATE_LIMITED's own text names.
 */
export type RouteRateLimit = {
  max: number;
  timeWindow: string;
  per?: 'ip' | 'customer';
  message?: string;
};

export type RouteOptions<E extends Endpoint> = {
  access: Access;
  /** Tighter than the global limit, for routes worth guessing at (login, codes) or costly to repeat (uploads). */
  rateLimit?: RouteRateLimit;
  /**
   * Customer routes: what an API token may do here. Unset: the rule in
   * modules/api-tokens/token-rules.ts, and without one there, tokens are refused.
   */
  token?: TokenUse;
  /** A change a terminated account may still make (withdrawals, sign-out, closing): see registerAuth. */
  allowWhenTerminated?: boolean;
  handler: (request: RouteRequest<E>, reply: FastifyReply) => Promise<Output<E>>;
};

/** A route as the running app has it: what the sweeps in security/ call, and with which schemas. */
export type AppRoute = {
  method: string;
  url: string;
  access: Access | undefined;
  schema: Pick<FastifySchema, 'body' | 'querystring' | 'params'>;
};

const routesByApp = new WeakMap<FastifyInstance, AppRoute[]>();

/** Called first in buildApp, so every route added after it is listed (with the HEAD copies of GETs). */
export function trackRoutes(app: FastifyInstance): void {
  const routes: AppRoute[] = [];
  routesByApp.set(app, routes);
  app.addHook('onRoute', (route) => {
    const { body, querystring, params } = route.schema ?? {};
    for (const method of [route.method].flat())
      routes.push({
        method,
        url: route.url ?? route.path,
        access: route.config?.access,
        schema: { body, querystring, params },
      });
  });
}

/** Every route registered so far: the tests that must cover all of them read them here. */
export function listRoutes(app: FastifyInstance): readonly AppRoute[] {
  return routesByApp.get(app) ?? [];
}

/** Every route under /api/admin/, for tests that prove none of them shows itself to outsiders. */
export function listAdminRoutes(app: FastifyInstance): readonly AppRoute[] {
  return listRoutes(app).filter((route) => isAdminApiPath(route.url));
}

/**
 * The path of a string holding a NUL character, if any. Walked with a list,
 * not by recursion: a body of 5,000 nested arrays would overflow the stack.
 */
function nulCharacterAt(value: unknown, path: string): string | null {
  const pending: [unknown, string][] = [[value, path]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, at] = next;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return at;
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, inner] of Object.entries(current)) pending.push([inner, at ? `${at}.${key}` : key]);
    }
  }
  return null;
}

/** The charset a body declares (`; charset=utf-7`), lower-cased; undefined when it declares none. */
function declaredCharset(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase();
}

/**
 * What every route refuses before its contract is read: a multipart body
 * where the route reads none (only uploads do); a body in another charset
 * than UTF-8, which the parser would read as UTF-8 all the same (RFC 8259:
 * JSON is UTF-8), so what the client meant and what we act on could differ;
 * and a NUL character anywhere in the path, the query or the body.
 * PostgreSQL text cannot hold one, and no field of ours needs one, so it is
 * bad input, not a database error.
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.isMultipart() && !request.routeOptions.config.multipart) {
      done(UNACCEPTED_CONTENT_TYPE);
      return;
    }
    const charset = declaredCharset(request.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(UNACCEPTED_CONTENT_TYPE);
      return;
    }
    const field =
      nulCharacterAt({ ...(request.params as object), ...(request.query as object) }, '') ??
      nulCharacterAt(request.body, '');
    if (field === null) done();
    else
      done(
        new AppError('VALIDATION_FAILED', undefined, {
          [field || 'body']: ['This value holds a character that is not allowed.'],
        }),
      );
  });
}

function isStrictObject(schema: z.ZodType): boolean {
  if (!(schema instanceof z.ZodObject)) return true;
  const catchall = schema._zod.def.catchall;
  return catchall !== undefined && catchall._zod.def.type === 'never';
}

/** @fastify/rate-limit's route options: sessions are found (onRequest) before the limit counts. */
function rateLimitOptions({ per, message, ...window }: RouteRateLimit) {
  return {
    ...window,
    ...(per === 'customer'
      ? {
          keyGenerator: (request: FastifyRequest) =>
            request.auth ? `customer:${request.auth.userId}` : request.ip,
        }
      : {}),
    ...(message ? { errorResponseBuilder: () => new AppError('RATE_LIMITED', message) } : {}),
  };
}

/**
 * A contract route's validator: zod as fastify-type-provider-zod runs it, but in the customer's
 * words (parseCustomerInput), and refused as the 422 with its field map.
 */
function compileCustomerValidator({ schema, httpPart }: { schema: unknown; httpPart?: string }) {
  // registerRoute gives each part (body, querystring, params) a zod schema of the contract's.
  const contract = schema as z.ZodType;
  return (data: unknown) => {
    const result = parseCustomerInput(contract, data);
    if (result.success) return { value: result.data };
    const errors = zodFieldErrors(result.error.issues, httpPart ?? 'body');
    return { error: new AppError('VALIDATION_FAILED', undefined, errors) };
  };
}

/** A change that takes no fields still refuses any it is sent (no body, null or {} is fine); uploads read their own. */
const NO_FIELDS = z.strictObject({}).nullish();

function bodyOf(endpoint: Endpoint): z.ZodType | undefined {
  if (endpoint.body) return endpoint.body;
  if (endpoint.method === 'GET' || endpoint.multipart) return undefined;
  return NO_FIELDS;
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
  const body = bodyOf(endpoint);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path.replace(/\{(\w+)\}/g, ':$1'),
    schema: {
      summary: endpoint.summary,
      ...(body ? { body } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      response: endpoint.responses,
    },
    validatorCompiler: compileCustomerValidator,
    config: {
      access: options.access,
      ...(options.rateLimit ? { rateLimit: rateLimitOptions(options.rateLimit) } : {}),
      ...(options.token ? { token: options.token } : {}),
      ...(options.allowWhenTerminated ? { allowWhenTerminated: true } : {}),
      ...(endpoint.multipart ? { multipart: true } : {}),
    },
    // Before validation, as the back office's door: an anonymous caller learns nothing from a 422.
    ...(access === 'customer'
      ? {
          preValidation: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
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
