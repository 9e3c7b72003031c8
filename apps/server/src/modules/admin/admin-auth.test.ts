import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TEXTS, ErrorBodySchema, UNATTENDED_HEADER } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  freshTotpCode,
  insertStaff,
  signInStaff,
  signedInStaff,
  STAFF_PASSWORD,
  type TestStaff,
} from '../../test/admin.js';
import { createBrowser, linkInMail, type Browser } from '../../test/browser.js';
import { TOO_MANY_ATTEMPTS } from '../../test/rate-limited.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function errorOf(response: { body: string }) {
  return ErrorBodySchema.parse(JSON.parse(response.body));
}

type LoginAnswer = {
  login_token: string;
  expires_in: number;
  must_enroll_2fa: boolean;
  enrollment: { secret: string; otpauth_url: string } | null;
};

async function login(browser: Browser, staff: Pick<TestStaff, 'email' | 'password'>) {
  return browser.post('/api/admin/login', { email: staff.email, password: staff.password });
}

async function staffRow(id: number) {
  return t.database.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('staff sign-in', () => {
  it('enrolls 2FA on the first sign-in: the login answers a new secret, and its first code opens a session', async () => {
    const staff = await insertStaff(t.database.db, { role: 'superadmin' });
    const browser = createBrowser(t.app);

    const first = await login(browser, staff);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const answer = first.json<LoginAnswer>();
    expect(answer).toMatchObject({ must_enroll_2fa: true, expires_in: 600 });
    expect(answer.enrollment?.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(answer.enrollment?.otpauth_url).toMatch(/^otpauth:\/\/totp\/Florin:Florin%20staff%3A%20/);
    // Pending until a code proves the app has it; kept sealed, never as sent.
    expect((await staffRow(staff.id)).totp_secret_encrypted).toBeNull();
    const challenge = await t.database.db
      .selectFrom('staff_login_challenges')
      .select('pending_totp_secret_encrypted')
      .where('staff_id', '=', staff.id)
      .executeTakeFirstOrThrow();
    expect(challenge.pending_totp_secret_encrypted).toMatch(/^v1\./);
    expect(challenge.pending_totp_secret_encrypted).not.toContain(answer.enrollment?.secret);

    // No session yet: the back office is still closed.
    expect((await browser.get('/api/admin/me')).statusCode).toBe(404);

    const secret = answer.enrollment?.secret ?? '';
    const second = await browser.post('/api/admin/login-2fa', {
      login_token: answer.login_token,
      code: freshTotpCode(secret),
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({
      data: { id: staff.id, email: staff.email, role: 'superadmin', simulated_chain: true },
      expires_in: 28_800,
    });
    const cookie = second.cookies.find((c) => c.name === 'staff_token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/admin', maxAge: 28_800 });
    // The customer's cookie is not involved.
    expect(second.cookies.find((c) => c.name === 'access_token')).toBeUndefined();
    expect((await staffRow(staff.id)).totp_secret_encrypted).toMatch(/^v1\./);

    const me = await browser.get('/api/admin/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      data: { id: staff.id, email: staff.email, role: 'superadmin', simulated_chain: true },
    });

    // From now on a code from the enrolled secret is asked for, and no new secret is handed out.
    const again = (await login(createBrowser(t.app), staff)).json<LoginAnswer>();
    expect(again).toMatchObject({ must_enroll_2fa: false, enrollment: null, expires_in: 300 });
  });

  it('takes each code once: the code that signed in cannot sign in again', async () => {
    const staff = await signedInStaff(t.app, t.database.db, 'support');
    const browser = createBrowser(t.app);
    const code = freshTotpCode(staff.totpSecret);
    const firstToken = (await login(browser, staff)).json<LoginAnswer>().login_token;
    expect((await browser.post('/api/admin/login-2fa', { login_token: firstToken, code })).statusCode).toBe(
      200,
    );

    const other = createBrowser(t.app);
    const secondToken = (await login(other, staff)).json<LoginAnswer>().login_token;
    const replay = await other.post('/api/admin/login-2fa', { login_token: secondToken, code });
    expect(replay.statusCode).toBe(422);
    expect(errorOf(replay)).toMatchObject({ code: 'INVALID_PASSCODE', message: ADMIN_TEXTS.wrongCode });
    expect((await other.get('/api/admin/me')).statusCode).toBe(404);
  });

  it('refuses a wrong code with Wrong Passcode., and ends the sign-in after five', async () => {
    const staff = await signedInStaff(t.app, t.database.db, 'finance');
    const browser = createBrowser(t.app);
    const token = (await login(browser, staff)).json<LoginAnswer>().login_token;
    const right = freshTotpCode(staff.totpSecret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await browser.post('/api/admin/login-2fa', { login_token: token, code: wrong });
      expect(response.statusCode).toBe(422);
      expect(errorOf(response)).toMatchObject({ code: 'INVALID_PASSCODE', message: ADMIN_TEXTS.wrongCode });
    }
    const sixth = await browser.post('/api/admin/login-2fa', { login_token: token, code: right });
    expect(sixth.statusCode).toBe(429);
    expect(errorOf(sixth).code).toBe('RATE_LIMITED');
    expect((await browser.get('/api/admin/me')).statusCode).toBe(404);
  });

  it('refuses a code that is not six digits before looking at it', async () => {
    const staff = await signedInStaff(t.app, t.database.db, 'finance');
    const browser = createBrowser(t.app);
    const token = (await login(browser, staff)).json<LoginAnswer>().login_token;
    const response = await browser.post('/api/admin/login-2fa', { login_token: token, code: '12345a' });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).errors).toEqual({ code: [ADMIN_TEXTS.codeFormat] });
  });

  it('answers a wrong password and an unknown e-mail alike, and a used or unknown login token as expired', async () => {
    const staff = await insertStaff(t.database.db, { role: 'compliance' });
    const browser = createBrowser(t.app);
    const wrongPassword = await login(browser, { email: staff.email, password: 'not-the-password-1' });
    const unknown = await login(browser, { email: 'nobody@florin.test', password: STAFF_PASSWORD });
    for (const response of [wrongPassword, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(errorOf(response)).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        message: ADMIN_TEXTS.invalidCredentials,
      });
    }
    const bogus = await browser.post('/api/admin/login-2fa', {
      login_token: 'x'.repeat(43),
      code: '123456',
    });
    expect(bogus.statusCode).toBe(401);
    expect(errorOf(bogus)).toMatchObject({ code: 'UNAUTHENTICATED', message: ADMIN_TEXTS.loginExpired });
  });

  it('a customer account does not open the back office, even with the same e-mail and password', async () => {
    const customer = createBrowser(t.app);
    const email = `both.${Date.now()}@florin.test`;
    await customer.post('/api/v1/user-register', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email,
      password: STAFF_PASSWORD,
      password_confirmation: STAFF_PASSWORD,
      accept_terms_and_privacy: true,
    });
    const response = await login(customer, { email, password: STAFF_PASSWORD });
    expect(response.statusCode).toBe(401);
  });

  it('locks an account after five wrong passwords, even for the right one', async () => {
    const staff = await insertStaff(t.database.db, { role: 'support' });
    const browser = createBrowser(t.app);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(
        (await login(browser, { email: staff.email, password: `wrong-password-${attempt}` })).statusCode,
      ).toBe(401);
    }
    const locked = await login(browser, staff);
    expect(locked.statusCode).toBe(429);
    expect(errorOf(locked).message).toMatch(TOO_MANY_ATTEMPTS);
  });

  it('keeps a disabled member out, and ends their open sessions at once', async () => {
    const superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
    const member = await signedInStaff(t.app, t.database.db, 'compliance');
    expect((await member.browser.get('/api/admin/me')).statusCode).toBe(200);

    expect((await superadmin.browser.post(`/api/admin/staff/${member.id}/disable`)).statusCode).toBe(200);
    const me = await member.browser.get('/api/admin/me');
    expect(me.statusCode).toBe(404);
    expect(errorOf(me).code).toBe('NOT_FOUND');

    const refused = await login(createBrowser(t.app), member);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: 'FORBIDDEN', message: ADMIN_TEXTS.staffDisabled });

    // Enabling does not bring the ended sessions back: the member signs in again.
    expect((await superadmin.browser.post(`/api/admin/staff/${member.id}/enable`)).statusCode).toBe(200);
    expect((await member.browser.get('/api/admin/me')).statusCode).toBe(404);
    const back = await signInStaff(t.app, member);
    expect((await back.browser.get('/api/admin/me')).statusCode).toBe(200);
  });

  it('a member disabled between password and code cannot finish signing in', async () => {
    const member = await signedInStaff(t.app, t.database.db, 'support');
    const browser = createBrowser(t.app);
    const token = (await login(browser, member)).json<LoginAnswer>().login_token;
    await t.database.db
      .updateTable('staff')
      .set({ disabled_at: new Date() })
      .where('id', '=', member.id)
      .execute();
    const response = await browser.post('/api/admin/login-2fa', {
      login_token: token,
      code: freshTotpCode(member.totpSecret),
    });
    expect(response.statusCode).toBe(401);
    expect((await browser.get('/api/admin/me')).statusCode).toBe(404);
  });
});

