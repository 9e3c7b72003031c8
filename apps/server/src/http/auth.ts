import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@florin/contracts';
import type { ActiveSession, SessionStore } from '../modules/auth/sessions.js';
import { randomToken, safeEqual } from '../security/secret-box.js';

export const SESSION_COOKIE = 'access_token';
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';

export type Auth = ActiveSession & { via: 'cookie' | 'bearer' };

/** Who may call a route. Every route says it: anyone, or a signed-in customer (staff roles come with the back office). */
export type Access = 'public' | 'customer';

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    /** The signed-in customer's session, or null. */
    auth: Auth | null;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    access?: Access;
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

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
}

/**
 * Finds the session of every API request (cookie from the browser, bearer
 * header from API clients) and refuses state-changing browser requests
 * without the CSRF header matching their cookie (double submit, bound to the
 * session once signed in). Bearer requests carry no ambient credential, so
 * they need no CSRF token.
 */
export function registerAuth(app: FastifyInstance, sessions: SessionStore, cookies: CookieSettings): void {
  app.decorateRequest('auth', null);

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const bearer = bearerToken(request);
    const cookie = request.cookies[SESSION_COOKIE];
    const token = bearer ?? cookie;
    const session = token ? await sessions.find(token) : null;
    request.auth = session ? { ...session, via: bearer ? 'bearer' : 'cookie' } : null;

    if (!UNSAFE_METHODS.has(request.method) || bearer) return;
    const header = request.headers[CSRF_HEADER];
    const sent = typeof header === 'string' ? header : '';
    const expected = request.auth ? request.auth.csrfToken : (request.cookies[CSRF_COOKIE] ?? '');
    if (!sent || !expected || !safeEqual(sent, expected)) throw new AppError('CSRF_FAILED');
  });

  // A browser without a CSRF cookie gets one with its first API answer.
  app.addHook('onSend', async (request, reply) => {
    if (!request.url.startsWith('/api/') || request.cookies[CSRF_COOKIE]) return;
    const setCookie = reply.getHeader('set-cookie');
    if (String(setCookie ?? '').includes(`${CSRF_COOKIE}=`)) return;
    reply.setCookie(CSRF_COOKIE, randomToken(24), { sameSite: 'strict', secure: cookies.secure, path: '/' });
  });
}

export function requireCustomer(request: FastifyRequest): Auth {
  if (!request.auth) throw new AppError('UNAUTHENTICATED');
  return request.auth;
}
