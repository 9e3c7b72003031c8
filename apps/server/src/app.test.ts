import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { z } from 'zod';
import { amountSchema, defineEndpoint, ErrorBodySchema } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { registerRoute } from './http/route.js';
import {
  createTestApp,
  CSRF,
  FAKE_ASSET_SOURCE,
  FAKE_PRERENDERED_HOME,
  FAKE_PRERENDERED_ROOT,
  type TestApp,
} from './test/app.js';
import { available, countRows, createTestUser, expectLedgerToHold, fund, uniqueKey } from './test/ledger.js';

/**
 * A money-moving endpoint registered only in this test, to prove what every
 * product route inherits: strict input, one error shape, nothing changed on
 * bad input.
 */
const transferForTest = defineEndpoint({
  method: 'POST',
  path: '/api/v1/test/transfer',
  summary: 'test only',
  body: z.strictObject({
    from: z.string().regex(/^\d+$/),
    to: z.string().regex(/^\d+$/),
    amount: amountSchema('GBP'),
    note: z.string().max(100).optional(),
  }),
  responses: { 200: z.object({ journal_id: z.string() }) },
});

let t: TestApp;
let payer: string;
let payee: string;
let penniless: string;

beforeAll(async () => {
  t = await createTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '1000' },
    extend: (app, deps) => {
      // A route that fails, for the 5xx test: on this app rather than a second one, which costs seconds.
      app.get('/api/v1/test/boom', () => {
        throw new Error('secret connection string postgres://root:hunter2@db');
      });
      registerRoute(app, transferForTest, {
        access: 'public',
        handler: async (request) => {
          const amount = parseAmount(request.body.amount, 'GBP');
          const result = await deps.ledger.postJournal(deps.database.db, {
            idempotencyKey: uniqueKey('api'),
            kind: 'adjustment',
            postings: [
              { account: available(request.body.from, 'GBP'), amount: -amount },
              { account: available(request.body.to, 'GBP'), amount },
            ],
          });
          return { journal_id: result.journalId };
        },
      });
    },
  });
  [payer, payee, penniless] = [
    await createTestUser(t.database.db),
    await createTestUser(t.database.db),
    await createTestUser(t.database.db),
  ];
  await fund(t.ledger, t.database.db, payer, 'GBP', 10_000n);
});
afterEach(async () => {
  await expectLedgerToHold(t.database.db);
});
afterAll(async () => {
  await t.close();
});

function errorBody(body: string) {
  return ErrorBodySchema.parse(JSON.parse(body));
}

describe('the API contract', () => {
  it('moves money for a valid request', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/transfer',
      headers: CSRF,
      payload: { from: payer, to: payee, amount: '12.50' },
    });
    expect(response.statusCode).toBe(200);
    expect(await t.ledger.getBalance(t.database.db, available(payee, 'GBP'))).toMatchObject({
      posted: 1_250n,
    });
  });

  it('answers bad input with 4xx and a field map, and changes nothing', async () => {
    const journals = await countRows(t.database.db, 'journals');
    const cases: { payload: string; contentType?: string; status: number; code: string; errors?: object }[] =
      [
        { payload: '{"from": "1", "to": ', status: 400, code: 'BAD_REQUEST' },
        {
          payload: JSON.stringify({ from: 1, to: '2', amount: '1.00' }),
          status: 422,
          code: 'VALIDATION_FAILED',
          errors: { from: [expect.any(String)] },
        },
        {
          payload: JSON.stringify({ from: '1', to: '2', amount: '1.001' }),
          status: 422,
          code: 'VALIDATION_FAILED',
          errors: { amount: ['Enter at most 2 decimal places.'] },
        },
        {
          payload: JSON.stringify({ from: '1', to: '2', amount: '1e3' }),
          status: 422,
          code: 'VALIDATION_FAILED',
          errors: { amount: [expect.any(String)] },
        },
        {
          payload: JSON.stringify({ from: '1', to: '2', amount: '0.00' }),
          status: 422,
          code: 'VALIDATION_FAILED',
          errors: { amount: ['Enter an amount greater than zero.'] },
        },
        {
          payload: JSON.stringify({ from: '1', to: '2', amount: '1.00', is_admin: true }),
          status: 422,
          code: 'VALIDATION_FAILED',
          errors: { is_admin: ['This field is not allowed.'] },
        },
        {
          payload: JSON.stringify({ to: '2' }),
          status: 422,
          code: 'VALIDATION_FAILED',
          errors: { from: [expect.any(String)], amount: [expect.any(String)] },
        },
        { payload: JSON.stringify([1, 2]), status: 422, code: 'VALIDATION_FAILED' },
        {
          payload: 'from=1&to=2&amount=1',
          contentType: 'application/x-www-form-urlencoded',
          status: 400,
          code: 'BAD_REQUEST',
        },
        // Read as UTF-8 whatever it says: a body in another charset is refused, even one that would parse.
        {
          payload: JSON.stringify({ from: '1', to: '2', amount: '1.00' }),
          contentType: 'application/json; charset=utf-7',
          status: 400,
          code: 'BAD_REQUEST',
        },
        {
          payload: JSON.stringify({ from: '1', to: '2', amount: '1.00', note: 'x'.repeat(2 * 1024 * 1024) }),
          status: 413,
          code: 'PAYLOAD_TOO_LARGE',
        },
      ];
    for (const { payload, contentType, status, code, errors } of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/test/transfer',
        headers: { ...CSRF, 'content-type': contentType ?? 'application/json' },
        payload,
      });
      expect([payload.slice(0, 60), response.statusCode]).toEqual([payload.slice(0, 60), status]);
      const body = errorBody(response.body);
      expect(body.code).toBe(code);
      expect(body.request_id).toBe(response.headers['x-request-id']);
      if (errors) expect(body.errors).toEqual(errors);
    }
    expect(await countRows(t.database.db, 'journals')).toBe(journals);
  });

  it('says "Insufficient balance." when the payer cannot cover the amount, and changes nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/transfer',
      headers: CSRF,
      payload: { from: penniless, to: payee, amount: '0.01' },
    });
    expect(response.statusCode).toBe(422);
    expect(errorBody(response.body)).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      message: 'Insufficient balance.',
    });
  });

  it('answers an unknown API route with a JSON 404, whatever the client accepts', async () => {
    for (const accept of ['application/json', 'text/html']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/v1/nothing-here',
        headers: { accept },
      });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response.body)).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    }
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/v1/nothing-here',
      headers: CSRF,
      payload: {},
    });
    expect(post.statusCode).toBe(404);
  });

  it('hides internals on a 5xx: the spec’s generic text and a request id, no stack', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/hunter2|stack|postgres:/);
    expect(errorBody(response.body)).toMatchObject({
      code: 'INTERNAL',
      message: 'Something went wrong. Please contact the admin.',
    });
  });

  it('limits requests per IP with a 429 a person can read', async () => {
    const app = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 5; i += 1) {
      const response = await app.app.inject({ method: 'GET', url: '/api/v1/health' });
      statuses.push(response.statusCode);
      last = response.body;
    }
    await app.close();
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(errorBody(last)).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Please wait a minute and try again.',
    });
  });
});

