import { expect } from 'vitest';
import type { StaffRole } from '@florin/contracts';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { listAdminRoutes } from '../http/route.js';
import { hashPassword } from '../security/passwords.js';
import { awayFromTotpStepEdge, cookieHeader, createBrowser, oathtoolCode, type Browser } from './browser.js';
import { testClock } from './clock.js';

/**
 * Back-office helpers for API tests: staff members made directly in the
 * database, signed in through the real two-step API, and a sweep over every
 * /api/admin route that proves outsiders only ever see 404.
 */

export const STAFF_PASSWORD = 'staff-Password-for-tests-2026';

export type TestStaff = { id: number; email: string; password: string; role: StaffRole };
export type SignedInStaff = TestStaff & { browser: Browser; totpSecret: string };

let staffCount = 0;

/** A staff member with a password and no 2FA yet (their first sign-in enrolls it). */
export async function insertStaff(
  db: Kysely<DB>,
  options: { role: StaffRole; email?: string; password?: string },
): Promise<TestStaff> {
  staffCount += 1;
  const email = options.email ?? `staff${staffCount}.${Date.now()}@florin.test`;
  const password = options.password ?? STAFF_PASSWORD;
  const row = await db
    .insertInto('staff')
    .values({ email, role: options.role, password_hash: await hashPassword(password) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email, password, role: options.role };
}

const TOTP_STEP_MS = 30_000;
/** The last 30-second step each secret's code was made for: the server takes each step once. */
const usedSteps = new Map<string, number>();

/**
 * A code for `secret` the server has not seen yet, at the test clock's time:
 * the current step, or the next one (the server accepts one step either side
 * of now). When both are spent the clock moves on to the next step; nothing
 * waits for it. The code comes from oathtool, which shares no code with the
 * server's TOTP.
 */
export function freshTotpCode(secret: string): string {
  awayFromTotpStepEdge();
  const stepNow = () => Math.floor(testClock.now().getTime() / TOTP_STEP_MS);
  const last = usedSteps.get(secret);
  // This step and the next are both spent: the clock moves into the next, a second into it.
  if (last !== undefined && last > stepNow())
    testClock.advance(last * TOTP_STEP_MS - testClock.now().getTime() + 1_000);
  const current = stepNow();
  const step = last === undefined ? current : Math.max(current, last + 1);
  usedSteps.set(secret, step);
  return oathtoolCode(secret, new Date(step * TOTP_STEP_MS + 1_000));
}

/** Turns the customer's authenticator on through the API, as they would; its secret. */
export async function switchOnAuthenticator(browser: Browser): Promise<string> {
  const generated = await browser.get('/api/v1/two-factor-authentication/generate');
  const secret = generated.json<{ data: { secret: string } }>().data.secret;
  const toggled = await browser.post('/api/v1/two-factor-authentication/toggle', {
    passcode: freshTotpCode(secret),
    disable_2fa: 0,
  });
  expect(toggled.statusCode, toggled.body).toBe(200);
  return secret;
}

/**
 * Signs a staff member in through POST /api/admin/login and /login-2fa, in a
 * new browser (or the one given). Without `totpSecret` the member must be new
 * to 2FA: the secret the login answers is enrolled with its first code.
 */
export async function signInStaff(
  app: FastifyInstance,
  staff: TestStaff & { totpSecret?: string },
  browser: Browser = createBrowser(app),
): Promise<SignedInStaff> {
  const login = await browser.post('/api/admin/login', { email: staff.email, password: staff.password });
  if (login.statusCode !== 200) throw new Error(`staff login answered ${login.statusCode}: ${login.body}`);
  const answer = login.json<{ login_token: string; enrollment: { secret: string } | null }>();
  const totpSecret = answer.enrollment?.secret ?? staff.totpSecret;
  if (!totpSecret) throw new Error(`${staff.email} has 2FA, but no secret was given`);
  const second = await browser.post('/api/admin/login-2fa', {
    login_token: answer.login_token,
    code: freshTotpCode(totpSecret),
  });
  if (second.statusCode !== 200)
    throw new Error(`staff login-2fa answered ${second.statusCode}: ${second.body}`);
  return { ...staff, browser, totpSecret };
}

/** A new staff member of `role`, signed in (2FA enrolled on the way). */
export async function signedInStaff(app: FastifyInstance, db: Kysely<DB>, role: StaffRole) {
  return signInStaff(app, await insertStaff(db, { role }));
}

/** `compliance` puts the customer's account on hold, as a sanctions match would. */
export async function putOnHold(compliance: SignedInStaff, userId: number): Promise<void> {
  const held = await compliance.browser.post(`/api/admin/compliance/cases/${userId}/hold`, {
    reason: 'Sanctions screening match under review.',
  });
  expect(held.statusCode, held.body).toBe(200);
}

export type AdminRouteAnswer = { route: string; status: number; code?: string };

/** Paths no route has: the door must answer them exactly like the real ones. */
const UNKNOWN_ADMIN_PATHS = [
  '/api/admin',
  '/api/admin/',
  '/api/admin/does-not-exist',
  '/api/admin/staff/1/x',
];

/**
 * Calls every route registered under /api/admin/ (found on the app itself,
 * so routes added later are swept too) whose access is not public, plus a
 * few paths that do not exist, as `browser` (its cookies and CSRF header;
 * anonymous when omitted). Path parameters are 1, bodies empty. Returns each
 * answer; an outsider's must all be 404 NOT_FOUND.
 */
export async function callEveryAdminRoute(
  app: FastifyInstance,
  browser?: Browser,
  extraHeaders: Record<string, string> = {},
): Promise<AdminRouteAnswer[]> {
  const routes = listAdminRoutes(app)
    .filter((route) => route.access !== 'public')
    .map((route) => ({ method: route.method, url: route.url.replace(/:\w+/g, '1') }));
  const unknown = UNKNOWN_ADMIN_PATHS.flatMap((url) => ['GET', 'POST'].map((method) => ({ method, url })));
  const answers: AdminRouteAnswer[] = [];
  for (const { method, url } of [...routes, ...unknown]) {
    const headers: Record<string, string> = { ...extraHeaders };
    if (browser && browser.cookies.size > 0) {
      headers.cookie = cookieHeader(browser.cookies);
    }
    const csrf = browser?.cookies.get('csrf_token');
    if (csrf && method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] = csrf;
    const hasBody = !['GET', 'HEAD', 'DELETE'].includes(method);
    const response: LightMyRequestResponse = await app.inject({
      method: method as InjectOptions['method'],
      url,
      headers,
      remoteAddress: browser?.ip,
      ...(hasBody ? { payload: {} } : {}),
    });
    // An export a role may read answers CSV, not an error body.
    const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
    const code = method === 'HEAD' || !isJson ? undefined : response.json<{ code?: string }>().code;
    answers.push({ route: `${method} ${url}`, status: response.statusCode, code });
  }
  return answers;
}

/** The routes of `callEveryAdminRoute` that answered anything but 404 NOT_FOUND (HEAD: anything but 404). */
export function answersOtherThanNotFound(answers: readonly AdminRouteAnswer[]): AdminRouteAnswer[] {
  return answers.filter(
    (answer) => answer.status !== 404 || (answer.code !== undefined && answer.code !== 'NOT_FOUND'),
  );
}
