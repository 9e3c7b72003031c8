import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAILED_CODE_MINUTES } from '@florin/contracts';
import { STAFF_SESSION_IDLE_MINUTES } from './modules/admin/sessions.js';
import { SESSION_IDLE_MINUTES } from './modules/auth/sessions.js';
import { customerBrowser, insertCustomer } from './modules/compliance/customers.test-kit.js';
import { createEmailedCodes } from './security/emailed-codes.js';
import { insertStaff, signedInStaff } from './test/admin.js';
import { createTestApp, type TestApp } from './test/app.js';
import { createBrowser, oathtoolCode } from './test/browser.js';
import { testClock } from './test/clock.js';

/**
 * The rules that run by the time read it from the app's clock (clock.ts), not
 * from the wall clock or the database's now(): moving the test clock moves
 * them. The codes come from oathtool, for the time each test names.
 */

const MINUTE = 60_000;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const errorCode = (response: { json: <T>() => T }) => response.json<{ code: string }>().code;

describe('the app clock', () => {
  it('judges a customer’s TOTP code at its time: the clock’s code is taken, the wall clock’s ten minutes away is not', async () => {
    const customer = await insertCustomer(t.database.db);
    const browser = await customerBrowser(t.app, t.database.db, customer.id);
    const generated = await browser.get('/api/v1/two-factor-authentication/generate');
    const { secret } = generated.json<{ data: { secret: string } }>().data;
    testClock.advance(10 * MINUTE);

    const wall = await browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: oathtoolCode(secret, new Date()),
      disable_2fa: 0,
    });
    expect(wall.statusCode, wall.body).toBe(422);
    expect(errorCode(wall)).toBe('INVALID_PASSCODE');
    const clock = await browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: oathtoolCode(secret, testClock.now()),
      disable_2fa: 0,
    });
    expect(clock.statusCode, clock.body).toBe(200);
  });

  it('judges a staff member’s code at its time too', async () => {
    const staff = await insertStaff(t.database.db, { role: 'support' });
    const browser = createBrowser(t.app);
    const login = await browser.post('/api/admin/login', { email: staff.email, password: staff.password });
    const { login_token: token, enrollment } = login.json<{
      login_token: string;
      enrollment: { secret: string };
    }>();
    // Within the 10 minutes the enrollment's sign-in lasts, and ten TOTP steps from the wall clock.
    testClock.advance(5 * MINUTE);

    const wall = await browser.post('/api/admin/login-2fa', {
      login_token: token,
      code: oathtoolCode(enrollment.secret, new Date()),
    });
    expect(wall.statusCode, wall.body).toBe(422);
    const clock = await browser.post('/api/admin/login-2fa', {
      login_token: token,
      code: oathtoolCode(enrollment.secret, testClock.now()),
    });
    expect(clock.statusCode, clock.body).toBe(200);
  });

  it('lets an e-mailed code die after its minutes of the clock', async () => {
    const db = t.database.db;
    const codes = createEmailedCodes({ db, key: 'clock-test', clock: testClock });
    const customer = await insertCustomer(db);

    const inTime = await codes.issue(db, customer.id, 'clock-test');
    testClock.advance((EMAILED_CODE_MINUTES - 1) * MINUTE);
    expect(await codes.check(customer.id, 'clock-test', inTime)).toBe('ok');

    const late = await codes.issue(db, customer.id, 'clock-test');
    testClock.advance(EMAILED_CODE_MINUTES * MINUTE);
    expect(await codes.check(customer.id, 'clock-test', late)).toBe('expired');
  });

  it('ends a customer’s session after 30 minutes of the clock without a request, however long it was used', async () => {
    const customer = await insertCustomer(t.database.db);
    const browser = await customerBrowser(t.app, t.database.db, customer.id);
    for (let visit = 0; visit < 3; visit += 1) {
      expect((await browser.get('/api/v1/user')).statusCode).toBe(200);
      testClock.advance((SESSION_IDLE_MINUTES - 1) * MINUTE);
    }
    expect((await browser.get('/api/v1/user')).statusCode).toBe(200);
    testClock.advance((SESSION_IDLE_MINUTES + 1) * MINUTE);
    expect((await browser.get('/api/v1/user')).statusCode).toBe(401);
  });

  it('ends a staff session after 15 minutes of the clock without a request', async () => {
    const staff = await signedInStaff(t.app, t.database.db, 'support');
    testClock.advance((STAFF_SESSION_IDLE_MINUTES - 1) * MINUTE);
    expect((await staff.browser.get('/api/admin/me')).statusCode).toBe(200);
    testClock.advance((STAFF_SESSION_IDLE_MINUTES + 1) * MINUTE);
    expect((await staff.browser.get('/api/admin/me')).statusCode).toBe(404);
  });

  // Last: a day of the clock ends every session opened before it.
  it('ends the 24-hour withdrawal wait after a second-factor change when the clock passes it', async () => {
    const db = t.database.db;
    const support = await signedInStaff(t.app, db, 'support');
    const customer = await insertCustomer(db);
    const switched = await support.browser.post(`/api/admin/customers/${customer.id}/email-codes`, {
      enabled: true,
      reason: 'Customer cannot use an authenticator app (accessibility).',
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const until = switched.json<{ data: { withdrawals_blocked_until: string } }>().data
      .withdrawals_blocked_until;
    /** What the withdraw form is told, in a session opened at the clock's time. */
    const blockedUntil = async () => {
      const browser = await customerBrowser(t.app, db, customer.id);
      const info = await browser.get('/api/v1/fiat/withdraw-info');
      expect(info.statusCode, info.body).toBe(200);
      return info.json<{ data: { blocked_until: string | null } }>().data.blocked_until;
    };

    expect(await blockedUntil()).toBe(until);
    testClock.advance(Date.parse(until) - testClock.now().getTime() - MINUTE);
    expect(await blockedUntil()).toBe(until);
    testClock.advance(2 * MINUTE);
    expect(await blockedUntil()).toBeNull();
  });
});
