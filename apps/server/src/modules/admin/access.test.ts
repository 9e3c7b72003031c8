import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEndpoint, ErrorBodySchema } from '@florin/contracts';
import { z } from 'zod';
import { listAdminRoutes } from '../../http/route.js';
import { registerRoute } from '../../http/route.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  answersOtherThanNotFound,
  callEveryAdminRoute,
  insertStaff,
  signedInStaff,
  STAFF_PASSWORD,
} from '../../test/admin.js';
import { createBrowser, linkInMail } from '../../test/browser.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A registered, verified customer signed in in a browser of their own (no 2FA, so no captcha trouble). */
async function signedInCustomer() {
  const browser = createBrowser(t.app);
  const email = `customer.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
  await browser.post('/api/v1/user-register', {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email,
    password: STAFF_PASSWORD,
    password_confirmation: STAFF_PASSWORD,
    accept_terms_and_privacy: true,
  });
  const link = await linkInMail(t.database.db, email, /Verify your email/);
  await browser.post(`/api/v1/user-verify/${link.split('/verify/')[1]}`);
  const login = await browser.post('/api/v1/login', {
    username: email,
    password: STAFF_PASSWORD,
    altcha: await browser.captcha(),
  });
  expect(login.statusCode).toBe(200);
  return { browser, accessToken: login.json<{ access_token: string }>().access_token };
}

describe('the back office does not exist for outsiders', () => {
  it('finds every /api/admin route on the app, so routes added later are swept too', () => {
    const routes = listAdminRoutes(t.app).map((route) => `${route.method} ${route.url}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/admin/login',
        'POST /api/admin/login-2fa',
        'GET /api/admin/me',
        'POST /api/admin/logout',
        'GET /api/admin/staff',
        'POST /api/admin/staff',
        'PUT /api/admin/staff/:staffId/role',
        'POST /api/admin/staff/:staffId/disable',
        'POST /api/admin/staff/:staffId/reset-2fa',
        'GET /api/admin/audit-log',
      ]),
    );
  });

  it('answers an anonymous visitor 404 NOT_FOUND on every /api/admin route, as on paths that do not exist', async () => {
    const answers = await callEveryAdminRoute(t.app, createBrowser(t.app));
    expect(answers.length).toBeGreaterThan(15);
    expect(answersOtherThanNotFound(answers)).toEqual([]);
    // Not even the shape of an answer differs.
    const me = await createBrowser(t.app).get('/api/admin/me');
    const unknown = await createBrowser(t.app).get('/api/admin/no-such-thing');
    expect(ErrorBodySchema.parse(me.json())).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    expect(ErrorBodySchema.parse(unknown.json())).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
  });

  it('answers a signed-in customer 404 NOT_FOUND on every /api/admin route, by cookie or by bearer token', async () => {
    const { browser, accessToken } = await signedInCustomer();
    // The session works where it belongs (a customer-only route)…
    expect((await browser.get('/api/v1/two-factor-authentication/generate')).statusCode).toBe(200);
    expect(answersOtherThanNotFound(await callEveryAdminRoute(t.app, browser))).toEqual([]);
    expect(
      answersOtherThanNotFound(
        await callEveryAdminRoute(t.app, undefined, { authorization: `Bearer ${accessToken}` }),
      ),
    ).toEqual([]);
  });

  it('cannot be walked around with a percent-escaped path', async () => {
    const compliance = await signedInStaff(t.app, t.database.db, 'compliance');
    for (const url of ['/api/%61dmin/staff', '/api/admin/%73taff', '/api/%61dmin/me']) {
      const anonymous = await createBrowser(t.app).get(url);
      expect([url, anonymous.statusCode]).toEqual([url, 404]);
    }
    const staffList = await compliance.browser.get('/api/%61dmin/staff');
    expect(staffList.statusCode).toBe(404);
  });

  it('answers 404 before validating anything, so a bad body does not reveal a route either', async () => {
    const { browser } = await signedInCustomer();
    const response = await browser.post('/api/admin/staff', {
      email: 'not an email',
      role: 'root',
      extra: 1,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json<{ code: string }>().code).toBe('NOT_FOUND');
  });

  it('answers a member with a password but no session, and a disabled member, 404 everywhere', async () => {
    const pending = await insertStaff(t.database.db, { role: 'superadmin' });
    const browser = createBrowser(t.app);
    await browser.post('/api/admin/login', { email: pending.email, password: pending.password });
    expect(answersOtherThanNotFound(await callEveryAdminRoute(t.app, browser))).toEqual([]);

    const disabled = await signedInStaff(t.app, t.database.db, 'superadmin');
    await t.database.db
      .updateTable('staff')
      .set({ disabled_at: new Date() })
      .where('id', '=', disabled.id)
      .execute();
    expect(answersOtherThanNotFound(await callEveryAdminRoute(t.app, disabled.browser))).toEqual([]);
  });
});

