import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRoute } from '../http/route.js';
import { liveCustomer } from '../modules/fiat/fiat.test-kit.js';
import { signedInStaff } from '../test/admin.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createBrowser, type Browser } from '../test/browser.js';
import { changedTables, databaseFingerprint } from '../test/fingerprint.js';
import { browserHeaders, callerOf, STATE_CHANGING, sweptRoutes, WRITES_ON_GET } from '../test/route-sweep.js';

/**
 * Sweeps over every route the running app has (read from the app, so a route
 * added tomorrow is swept too): the security headers on every answer, the
 * CSRF proof and the Origin on every change, and no change from any GET.
 */

let t: TestApp;
let customer: Browser;
let customerId: number;
let staff: Browser;
let anonymous: Browser;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  const live = await liveCustomer(t);
  customer = live.browser;
  customerId = live.id;
  staff = (await signedInStaff(t.app, t.database.db, 'superadmin')).browser;
  anonymous = createBrowser(t.app);
  await anonymous.get('/api/v1/csrf');
});
afterAll(async () => {
  await t.close();
});

/** The route called by `browser` with its cookies; the CSRF header and extra headers as given. */
async function call(
  route: AppRoute,
  browser: Browser,
  options: { csrf: boolean; headers?: Record<string, string> },
): Promise<LightMyRequestResponse> {
  const headers = { ...browserHeaders(browser, route.method, options.csrf), ...options.headers };
  return t.app.inject({
    method: route.method as InjectOptions['method'],
    // A customer's own id where a path names one (ids are random: 1 is nobody), so staff reads reach real code.
    url: route.url
      .replace(/\*$/, 'anything')
      .replace(/:(\w+)/g, (_all, name: string) => (/^user_?id$/i.test(name) ? String(customerId) : '1')),
    headers,
    remoteAddress: browser.ip,
    ...(STATE_CHANGING.has(route.method) ? { payload: {} } : {}),
  });
}

describe('every answer carries the security headers', () => {
  it('HSTS, a CSP that forbids framing, nosniff and no referrer on every route; no-store on every private API answer', async () => {
    const missing: string[] = [];
    for (const route of sweptRoutes(t.app)) {
      // Changes go without the CSRF header: refused, so the sweep signs nobody out and moves nothing.
      const response = await call(route, callerOf(route, { customer, staff, anonymous }), { csrf: false });
      const name = `${route.method} ${route.url} (${response.statusCode})`;
      const headers = response.headers;
      if (!String(headers['strict-transport-security']).includes('max-age=')) missing.push(`${name}: HSTS`);
      if (!String(headers['content-security-policy']).includes("frame-ancestors 'none'"))
        missing.push(`${name}: frame-ancestors`);
      if (headers['x-content-type-options'] !== 'nosniff') missing.push(`${name}: nosniff`);
      if (headers['referrer-policy'] !== 'no-referrer') missing.push(`${name}: referrer-policy`);
      // Public answers (the site's settings, prices) may be cached; nothing of a customer's or staff's may.
      if (
        route.url.startsWith('/api/') &&
        route.access !== 'public' &&
        headers['cache-control'] !== 'no-store'
      )
        missing.push(`${name}: cache-control ${String(headers['cache-control'])}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('paths the router cannot read', () => {
  it('answers a path parameter that is not UTF-8 or is too long with our refusal and the same security headers', async () => {
    for (const url of [
      '/api/admin/motd/%zz',
      '/api/v1/user/documents/%E0%A4%A/file',
      `/api/v1/delete-permission/${'x'.repeat(300)}`,
    ]) {
      const response = await t.app.inject({ method: 'POST', url, payload: {} });
      expect(response.statusCode, url).toBeLessThan(500);
      expect(Object.keys(response.json<object>()).sort(), url).toEqual(['code', 'message', 'request_id']);
      expect(String(response.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
      expect(response.headers['strict-transport-security'], url).toContain('max-age=');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });
});

describe('every change needs the proof that it comes from our own pages', () => {
  const FOREIGN: Array<[string, Record<string, string>]> = [
    ['no CSRF header', {}],
    ['a foreign Origin', { origin: 'https://florin.example.evil.test' }],
    ['an opaque Origin', { origin: 'null' }],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
  ];

  it('refuses every state-changing route with 403 CSRF_FAILED and changes nothing', async () => {
    const before = await databaseFingerprint(t.database.db);
    const answers: string[] = [];
    const changing = sweptRoutes(t.app).filter((route) => STATE_CHANGING.has(route.method));
    for (const route of changing) {
      for (const [label, headers] of FOREIGN) {
        const response = await call(route, callerOf(route, { customer, staff, anonymous }), {
          csrf: label !== 'no CSRF header',
          headers,
        });
        const code = response.json<{ code?: string }>().code;
        if (response.statusCode !== 403 || code !== 'CSRF_FAILED')
          answers.push(`${route.method} ${route.url} with ${label}: ${response.statusCode} ${code}`);
      }
    }
    expect(answers).toEqual([]);
    expect(changedTables(before, await databaseFingerprint(t.database.db))).toEqual([]);
  });

  it('lets the same request through from our own origin (the check is not simply closed)', async () => {
    const logout = sweptRoutes(t.app).find((route) => route.url === '/api/v1/logout');
    if (!logout) throw new Error('POST /api/v1/logout is not registered');
    const browser = (await liveCustomer(t)).browser;
    const response = await call(logout, browser, {
      csrf: true,
      headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('no GET changes anything', () => {
  it('leaves every table as it was after each GET route, called by the customer, staff and a visitor', async () => {
    const writes: string[] = [];
    const wrote = new Set<string>();
    for (const route of sweptRoutes(t.app).filter((candidate) => candidate.method === 'GET')) {
      const key = `${route.method} ${route.url}`;
      const before = await databaseFingerprint(t.database.db);
      for (const browser of [customer, staff, anonymous])
        expect((await call(route, browser, { csrf: false })).statusCode).toBeLessThan(500);
      const changed = changedTables(before, await databaseFingerprint(t.database.db));
      const allowed = WRITES_ON_GET[key]?.tables ?? [];
      for (const table of changed) if (!allowed.includes(table)) writes.push(`${key} wrote ${table}`);
      if (changed.length > 0) wrote.add(key);
    }
    expect(writes).toEqual([]);
    // Each allowed writer did write, so the sweep reached its code: all but the deposit addresses, which
    // the header sweep above already made.
    expect(Object.keys(WRITES_ON_GET).filter((key) => !wrote.has(key))).toEqual([
      'GET /api/v1/user/wallet-addresses',
    ]);
  });

  it('writes the deposit addresses once: a second look changes nothing', async () => {
    await customer.get('/api/v1/user/wallet-addresses');
    const before = await databaseFingerprint(t.database.db);
    expect((await customer.get('/api/v1/user/wallet-addresses')).statusCode).toBe(200);
    expect(changedTables(before, await databaseFingerprint(t.database.db))).toEqual([]);
  });
});
