import type { FastifyRequest } from 'fastify';

/**
 * The path of the route the router matched (`/api/v1/orders/:id`), or undefined when none did.
 * Protections decide on it, never on request.url: the router decodes percent-escapes, so
 * /%61pi/v1/balance reaches GET /api/v1/balance though its raw URL does not start with /api/.
 */
export function matchedRoute(request: FastifyRequest): string | undefined {
  return request.routeOptions.url;
}

/** Whether the request reached a route of the API (/api/…), the back office's included. */
export function isApiRoute(request: FastifyRequest): boolean {
  return matchedRoute(request)?.startsWith('/api/') ?? false;
}

/**
 * Whether an answer is private unless it says otherwise: an API route's, or one no route gave (a 404,
 * also what a route that hands over to the not-found handler sends, as @fastify/static does).
 */
export function isPrivateByDefault(request: FastifyRequest): boolean {
  return matchedRoute(request) === undefined || isApiRoute(request);
}
