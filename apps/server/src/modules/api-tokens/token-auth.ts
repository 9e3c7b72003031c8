import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_TOKEN_PREFIX,
  API_TOKEN_TEXTS,
  AppError,
  createFirstApiToken,
  deleteApiToken,
  generateApiToken,
  getBalances,
  listApiTokens,
} from '@florin/contracts';
import type { TokenUse } from '../../http/auth.js';
import type { ApiTokenService, TokenRateLimiter } from './service.js';
import { isPermitted, routeKey, TOKEN_RULES } from './token-rules.js';
import { matchedRoute } from '../../http/matched-route.js';

export type CustomerRoute = { method: string; url: string; token: TokenUse | undefined };

const customerRoutesByApp = new WeakMap<FastifyInstance, CustomerRoute[]>();

/** Every customer route registered so far with its token rule, for the permission matrix test and the docs. */
export function listCustomerRoutes(app: FastifyInstance): readonly CustomerRoute[] {
  return customerRoutesByApp.get(app) ?? [];
}

const TOKEN_ROUTES = new Set(
  [createFirstApiToken, generateApiToken, listApiTokens, deleteApiToken].map((endpoint) =>
    routeKey(endpoint.method, endpoint.path),
  ),
);

/**
 * A URL fit for the log: the value of any `token=` in its query blanked (GET /api/v1/balance?token=…),
 * however its name is escaped: the query parser reads ?%74oken=… as token too.
 */
export function withoutTokenInUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals);
      return equals !== -1 && decodedName(name).toLowerCase() === 'token' ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, start + 1)}${pairs.join('&')}`;
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** The token a request presents: `Authorization: Bearer flr_…`, or `?token=` on GET /api/v1/balance only (spec 002 §7). */
function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith(`Bearer ${API_TOKEN_PREFIX}`)) return header.slice(7).trim();
  if (request.method === 'GET' && matchedRoute(request) === getBalances.path) {
    const { token } = request.query as { token?: unknown };
    if (typeof token === 'string' && token.startsWith(API_TOKEN_PREFIX)) return token;
  }
  return undefined;
}

/**
 * API tokens on the customer API. Registered before any route: it gives each
 * customer route its token rule (RouteOptions.token, else TOKEN_RULES), and
 * on each request presenting a token it signs the token's customer in, or
 * refuses: unknown or deleted 401; outside the token's IP allowlist 403; a
 * route the permission does not reach 403; over the token's own rate 429.
 * The log names the token's id, never the token.
 */
export function registerApiTokenAuth(
  app: FastifyInstance,
  deps: { tokens: ApiTokenService; limiter: TokenRateLimiter },
): void {
  const routes: CustomerRoute[] = [];
  customerRoutesByApp.set(app, routes);
  app.addHook('onRoute', (route) => {
    if (route.config?.access !== 'customer') return;
    const url = route.url ?? route.path;
    const methods = [route.method].flat();
    route.config.token ??= TOKEN_RULES.get(routeKey(String(methods[0]), url));
    for (const method of methods)
      if (method !== 'HEAD') routes.push({ method, url, token: route.config.token });
  });

  app.addHook('onRequest', async (request, reply) => {
    const token = presentedToken(request);
    if (!token) return;
    const { access, token: use } = request.routeOptions.config;
    // Tokens sign in only where a customer session would; elsewhere they mean nothing.
    if (access !== 'customer') return;
    const holder = await deps.tokens.authenticate(token, request.ip);
    // The request's later lines and its completion line name the token by its id.
    request.log = request.log.child({ apiTokenId: holder.id });
    reply.log = request.log;
    if (!use) {
      const url = matchedRoute(request) ?? '';
      throw new AppError(
        'FORBIDDEN',
        TOKEN_ROUTES.has(routeKey(request.method, url))
          ? API_TOKEN_TEXTS.tokensCannotManageTokens
          : API_TOKEN_TEXTS.notPermitted,
      );
    }
    if (!isPermitted(holder.permissionId, use)) throw new AppError('FORBIDDEN', API_TOKEN_TEXTS.notPermitted);
    if (!deps.limiter.take(holder.id)) {
      void reply.header('retry-after', '60');
      throw new AppError('RATE_LIMITED', API_TOKEN_TEXTS.rateLimited);
    }
    request.auth = {
      id: `api-token:${holder.id}`,
      userId: holder.userId,
      csrfToken: '',
      terminatedAt: holder.terminatedAt,
      via: 'api-token',
      apiToken: { id: holder.id, permissionId: holder.permissionId },
    };
  });
}
