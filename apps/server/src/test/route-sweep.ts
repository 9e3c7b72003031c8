import type { FastifyInstance } from 'fastify';
import { listRoutes, type AppRoute } from '../http/route.js';
import { cookieHeader, type Browser } from './browser.js';

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The routes the security sweeps call: every route of the running app but
 * the HEAD copies and the /dev/ helpers, which exist only outside production
 * (dev-routes.test.ts) for the e2e fixtures.
 */
export function sweptRoutes(app: FastifyInstance): AppRoute[] {
  const routes = listRoutes(app).filter((route) => route.method !== 'HEAD' && !route.url.startsWith('/dev/'));
  // A sweep must not quietly shrink: the app has well over a hundred routes.
  if (routes.length < 150) throw new Error(`only ${routes.length} routes to sweep`);
  return routes;
}

export type SweepCallers = { customer: Browser; staff: Browser; anonymous: Browser };

/** Who calls a route in a sweep: staff in the back office, the customer on theirs, a visitor elsewhere. */
export function callerOf(route: AppRoute, callers: SweepCallers): Browser {
  if (route.url.startsWith('/api/admin/')) return callers.staff;
  return route.access === 'customer' ? callers.customer : callers.anonymous;
}

/** The browser's cookies, and its CSRF header when `csrf` and the method changes state. */
export function browserHeaders(browser: Browser, method: string, csrf: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    cookie: cookieHeader(browser.cookies),
  };
  const token = browser.cookies.get('csrf_token');
  if (csrf && token && STATE_CHANGING.has(method)) headers['x-csrf-token'] = token;
  return headers;
}

/**
 * The GETs that write, and why that is no change of state a customer or staff
 * member asked for. Anything else a GET writes fails the sweep.
 */
export const WRITES_ON_GET: Record<string, { tables: string[]; why: string }> = {
  'GET /api/v1/two-factor-authentication/generate': {
    tables: ['users'],
    why: 'the spec names this GET; it keeps a pending secret that does nothing until confirmed with a code',
  },
  'GET /api/v1/user/wallet-addresses': {
    tables: ['deposit_address_counters', 'deposit_addresses'],
    why: "the customer's deposit addresses are made on first sight, once: a second call writes nothing",
  },
  'GET /api/admin/customers/:userId/investor-evidence/export': {
    tables: ['audit_log'],
    why: 'a download of personal data is audited',
  },
  'GET /api/admin/newsletter/subscribers.csv': {
    tables: ['audit_log'],
    why: 'a download of personal data is audited',
  },
};