describe('staff sign-in: sessions', () => {
  it('signs out: the session ends and its cookie is cleared', async () => {
    const staff = await signedInStaff(t.app, t.database.db, 'support');
    const out = await staff.browser.post('/api/admin/logout');
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: ADMIN_TEXTS.signedOut });
    expect(out.cookies.find((c) => c.name === 'staff_token')).toMatchObject({
      value: '',
      path: '/api/admin',
    });
    expect((await staff.browser.get('/api/admin/me')).statusCode).toBe(404);
  });

  it('ends a session after 15 idle minutes, and 8 hours after sign-in whatever happens', async () => {
    const idle = await signedInStaff(t.app, t.database.db, 'support');
    await sql`UPDATE staff_sessions SET last_seen_at = now() - interval '16 minutes' WHERE staff_id = ${idle.id}`.execute(
      t.database.db,
    );
    expect((await idle.browser.get('/api/admin/me')).statusCode).toBe(404);

    const busy = await signedInStaff(t.app, t.database.db, 'support');
    await sql`UPDATE staff_sessions SET last_seen_at = now() - interval '14 minutes' WHERE staff_id = ${busy.id}`.execute(
      t.database.db,
    );
    expect((await busy.browser.get('/api/admin/me')).statusCode).toBe(200);
    await sql`UPDATE staff_sessions SET expires_at = now() - interval '1 second' WHERE staff_id = ${busy.id}`.execute(
      t.database.db,
    );
    expect((await busy.browser.get('/api/admin/me')).statusCode).toBe(404);
  });

  it('is kept open by what the member does, not by a page refreshing itself while they are away', async () => {
    const db = t.database.db;
    /** Two minutes pass: the session was last seen two minutes earlier than it was. */
    const twoMinutesLater = (staffId: number) =>
      sql`UPDATE staff_sessions SET last_seen_at = last_seen_at - interval '2 minutes' WHERE staff_id = ${staffId}`.execute(
        db,
      );
    const unattended = { [UNATTENDED_HEADER]: '1' };

    const away = await signedInStaff(t.app, db, 'finance');
    await sql`UPDATE staff_sessions SET last_seen_at = now() - interval '14 minutes' WHERE staff_id = ${away.id}`.execute(
      db,
    );
    // The payouts queue refreshing itself is answered, but it does not count as the member's activity…
    expect((await away.browser.get('/api/admin/me', unattended)).statusCode).toBe(200);
    await twoMinutesLater(away.id);
    // …so at 16 minutes without them the session is over, for the page's refreshes too.
    expect((await away.browser.get('/api/admin/me', unattended)).statusCode).toBe(404);
    expect((await away.browser.get('/api/admin/me')).statusCode).toBe(404);

    const present = await signedInStaff(t.app, db, 'finance');
    await sql`UPDATE staff_sessions SET last_seen_at = now() - interval '14 minutes' WHERE staff_id = ${present.id}`.execute(
      db,
    );
    expect((await present.browser.get('/api/admin/me')).statusCode).toBe(200);
    await twoMinutesLater(present.id);
    expect((await present.browser.get('/api/admin/me', unattended)).statusCode).toBe(200);
  });

  it('asks for the CSRF header of the session on every change', async () => {
    const staff = await signedInStaff(t.app, t.database.db, 'superadmin');
    const without = await staff.browser.post('/api/admin/logout', {}, { csrf: false });
    expect(without.statusCode).toBe(403);
    expect(errorOf(without).code).toBe('CSRF_FAILED');
    // A token planted before sign-in (cookie and header agreeing) is not the session's.
    const planted = await t.app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: {
        cookie: `staff_token=${staff.browser.cookies.get('staff_token') ?? ''}; csrf_token=planted-token`,
        'x-csrf-token': 'planted-token',
      },
      payload: {},
    });
    expect(planted.statusCode).toBe(403);
    expect(errorOf(planted).code).toBe('CSRF_FAILED');
    expect((await staff.browser.get('/api/admin/me')).statusCode).toBe(200);
  });
});

