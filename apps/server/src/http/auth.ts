import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_TOKEN_PREFIX, AppError, UNATTENDED_HEADER, type StaffRole } from '@florin/contracts';
import { randomToken, safeEqual } from '../security/secret-box.js';
import { isApiRoute, matchedRoute } from './matched-route.js';

export const SESSION_COOKIE = 'access_token';
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
/** The staff session's cookie: separate from the customer's, and sent only to the back-office API. */
export const STAFF_SESSION_COOKIE = 'staff_token';
export const ADMIN_API_PREFIX = '/api/admin';

/** A signed-in customer's session, as modules/auth/sessions.ts finds it. */
export type ActiveSession = { id: string; userId: number; csrfToken: string; terminatedAt: Date | null };

/** A signed-in staff member's session, as modules/admin/sessions.ts finds it. */
export type StaffSession = {
  sessionId: string;
  staffId: number;
  email: string;
  role: StaffRole;
  csrfToken: string;
};

/** Finds the session a token opens; the session stores of modules/auth and modules/admin are given in. */
export type SessionFinder<S> = { find(token: string, options: { isAttended: boolean }): Promise<S | null> };

/** What an API token lets its holder do (modules/api-tokens). */
export type ApiTokenGrant = { id: string; permissionId: number };

/**
 * A signed-in customer: by session (cookie or bearer session token) or by API
 * token (`Authorization: Bearer flr_…`, modules/api-tokens), then with the token's grant.
 */
export type Auth = ActiveSession & { via: 'cookie' | 'bearer' | 'api-token'; apiToken?: ApiTokenGrant };

/**
 * What an API token may do on a customer route: read (every permission), trade (TRADE),
 * withdraw (either WITHDRAW permission). A customer route without one refuses API tokens.
 */
export type TokenUse = 'read' | 'trade' | 'withdraw';

/** Staff whose role is listed (a superadmin always may). Only for routes under /api/admin/. */
export type StaffAccess = { staff: readonly StaffRole[] };

/** Any signed-in staff member, whatever their role. */
export const ANY_STAFF: StaffAccess = { staff: ['compliance', 'finance', 'support'] };
/** Superadmins only (they are admitted to every staff route anyway). */
export const SUPERADMIN_ONLY: StaffAccess = { staff: [] };

/** Who may call a route. Every route says it: anyone, a signed-in customer, or staff of some roles. */
export type Access = 'public' | 'customer' | StaffAccess;

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    /** The signed-in customer's session, or null (always null under /api/admin/). */
    auth: Auth | null;
    /** The signed-in staff member's session, or null (always null outside /api/admin/). */
    staff: StaffSession | null;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    access?: Access;
    /** On customer routes: what an API token may do here (none: tokens are refused). */
    token?: TokenUse;
    /** A change a terminated account may still make: withdrawing, signing out, closing (issue 13). */
    allowWhenTerminated?: boolean;
    /** An upload: the handler reads a multipart body (Endpoint.multipart). */
    multipart?: boolean;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type CookieSettings = { secure: boolean };

export function setSessionCookies(
  reply: FastifyReply,
  session: { token: string; csrfToken: string; expiresIn: number },
  settings: CookieSettings,
): void {
  const maxAge = Math.floor(session.expiresIn / 86_400) * 86_400;
  reply.setCookie(SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
    maxAge,
  });
  reply.setCookie(CSRF_COOKIE, session.csrfToken, {
    sameSite: 'strict',
    secure: settings.secure,
    path: '/',
    maxAge,
  });
}

export function clearSessionCookies(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.setCookie(CSRF_COOKIE, randomToken(24), { sameSite: 'strict', secure: settings.secure, path: '/' });
}

/**
 * The staff cookie lives as long as the session may (8 hours), is Strict and
 * reaches only /api/admin. The CSRF cookie is the one customers use: the
 * web app reads one cookie, so signing in on one side replaces the other's
 * (docs/decisions/028-staff-sign-in.md).
 */
export function setStaffSessionCookies(
  reply: FastifyReply,
  session: { token: string; csrfToken: string; expiresIn: number },
  settings: CookieSettings,
): void {
  reply.setCookie(STAFF_SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: settings.secure,
    path: ADMIN_API_PREFIX,
    maxAge: session.expiresIn,
  });
  reply.setCookie(CSRF_COOKIE, session.csrfToken, {
    sameSite: 'strict',
    secure: settings.secure,
    path: '/',
    maxAge: session.expiresIn,
  });
}

export function clearStaffSessionCookies(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(STAFF_SESSION_COOKIE, { path: ADMIN_API_PREFIX });
  reply.setCookie(CSRF_COOKIE, randomToken(24), { sameSite: 'strict', secure: settings.secure, path: '/' });
}

/** /api/admin, /api/admin/…, /api/admin?…: the back office's API. */
export function isAdminApiPath(url: string): boolean {
  return (
    url.startsWith(ADMIN_API_PREFIX) &&
    (url.length === ADMIN_API_PREFIX.length || '/?'.includes(url.charAt(ADMIN_API_PREFIX.length)))
  );
}

export function isStaffAccess(access: unknown): access is StaffAccess {
  return typeof access === 'object' && access !== null && Array.isArray((access as StaffAccess).staff);
}

/** A superadmin may do anything in the back office; everyone else only what their role is listed for. */
export function staffMayCall(staff: StaffSession | null, access: StaffAccess): boolean {
  return staff !== null && (staff.role === 'superadmin' || access.staff.includes(staff.role));
}