describe('health and documentation', () => {
  it('reports the database reachable and the ledger balanced', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/) as string,
      database: { reachable: true, engine: t.database.engine },
      ledger: { ok: true, violations: 0 },
    });
  });

  it('publishes the OpenAPI document generated from the contracts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/api/v1/health');
    expect(JSON.stringify(document.paths['/api/v1/test/transfer'])).toContain('"additionalProperties":false');
  });

  it('sends security headers: a strict CSP, no framing, no sniffing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('the web app', () => {
  it('serves index.html for any page address, never cached, so client-side routes survive a reload', async () => {
    for (const url of ['/', '/user/settings', '/login?email_change=success']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect([url, response.statusCode]).toEqual([url, 200]);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('sends an old public address to where the page lives now, with a permanent redirect', async () => {
    for (const [url, location] of [
      ['/ContactUs.html', '/contact-us'],
      ['/ContactUs.html?from=footer', '/contact-us?from=footer'],
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect([url, response.statusCode, response.headers.location]).toEqual([url, 301, location]);
    }
  });

  it('sends a page the build prerendered at its own address, compressed when the browser accepts it', async () => {
    for (const url of ['/home', '/home?utm_source=newsletter']) {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'accept-encoding': 'identity' },
      });
      expect([url, response.statusCode, response.body]).toEqual([url, 200, FAKE_PRERENDERED_HOME]);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const compressed = await t.app.inject({
      method: 'GET',
      url: '/home',
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(FAKE_PRERENDERED_HOME);
    const root = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(root.body).toBe(FAKE_PRERENDERED_ROOT);
    // Any other address, a longer one included, is the app's own page.
    for (const url of [
      '/home/more',
      '/homes',
      '/prerendered',
      '/prerendered/home.html',
      '/prerendered/index.html',
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect([url, response.body]).toEqual([url, expect.stringContaining('<div id="root"></div>')]);
    }
  });

  it('caches hashed assets for a year and 404s a missing one instead of answering with the page', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-3f9a1c.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await t.app.inject({
      method: 'GET',
      url: '/assets/gone-000000.js',
      headers: { accept: '*/*' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it("sends the build's brotli copy of an asset to a browser that accepts it, and the plain file otherwise", async () => {
    const compressed = await t.app.inject({
      method: 'GET',
      url: '/assets/index-3f9a1c.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(FAKE_ASSET_SOURCE);

    const plain = await t.app.inject({
      method: 'GET',
      url: '/assets/index-3f9a1c.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(FAKE_ASSET_SOURCE);
  });
});