describe('setting a password from the e-mailed link', () => {
  it('lets a new member choose a password once, then sign in and enroll 2FA', async () => {
    const superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
    const email = `new.member.${Date.now()}@florin.test`;
    const created = await superadmin.browser.post('/api/admin/staff', { email, role: 'compliance' });
    expect(created.statusCode).toBe(201);

    const link = await linkInMail(t.database.db, email, /Set your Florin staff password/);
    expect(link).toMatch(/^http:\/\/localhost:8080\/admin\/set-password#[\w-]{43}$/);
    const token = link.split('#')[1] ?? '';

    // No password yet: nothing signs in.
    const early = await login(createBrowser(t.app), { email, password: STAFF_PASSWORD });
    expect(early.statusCode).toBe(401);

    const browser = createBrowser(t.app);
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [
        { password: 'short-pass', password_confirmation: 'short-pass' },
        { password: [ADMIN_TEXTS.passwordTooShort] },
      ],
      [
        { password: STAFF_PASSWORD, password_confirmation: `${STAFF_PASSWORD}!` },
        { password_confirmation: [ADMIN_TEXTS.passwordMismatch] },
      ],
      [
        { password: 'qwerty123456', password_confirmation: 'qwerty123456' },
        { password: [ADMIN_TEXTS.passwordTooCommon] },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await browser.post('/api/admin/set-password', { token, ...body });
      expect([JSON.stringify(body), response.statusCode]).toEqual([JSON.stringify(body), 422]);
      expect(errorOf(response).errors).toEqual(errors);
    }

    const set = await browser.post('/api/admin/set-password', {
      token,
      password: STAFF_PASSWORD,
      password_confirmation: STAFF_PASSWORD,
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ message: ADMIN_TEXTS.passwordSet });

    const reused = await browser.post('/api/admin/set-password', {
      token,
      password: 'another-Password-2026',
      password_confirmation: 'another-Password-2026',
    });
    expect(reused.statusCode).toBe(422);
    expect(errorOf(reused).errors).toEqual({ token: [ADMIN_TEXTS.passwordLinkInvalid] });

    const id = created.json<{ data: { id: number } }>().data.id;
    const member = await signInStaff(t.app, { id, email, password: STAFF_PASSWORD, role: 'compliance' });
    expect((await member.browser.get('/api/admin/me')).json()).toEqual({
      data: { id, email, role: 'compliance', simulated_chain: true },
    });
  });

  it('refuses an expired link', async () => {
    const superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
    const email = `late.member.${Date.now()}@florin.test`;
    await superadmin.browser.post('/api/admin/staff', { email, role: 'support' });
    const token = (await linkInMail(t.database.db, email, /Set your Florin staff password/)).split('#')[1];
    await sql`UPDATE staff_password_tokens SET expires_at = now() - interval '1 second'
      WHERE staff_id = (SELECT id FROM staff WHERE email = ${email})`.execute(t.database.db);
    const response = await createBrowser(t.app).post('/api/admin/set-password', {
      token,
      password: STAFF_PASSWORD,
      password_confirmation: STAFF_PASSWORD,
    });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).errors).toEqual({ token: [ADMIN_TEXTS.passwordLinkInvalid] });
  });
});