describe('roles', () => {
  it('lets each role reach only its routes; any other answers 404 as if it did not exist', async () => {
    const compliance = await signedInStaff(t.app, t.database.db, 'compliance');
    const finance = await signedInStaff(t.app, t.database.db, 'finance');
    const support = await signedInStaff(t.app, t.database.db, 'support');
    const superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');

    const status = async (who: typeof compliance, url: string) => (await who.browser.get(url)).statusCode;
    for (const who of [compliance, finance, support, superadmin]) {
      expect([who.role, await status(who, '/api/admin/me')]).toEqual([who.role, 200]);
    }
    // Staff management: superadmins only.
    for (const who of [compliance, finance, support]) {
      expect([who.role, await status(who, '/api/admin/staff')]).toEqual([who.role, 404]);
      const create = await who.browser.post('/api/admin/staff', { email: 'x@florin.test', role: 'support' });
      expect([who.role, create.statusCode]).toEqual([who.role, 404]);
    }
    expect(await status(superadmin, '/api/admin/staff')).toBe(200);
    // The audit log: superadmins and compliance.
    expect(await status(compliance, '/api/admin/audit-log')).toBe(200);
    expect(await status(superadmin, '/api/admin/audit-log')).toBe(200);
    expect(await status(finance, '/api/admin/audit-log')).toBe(404);
    expect(await status(support, '/api/admin/audit-log')).toBe(404);
  });

  it('applies a role change at the next request, without signing in again', async () => {
    const superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
    const member = await signedInStaff(t.app, t.database.db, 'support');
    expect((await member.browser.get('/api/admin/audit-log')).statusCode).toBe(404);
    await superadmin.browser.put(`/api/admin/staff/${member.id}/role`, { role: 'compliance' });
    expect((await member.browser.get('/api/admin/audit-log')).statusCode).toBe(200);
    expect((await member.browser.get('/api/admin/me')).json()).toMatchObject({
      data: { role: 'compliance' },
    });
  });

  it('a staff session means nothing on the customer API', async () => {
    const staff = await signedInStaff(t.app, t.database.db, 'superadmin');
    const response = await staff.browser.get('/api/v1/user');
    expect(response.statusCode).toBe(401);
  });
});

describe('registerRoute', () => {
  const endpoint = (path: string) =>
    defineEndpoint({ method: 'GET', path, summary: 'test', responses: { 200: z.object({}) } });

  it('refuses staff access outside /api/admin, and customer access inside it', () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const handler = () => Promise.resolve({});
    expect(() =>
      registerRoute(app, endpoint('/api/v1/thing'), { access: { staff: ['compliance'] }, handler }),
    ).toThrow(/staff access belongs to \/api\/admin\//);
    expect(() => registerRoute(app, endpoint('/api/admin/thing'), { access: 'customer', handler })).toThrow(
      /staff access belongs to \/api\/admin\//,
    );
    expect(() =>
      registerRoute(app, endpoint('/api/admin/other'), { access: { staff: ['support'] }, handler }),
    ).not.toThrow();
    expect(() =>
      registerRoute(app, endpoint('/api/administrators'), { access: 'customer', handler }),
    ).not.toThrow();
  });
});