/** Whether a request reached a back-office route (matchedRoute: /api/%61dmin/staff reaches /api/admin/staff). */
function isAdminRequest(request: FastifyRequest): boolean {
  return isAdminApiPath(matchedRoute(request) ?? '');
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
}

/**
 * A state-changing request from a browser must show it comes from our own
 * pages: the CSRF header equal to the expected token (double submit), and no
 * sign of another site — an Origin whose host is not ours (or "null", from
 * sandboxes and privacy redirects) or Sec-Fetch-Site: cross-site. Hosts are
 * compared without ports, as cookies are.
 */
function requireBrowserProof(request: FastifyRequest, expected: string): void {
  const header = request.headers[CSRF_HEADER];
  const sent = typeof header === 'string' ? header : '';
  if (!sent || !expected || !safeEqual(sent, expected) || isFromAnotherSite(request))
    throw new AppError('CSRF_FAILED');
}

function isFromAnotherSite(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  return URL.parse(origin)?.hostname !== request.hostname;
}

/**
 * Finds the session of every API request (cookie from the browser, bearer
 * header from API clients) and refuses state-changing browser requests
 * without the CSRF header matching their cookie (double submit, bound to the
 * session once signed in). Bearer requests carry no ambient credential, so
 * they need no CSRF token.
 */
export function registerAuth(
  app: FastifyInstance,
  sessions: SessionFinder<ActiveSession>,
  cookies: CookieSettings,
): void {
  app.decorateRequest('auth', null);

  app.addHook('onRequest', async (request) => {
    // The back office has its own sessions (registerStaffAuth); a customer's means nothing there.
    if (!isApiRoute(request) || isAdminRequest(request)) return;
    const bearer = bearerToken(request);
    // An API token is no session: modules/api-tokens signs it in, and it carries no cookie to need CSRF.
    if (bearer?.startsWith(API_TOKEN_PREFIX)) return;
    const cookie = request.cookies[SESSION_COOKIE];
    const token = bearer ?? cookie;
    const session = token ? await sessions.find(token, { isAttended: isAttended(request) }) : null;
    request.auth = session ? { ...session, via: bearer ? 'bearer' : 'cookie' } : null;

    if (!UNSAFE_METHODS.has(request.method) || bearer) return;
    requireBrowserProof(
      request,
      request.auth ? request.auth.csrfToken : (request.cookies[CSRF_COOKIE] ?? ''),
    );
  });

  // A terminated account may read, withdraw and leave; every other change is refused (issue 13),
  // before validation, so the answer does not depend on what was sent.
  app.addHook('preValidation', (request, _reply, done) => {
    const { access, allowWhenTerminated } = request.routeOptions.config;
    const terminatedAt = request.auth?.terminatedAt;
    const isReading = request.method === 'GET' || request.method === 'HEAD';
    if (
      access !== 'customer' ||
      !terminatedAt ||
      allowWhenTerminated ||
      isReading ||
      terminatedAt > new Date()
    ) {
      done();
      return;
    }
    done(new AppError('ACCOUNT_TERMINATED'));
  });

  // A browser without a CSRF cookie gets one with its first API answer.
  app.addHook('onSend', async (request, reply) => {
    if (!isApiRoute(request) || request.cookies[CSRF_COOKIE]) return;
    const setCookie = reply.getHeader('set-cookie');
    if (String(setCookie ?? '').includes(`${CSRF_COOKIE}=`)) return;
    reply.setCookie(CSRF_COOKIE, randomToken(24), { sameSite: 'strict', secure: cookies.secure, path: '/' });
  });
}

/**
 * Whether the signed-in person asked for this request: the web app marks the ones a page sends by itself
 * while nobody uses it (UNATTENDED_HEADER), which do not hold a session open past its idle end.
 */
function isAttended(request: FastifyRequest): boolean {
  return request.headers[UNATTENDED_HEADER] === undefined;
}

export function requireCustomer(request: FastifyRequest): Auth {
  if (!request.auth) throw new AppError('UNAUTHENTICATED');
  return request.auth;
}

/**
 * The back office's door. For every request under /api/admin/ it finds the
 * staff session (the staff_token cookie only: no bearer tokens, so every
 * change from staff carries the CSRF header) and refuses, with 404 as for a
 * path that does not exist, anyone the route's access does not admit: the
 * anonymous, customers, disabled staff and staff of other roles. A route
 * under /api/admin/ that names no access admits nobody. This runs before
 * validation, so not even a 422 tells an outsider that a route exists.
 */
export function registerStaffAuth(app: FastifyInstance, sessions: SessionFinder<StaffSession>): void {
  app.decorateRequest('staff', null);

  app.addHook('onRequest', async (request) => {
    if (!isAdminRequest(request)) return;
    const token = request.cookies[STAFF_SESSION_COOKIE];
    request.staff = token ? await sessions.find(token, { isAttended: isAttended(request) }) : null;

    const access = request.routeOptions.config.access;
    const isAdmitted = access === 'public' || (isStaffAccess(access) && staffMayCall(request.staff, access));
    if (!isAdmitted) throw new AppError('NOT_FOUND');

    if (!UNSAFE_METHODS.has(request.method)) return;
    requireBrowserProof(
      request,
      request.staff ? request.staff.csrfToken : (request.cookies[CSRF_COOKIE] ?? ''),
    );
  });
}

/** The signed-in staff member of a route whose access names staff roles (the door has already checked the role). */
export function requireStaff(request: FastifyRequest): StaffSession {
  if (!request.staff) throw new AppError('NOT_FOUND');
  return request.staff;
}
