import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AUTH_TEXTS,
  CRYPTO_WITHDRAW_TEXTS,
  ErrorBodySchema,
  NewApiTokenSchema,
  UNATTENDED_HEADER,
  ukDateTime,
  waitUntilText,
} from '@florin/contracts';
import type { MailMessage } from '../../adapters/mail/mailer.js';
import * as passwords from '../../security/passwords.js';
import { matchTotpStep } from '../../security/totp.js';
import { askForBtcWithdrawal } from '../crypto/crypto.test-kit.js';
import { insertApprovedVerification } from '../compliance/customers.test-kit.js';
import { createStorageFromConfig } from '../../adapters/storage/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  awayFromTotpStepEdge,
  createBrowser,
  linkInMail,
  mailTo,
  oathtoolCode,
  type Browser,
} from '../../test/browser.js';
import { testClock } from '../../test/clock.js';
import { TOO_MANY_ATTEMPTS } from '../../test/rate-limited.js';

let t: TestApp;
let people = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const PASSWORD = 'correct horse battery staple';

function errorOf(response: { body: string }) {
  return ErrorBodySchema.parse(JSON.parse(response.body));
}

function newEmail(): string {
  people += 1;
  return `person${people}.${Date.now()}@example.com`;
}

async function register(browser: Browser, email: string, extra: Record<string, unknown> = {}) {
  return browser.post('/api/v1/user-register', {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    accept_terms_and_privacy: true,
    ...extra,
  });
}

async function verifyByMail(browser: Browser, email: string) {
  const link = await linkInMail(t.database.db, email, /Verify your email/);
  return browser.post(`/api/v1/user-verify/${link.split('/verify/')[1]}`);
}

async function login(browser: Browser, email: string, password = PASSWORD) {
  return browser.post('/api/v1/login', { username: email, password, altcha: await browser.captcha() });
}

/** A registered, verified, signed-in customer. */
async function signedInCustomer() {
  const browser = createBrowser(t.app);
  const email = newEmail();
  await register(browser, email);
  await verifyByMail(browser, email);
  expect((await login(browser, email)).statusCode).toBe(200);
  return { browser, email };
}

describe('registration and e-mail verification', () => {
  it('creates the account, mails a verification link, and lets the customer in only once it is used', async () => {
    const browser = createBrowser(t.app);
    const email = newEmail();
    const registered = await register(browser, email);
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toEqual({ message: AUTH_TEXTS.registered });

    // The mail is written after the answer (the answer must not tell who has an account by its timing).
    const [mail] = await vi.waitFor(async () => {
      const mails = await mailTo(t.database.db, email);
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(mail?.subject).toBe('Verify your email address — Florin');
    expect(mail?.text).toContain('Florin');
    expect(mail?.html).toContain('<a href="http://localhost:8080/verify/');

    const early = await login(browser, email);
    expect(early.statusCode).toBe(403);
    const body = errorOf(early);
    expect(body).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', data: { verified: false } });
    expect(body.data?.user_id).toEqual(expect.any(Number));

    const link = await linkInMail(t.database.db, email, /Verify your email/);
    const token = link.split('/verify/')[1] as string;
    expect((await browser.post(`/api/v1/user-verify/${token}`)).json()).toEqual({
      message: AUTH_TEXTS.verified,
    });
    const again = await browser.post(`/api/v1/user-verify/${token}`);
    expect(again.statusCode).toBe(404);
    expect(errorOf(again).message).toBe(AUTH_TEXTS.verifyErrorBanner);

    const signedIn = await login(browser, email);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({
      access_token: expect.any(String) as string,
      expires_in: 86_400,
      platform: 1,
      upgraded: 0,
      data: { disable_2fa: 0, verified: true },
    });
    const cookie = signedIn.cookies.find((c) => c.name === 'access_token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 86_400 });

    const me = await browser.get('/api/v1/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      data: {
        email,
        first_name: 'Ada',
        email_verified: true,
        status: 0,
        disable_florin_2fa: 0,
        user_identification: expect.stringMatching(/^FL[2-9A-HJKMNP-Z]{8}$/) as string,
      },
    });
  });

  it('refuses an expired verification link', async () => {
    const browser = createBrowser(t.app);
    const email = newEmail();
    await register(browser, email);
    await sql`UPDATE email_tokens SET expires_at = now() - interval '1 minute'`.execute(t.database.db);
    const link = await linkInMail(t.database.db, email, /Verify your email/);
    expect((await browser.post(`/api/v1/user-verify/${link.split('/verify/')[1]}`)).statusCode).toBe(404);
  });

  it('answers a second registration of an address exactly like the first, and tells the owner instead', async () => {
    const browser = createBrowser(t.app);
    const email = newEmail();
    await register(browser, email);
    const second = await register(createBrowser(t.app), email, { first_name: 'Mallory' });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual({ message: AUTH_TEXTS.registered });
    await vi.waitFor(async () => {
      const subjects = (await mailTo(t.database.db, email)).map((m) => m.subject);
      expect(subjects).toContain('You already have a Florin account — Florin');
    });
    const users = await t.database.db
      .selectFrom('users')
      .select('first_name')
      .where('email', '=', email)
      .execute();
    expect(users).toEqual([{ first_name: 'Ada' }]);
  });

  it('says what is wrong with the form, field by field, and creates nothing', async () => {
    const browser = createBrowser(t.app);
    const email = newEmail();
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [
        { password_confirmation: 'something else entirely' },
        { password_confirmation: [AUTH_TEXTS.passwordMismatch] },
      ],
      [{ password: 'short', password_confirmation: 'short' }, { password: [AUTH_TEXTS.passwordTooShort] }],
      [{ accept_terms_and_privacy: false }, { accept_terms_and_privacy: [AUTH_TEXTS.acceptTerms] }],
      [{ email: 'not-an-email' }, { email: ['Please enter a valid email address.'] }],
      [{ first_name: '  ' }, { first_name: ['The first name field is required.'] }],
      [
        { password: 'password123', password_confirmation: 'password123' },
        { password: [AUTH_TEXTS.passwordTooCommon] },
      ],
    ];
    for (const [change, errors] of cases) {
      const response = await register(browser, email, change);
      expect([JSON.stringify(change), response.statusCode]).toEqual([JSON.stringify(change), 422]);
      expect(errorOf(response).errors).toEqual(errors);
    }
    expect(await t.database.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual(
      [],
    );
  });

  it('refuses a name with a line break, a control or an invisible character, or nothing visible, and stores and mails nothing', async () => {
    const browser = createBrowser(t.app);
    const email = newEmail();
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ first_name: 'Ada\nClick https://evil.example' }, { first_name: [AUTH_TEXTS.nameInvalid] }],
      [{ first_name: 'Ada\r\nBcc: someone@example.com' }, { first_name: [AUTH_TEXTS.nameInvalid] }],
      [{ last_name: 'Love\u001b[2Jlace' }, { last_name: [AUTH_TEXTS.nameInvalid] }],
      [{ last_name: 'Love\u007flace' }, { last_name: [AUTH_TEXTS.nameInvalid] }],
      [{ last_name: 'Love\tlace' }, { last_name: [AUTH_TEXTS.nameInvalid] }],
      // Invisible and text-reversing characters: the staff mail's subject would read "Urgent exe.doc".
      [{ first_name: 'Urgent\u202Ecod.exe' }, { first_name: [AUTH_TEXTS.nameInvalid] }],
      [{ first_name: 'Ada\u2066Lovelace\u2069' }, { first_name: [AUTH_TEXTS.nameInvalid] }],
      [{ last_name: 'Love\u200Blace' }, { last_name: [AUTH_TEXTS.nameInvalid] }],
      [
        { first_name: '\u200B\u200C\u200D\u2060\uFEFF' },
        { first_name: ['The first name field is required.'] },
      ],
      [{ last_name: '\u3164\u0301' }, { last_name: ['The last name field is required.'] }],
    ];
    for (const [change, errors] of cases) {
      const response = await register(browser, email, change);
      expect([JSON.stringify(change), response.statusCode]).toEqual([JSON.stringify(change), 422]);
      expect(errorOf(response).errors).toEqual(errors);
    }
    expect(await t.database.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual(
      [],
    );
    expect(await mailTo(t.database.db, email)).toEqual([]);
    // A name that is one line, with letters from anywhere, is fine (surrounding spaces are trimmed).
    expect((await register(browser, email, { first_name: ' Zoë-Ågot ' })).statusCode).toBe(201);
  });

  it('hashes the password for an address that already has an account too, so both take the same work', async () => {
    const email = newEmail();
    await register(createBrowser(t.app), email);
    const hashing = vi.spyOn(passwords, 'hashPassword');
    try {
      const again = await register(createBrowser(t.app), email, {
        password: 'another passphrase entirely',
        password_confirmation: 'another passphrase entirely',
      });
      expect(again.statusCode).toBe(201);
      expect(hashing.mock.calls).toEqual([['another passphrase entirely']]);
      await expect(hashing.mock.results[0]?.value).resolves.toEqual(expect.any(String));
      const fresh = await register(createBrowser(t.app), newEmail());
      expect(fresh.statusCode).toBe(201);
      expect(hashing).toHaveBeenCalledTimes(2);
    } finally {
      hashing.mockRestore();
    }
    const stored = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(await passwords.verifyPassword(stored.password_hash, PASSWORD)).toBe(true);
  });

  it('records who referred the customer, and ignores a code that does not exist', async () => {
    const { browser: referrer } = await signedInCustomer();
    const code = (await referrer.get('/api/v1/user')).json<{ data: { referral_code: string } }>().data
      .referral_code;
    const referred = newEmail();
    await register(createBrowser(t.app), referred, { referral_code: code.toUpperCase() });
    const stranger = newEmail();
    await register(createBrowser(t.app), stranger, { referral_code: 'no-such-code' });
    const rows = await t.database.db
      .selectFrom('users')
      .select(['email', 'referred_by_user_id'])
      .where('email', 'in', [referred, stranger])
      .execute();
    expect(rows.find((r) => r.email === referred)?.referred_by_user_id).toEqual(expect.any(Number));
    expect(rows.find((r) => r.email === stranger)?.referred_by_user_id).toBeNull();
  });

  it('resends the verification mail, a few times an hour at most', async () => {
    const browser = createBrowser(t.app);
    const email = newEmail();
    await register(browser, email);
    const userId = errorOf(await login(browser, email)).data?.user_id as number;
    for (let i = 0; i < 3; i += 1) {
      expect((await browser.post(`/api/v1/users/email-resend-verification/${userId}`)).statusCode).toBe(200);
    }
    const limited = await browser.post(`/api/v1/users/email-resend-verification/${userId}`);
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited).message).toMatch(TOO_MANY_ATTEMPTS);
    expect((await mailTo(t.database.db, email)).filter((m) => /Verify/.test(m.subject))).toHaveLength(4);
  });
});

describe('signing in', () => {
  it('mails the sign-in with its time as a UK customer reads it, not a UTC timestamp', async () => {
    const { browser, email } = await signedInCustomer();
    const { last_login_at: signedInAt } = await t.database.db
      .selectFrom('users')
      .select('last_login_at')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const mail = await vi.waitFor(async () => {
      const found = (await mailTo(t.database.db, email)).find(
        (message) => message.subject === 'New sign-in to your Florin account — Florin',
      );
      expect(found).toBeDefined();
      return found;
    });
    expect(signedInAt).toBeInstanceOf(Date);
    expect(mail?.text).toContain(
      `Your account was signed in to on ${ukDateTime(signedInAt ?? new Date(0))} from ${browser.ip}.`,
    );
    expect(mail?.text).not.toContain('UTC');
  });

  it('gives the same answer for a wrong password and an unknown e-mail, and changes nothing', async () => {
    const { email } = await signedInCustomer();
    const browser = createBrowser(t.app);
    const wrong = await login(browser, email, 'not the password at all');
    const unknown = await login(browser, newEmail(), PASSWORD);
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(errorOf(response)).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        message: AUTH_TEXTS.invalidCredentials,
      });
      expect(response.cookies.find((c) => c.name === 'access_token')).toBeUndefined();
    }
  });

  it('needs a solved captcha, and takes each one once', async () => {
    const { email } = await signedInCustomer();
    const browser = createBrowser(t.app);
    const missing = await browser.post('/api/v1/login', {
      username: email,
      password: PASSWORD,
      altcha: 'bm90IGEgc29sdXRpb24=',
    });
    expect(errorOf(missing)).toMatchObject({ code: 'CAPTCHA_FAILED', message: AUTH_TEXTS.captchaFailed });
    const altcha = await browser.captcha();
    expect(
      (await browser.post('/api/v1/login', { username: email, password: PASSWORD, altcha })).statusCode,
    ).toBe(200);
    const replayed = await browser.post('/api/v1/login', { username: email, password: PASSWORD, altcha });
    expect(errorOf(replayed).code).toBe('CAPTCHA_FAILED');
  });

  it('locks an account against guessing after five wrong passwords, even for the right one', async () => {
    const { email } = await signedInCustomer();
    const guesser = createBrowser(t.app);
    for (let i = 0; i < 5; i += 1)
      expect((await login(guesser, email, `guess number ${i}`)).statusCode).toBe(401);
    const locked = await login(createBrowser(t.app), email);
    expect(locked.statusCode).toBe(429);
    expect(errorOf(locked)).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(TOO_MANY_ATTEMPTS) as string,
    });
  });

  it('refuses a state-changing request without the CSRF header, and leaves the session as it was', async () => {
    const { browser } = await signedInCustomer();
    const refused = await browser.post('/api/v1/logout', {}, { csrf: false });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: 'CSRF_FAILED' });
    const forged = await browser.post(
      '/api/v1/logout',
      {},
      { csrf: false, headers: { 'x-csrf-token': 'guessed' } },
    );
    expect(forged.statusCode).toBe(403);
    expect((await browser.get('/api/v1/user')).statusCode).toBe(200);
  });

  it('accepts the token as a bearer header for API clients, and nothing made up or revoked', async () => {
    const browser = createBrowser(t.app);
    const { email } = await signedInCustomer();
    const token = (await login(browser, email)).json<{ access_token: string }>().access_token;
    const bearer = (value: string) =>
      t.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${value}` } });
    expect((await bearer(token)).statusCode).toBe(200);
    expect((await bearer('made-up-token-made-up-token-made-up')).statusCode).toBe(401);
    expect((await browser.post('/api/v1/logout')).json()).toEqual({ message: AUTH_TEXTS.loggedOut });
    const revoked = await bearer(token);
    expect(revoked.statusCode).toBe(401);
    expect(errorOf(revoked).code).toBe('UNAUTHENTICATED');
    expect((await browser.get('/api/v1/user')).statusCode).toBe(401);
  });

  it('ends a session that has been idle for 30 minutes', async () => {
    const { browser } = await signedInCustomer();
    await sql`UPDATE sessions SET last_seen_at = now() - interval '31 minutes'`.execute(t.database.db);
    expect((await browser.get('/api/v1/user')).statusCode).toBe(401);
  });

  it('is kept open by what the customer does, not by a page refreshing itself while they are away', async () => {
    const db = t.database.db;
    /** The customer's session was last seen `minutes` earlier than it was. */
    const later = (email: string, minutes: number) =>
      sql`UPDATE sessions SET last_seen_at = last_seen_at - make_interval(mins => ${minutes})
          WHERE user_id = (SELECT id FROM users WHERE email = ${email})`.execute(db);
    const unattended = { [UNATTENDED_HEADER]: '1' };

    const away = await signedInCustomer();
    await later(away.email, 29);
    // The open orders refreshing themselves are answered, but they are not the customer's activity…
    expect((await away.browser.get('/api/v1/user', unattended)).statusCode).toBe(200);
    await later(away.email, 2);
    // …so at 31 minutes without them the session is over, for the page's refreshes too.
    expect((await away.browser.get('/api/v1/user', unattended)).statusCode).toBe(401);
    expect((await away.browser.get('/api/v1/user')).statusCode).toBe(401);

    const present = await signedInCustomer();
    await later(present.email, 29);
    expect((await present.browser.get('/api/v1/user')).statusCode).toBe(200);
    await later(present.email, 2);
    expect((await present.browser.get('/api/v1/user', unattended)).statusCode).toBe(200);
  });
});

describe('two-factor authentication', () => {
  async function enableTwoFactor(browser: Browser) {
    const generated = await browser.get('/api/v1/two-factor-authentication/generate');
    const { secret, qr_url } = generated.json<{ data: { secret: string; qr_url: string } }>().data;
    expect(qr_url).toMatch(/^otpauth:\/\/totp\/Florin:.+\?.*secret=/);
    // The step before now, so the codes of now and the next step stay unused for the tests.
    awayFromTotpStepEdge();
    const code = oathtoolCode(secret, new Date(testClock.now().getTime() - 30_000));
    const enabled = await browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: code,
      disable_2fa: 0,
      google2fa_secret: 'IGNORED',
    });
    expect(enabled.statusCode).toBe(200);
    const body = enabled.json<{ message: string; recovery_codes: string[] }>();
    expect(body.message).toBe(AUTH_TEXTS.twoFactorToggled);
    expect(body.recovery_codes).toHaveLength(10);
    return { secret, recoveryCodes: body.recovery_codes };
  }

  it('produces the same codes as an independent implementation', () => {
    const secret = 'JBSWY3DPEHPK3PXP';
    for (const offset of [0, 30_000, 60_000, 3_600_000]) {
      const at = new Date(Date.UTC(2026, 10, 22, 12, 0, 0) + offset);
      expect(matchTotpStep(secret, oathtoolCode(secret, at), at)).toBe(Math.floor(at.getTime() / 30_000));
    }
  });

  it('turns on with a code from the scanned secret, then asks for a code at every sign-in, each code once', async () => {
    const { browser, email } = await signedInCustomer();
    const wrong = await browser.post(
      '/api/v1/two-factor-authentication/generate'.replace('generate', 'toggle'),
      { passcode: '000000', disable_2fa: 0 },
    );
    expect(wrong.statusCode).toBe(409);
    const { secret } = await enableTwoFactor(browser);
    expect((await browser.get('/api/v1/user')).json()).toMatchObject({
      data: { disable_florin_2fa: 1, recovery_codes_left: 10 },
    });
    expect((await mailTo(t.database.db, email)).map((m) => m.subject)).toContain(
      'Two-factor authentication is on — Florin',
    );

    const other = createBrowser(t.app);
    const first = await login(other, email);
    expect(first.json()).toMatchObject({
      login_token: expect.any(String) as string,
      data: { disable_2fa: 1, verified: true },
    });
    expect(first.cookies.find((c) => c.name === 'access_token')).toBeUndefined();
    const loginToken = first.json<{ login_token: string }>().login_token;

    const bad = await other.post('/api/v1/login-2fa', { login_token: loginToken, passcode: '123456' });
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad)).toMatchObject({ code: 'INVALID_PASSCODE', message: AUTH_TEXTS.wrongPasscode });

    const code = oathtoolCode(secret);
    const good = await other.post('/api/v1/login-2fa', { login_token: loginToken, passcode: code });
    expect(good.statusCode).toBe(200);
    expect((await other.get('/api/v1/user')).statusCode).toBe(200);

    const third = createBrowser(t.app);
    const again = (await login(third, email)).json<{ login_token: string }>().login_token;
    const reused = await third.post('/api/v1/login-2fa', { login_token: again, passcode: code });
    expect(errorOf(reused).message).toBe(AUTH_TEXTS.wrongPasscode);
  });

  it('asks a customer on e-mailed codes without an authenticator for the code mailed for that sign-in, once', async () => {
    const { browser, email } = await signedInCustomer();
    // The first sign-in has no sign-in before it to show.
    expect((await browser.get('/api/v1/user')).json()).toMatchObject({ data: { last_login: null } });
    await t.database.db
      .updateTable('users')
      .set({ platform_2fa_mobile: true })
      .where('email', '=', email)
      .execute();
    /** The newest sign-in code mail's text, and the code in it. */
    const signInMail = async () => {
      const mail = (await mailTo(t.database.db, email)).find((message) =>
        message.subject.startsWith('Your sign-in code'),
      );
      const code = mail && /\bis (\d{6})\. It works once/.exec(mail.text)?.[1];
      if (!code) throw new Error('no sign-in code mailed');
      return { text: mail.text, code };
    };

    const other = createBrowser(t.app);
    const first = await login(other, email);
    expect(first.json()).toMatchObject({ data: { disable_2fa: 1, verified: true, email_code: true } });
    expect(first.cookies.find((c) => c.name === 'access_token')).toBeUndefined();
    const token = first.json<{ login_token: string }>().login_token;
    const { text, code } = await signInMail();
    // The mail gives the sign-in's own five minutes, not the code's longer life.
    expect(text).toContain('It works once, for 5 minutes.');

    // A code mailed for another sign-in does not finish this one.
    const third = createBrowser(t.app);
    const secondToken = (await login(third, email)).json<{ login_token: string }>().login_token;
    const { code: otherCode } = await signInMail();
    const crossed = await other.post('/api/v1/login-2fa', { login_token: token, passcode: otherCode });
    expect(crossed.statusCode).toBe(422);
    expect(errorOf(crossed).message).toBe(AUTH_TEXTS.wrongPasscode);

    const good = await other.post('/api/v1/login-2fa', { login_token: token, passcode: code });
    expect(good.statusCode, good.body).toBe(200);
    expect((await other.get('/api/v1/user')).json()).toMatchObject({
      data: { platform_2fa_mobile: 1, last_login: expect.any(String) as string },
    });
    // Once used, the code finishes no other sign-in.
    const reused = await third.post('/api/v1/login-2fa', { login_token: secondToken, passcode: code });
    expect(reused.statusCode).toBe(422);
  });

  it('lets exactly one of 20 simultaneous sign-ins use the same code', async () => {
    const { browser, email } = await signedInCustomer();
    const { secret } = await enableTwoFactor(browser);
    const browsers = Array.from({ length: 20 }, () => createBrowser(t.app));
    const tokens = await Promise.all(
      browsers.map(async (b) => (await login(b, email)).json<{ login_token: string }>().login_token),
    );
    const code = oathtoolCode(secret, new Date(testClock.now().getTime() + 30_000));
    const results = await Promise.all(
      browsers.map((b, i) => b.post('/api/v1/login-2fa', { login_token: tokens[i], passcode: code })),
    );
    const statuses = results.map((r) => r.statusCode);
    // One gets in; the rest are refused as a used code, or by the per-account limit on wrong codes.
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.every((status) => status === 200 || status === 422 || status === 429)).toBe(true);
    const sessions = await t.database.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.id')
      .where('users.email', '=', email)
      .execute();
    expect(sessions).toHaveLength(2);
  });

  it('takes each recovery code once, tells the customer, and turns 2FA off with one', async () => {
    const { browser, email } = await signedInCustomer();
    const { recoveryCodes } = await enableTwoFactor(browser);
    const [first, second] = recoveryCodes as [string, string];
    const other = createBrowser(t.app);
    const token = (await login(other, email)).json<{ login_token: string }>().login_token;
    expect((await other.post('/api/v1/login-2fa', { login_token: token, passcode: first })).statusCode).toBe(
      200,
    );
    expect((await mailTo(t.database.db, email)).map((m) => m.subject)).toContain(
      'A recovery code was used to sign in — Florin',
    );

    const token2 = (await login(createBrowser(t.app), email)).json<{ login_token: string }>().login_token;
    expect((await other.post('/api/v1/login-2fa', { login_token: token2, passcode: first })).statusCode).toBe(
      422,
    );

    const wrongOff = await browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: '000000',
      disable_2fa: 1,
    });
    expect(errorOf(wrongOff)).toMatchObject({
      code: 'INVALID_PASSCODE',
      message: AUTH_TEXTS.wrongToggleCode,
    });
    const off = await browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: second,
      disable_2fa: 1,
    });
    expect(off.json()).toEqual({ message: AUTH_TEXTS.twoFactorToggled });
    expect((await browser.get('/api/v1/user')).json()).toMatchObject({ data: { disable_florin_2fa: 0 } });
    expect((await login(createBrowser(t.app), email)).json()).toMatchObject({ data: { disable_2fa: 0 } });
  });

  it('closes a sign-in after five wrong codes, and the signed-in owner can still turn 2FA off', async () => {
    const { browser, email } = await signedInCustomer();
    const { secret } = await enableTwoFactor(browser);
    const other = createBrowser(t.app);
    const token = (await login(other, email)).json<{ login_token: string }>().login_token;
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await other.post('/api/v1/login-2fa', { login_token: token, passcode: `00000${i}` })).statusCode,
      ).toBe(422);
    }
    const closed = await other.post('/api/v1/login-2fa', {
      login_token: token,
      passcode: oathtoolCode(secret),
    });
    expect(closed.statusCode).toBe(429);
    // Turning 2FA on or off is counted apart: a stranger's wrong sign-in codes do not lock the owner's settings.
    const off = await browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: oathtoolCode(secret),
      disable_2fa: 1,
    });
    expect(off.statusCode, off.body).toBe(200);
  });
});

describe('passwords', () => {
  it('resets a forgotten password through the mailed link once, signing out every session', async () => {
    const { browser, email } = await signedInCustomer();
    const anonymous = createBrowser(t.app);
    const unknown = await anonymous.post('/api/v1/password/email', { email: newEmail() });
    const known = await anonymous.post('/api/v1/password/email', { email });
    expect(unknown.json()).toEqual({ message: AUTH_TEXTS.resetLinkSent });
    expect(known.json()).toEqual(unknown.json());

    const link = await linkInMail(t.database.db, email, /Reset your Florin password/);
    expect(link).toMatch(/\/password-reset\?[\w-]{20,}$/);
    const token = link.slice(link.lastIndexOf('?') + 1);
    const newPassword = 'a brand new passphrase';
    const body = { email, password: newPassword, password_confirmation: newPassword, token };

    const wrongEmail = await anonymous.post('/api/v1/password/reset', { ...body, email: newEmail() });
    expect(errorOf(wrongEmail).errors).toEqual({ token: [AUTH_TEXTS.resetTokenInvalid] });
    expect((await anonymous.post('/api/v1/password/reset', body)).json()).toEqual({
      message: AUTH_TEXTS.passwordReset,
    });
    expect(errorOf(await anonymous.post('/api/v1/password/reset', body)).errors).toEqual({
      token: [AUTH_TEXTS.resetTokenInvalid],
    });

    expect((await browser.get('/api/v1/user')).statusCode).toBe(401);
    expect((await login(createBrowser(t.app), email)).statusCode).toBe(401);
    expect((await login(createBrowser(t.app), email, newPassword)).statusCode).toBe(200);
  });

  it('refuses an expired reset link', async () => {
    const { email } = await signedInCustomer();
    const anonymous = createBrowser(t.app);
    await anonymous.post('/api/v1/password/email', { email });
    await sql`UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'password_reset'`.execute(
      t.database.db,
    );
    const link = await linkInMail(t.database.db, email, /Reset your Florin password/);
    const token = link.slice(link.lastIndexOf('?') + 1);
    const response = await anonymous.post('/api/v1/password/reset', {
      email,
      password: 'another passphrase',
      password_confirmation: 'another passphrase',
      token,
    });
    expect(errorOf(response).errors).toEqual({ token: [AUTH_TEXTS.resetTokenInvalid] });
  });

  it('changes the password with the current one, signing out the other sessions only', async () => {
    const { browser, email } = await signedInCustomer();
    const elsewhere = createBrowser(t.app);
    await login(elsewhere, email);
    const wrong = await browser.put('/api/v1/settings/change-password', {
      current_password: 'nope',
      password: 'a different passphrase',
      password_confirmation: 'a different passphrase',
    });
    expect(errorOf(wrong).errors).toEqual({ current_password: [AUTH_TEXTS.currentPasswordWrong] });
    const mismatch = await browser.put('/api/v1/settings/change-password', {
      current_password: PASSWORD,
      password: 'a different passphrase',
      password_confirmation: 'different',
    });
    expect(errorOf(mismatch).errors).toEqual({ password_confirmation: [AUTH_TEXTS.passwordMismatch] });
    const changed = await browser.put('/api/v1/settings/change-password', {
      current_password: PASSWORD,
      password: 'a different passphrase',
      password_confirmation: 'a different passphrase',
    });
    expect(changed.json()).toEqual({ message: AUTH_TEXTS.passwordChanged });
    expect((await browser.get('/api/v1/user')).statusCode).toBe(200);
    expect((await elsewhere.get('/api/v1/user')).statusCode).toBe(401);
    expect((await mailTo(t.database.db, email)).map((m) => m.subject)).toContain(
      'Your password was changed — Florin',
    );
  });
});

describe('API tokens end with the sessions', () => {
  async function mintToken(browser: Browser): Promise<string> {
    const response = await browser.post('/api/v1/settings/api-token');
    expect(response.statusCode, response.body).toBe(200);
    return NewApiTokenSchema.parse(response.json()).data.token;
  }
  const withToken = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${token}` } });

  it('refuses a token minted before a password reset', async () => {
    const { browser, email } = await signedInCustomer();
    const token = await mintToken(browser);
    expect((await withToken(token)).statusCode).toBe(200);

    await createBrowser(t.app).post('/api/v1/password/email', { email });
    const link = await linkInMail(t.database.db, email, /Reset your Florin password/);
    const newPassword = 'a brand new passphrase';
    const reset = await createBrowser(t.app).post('/api/v1/password/reset', {
      email,
      password: newPassword,
      password_confirmation: newPassword,
      token: link.slice(link.lastIndexOf('?') + 1),
    });
    expect(reset.statusCode, reset.body).toBe(200);

    const refused = await withToken(token);
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused).code).toBe('UNAUTHENTICATED');
    const rows = await t.database.db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .select('api_tokens.deleted_at')
      .where('users.email', '=', email)
      .execute();
    expect(rows).toEqual([{ deleted_at: expect.any(Date) as Date }]);
  });

  it('refuses a token minted before a password change, while the changing session goes on', async () => {
    const { browser } = await signedInCustomer();
    const token = await mintToken(browser);
    expect((await withToken(token)).statusCode).toBe(200);
    const changed = await browser.put('/api/v1/settings/change-password', {
      current_password: PASSWORD,
      password: 'a different passphrase',
      password_confirmation: 'a different passphrase',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await withToken(token)).statusCode).toBe(401);
    expect((await browser.get('/api/v1/user')).statusCode).toBe(200);
    // The customer can make a new one from the session that made the change.
    expect((await withToken(await mintToken(browser))).statusCode).toBe(200);
  });
});

describe('changing the e-mail address', () => {
  it('switches only when the new address confirms, tells the old one, and the link works once', async () => {
    const { browser, email } = await signedInCustomer();
    const next = newEmail();
    const asked = await browser.post('/api/v1/settings/email', { email: next, password: PASSWORD });
    expect(asked.json()).toEqual({ message: AUTH_TEXTS.emailChangeSent });
    expect((await browser.get('/api/v1/user')).json()).toMatchObject({
      data: { email, pending_email: next },
    });
    expect((await mailTo(t.database.db, email)).map((m) => m.subject)).toContain(
      'A change of your email address was requested — Florin',
    );

    const link = await linkInMail(t.database.db, next, /Confirm your new email/);
    const path = new URL(link).pathname;
    const confirmed = await browser.get(path);
    expect(confirmed.statusCode).toBe(302);
    expect(confirmed.headers.location).toBe('/login?email_change=success');
    expect((await browser.get('/api/v1/user')).json()).toMatchObject({
      data: { email: next, pending_email: null },
    });
    expect((await mailTo(t.database.db, email)).map((m) => m.subject)).toContain(
      'Your email address was changed — Florin',
    );
    expect((await browser.get(path)).headers.location).toBe('/login?email_change=error');
  });

  it('mails no confirmation to an address another customer has, not even when asked to resend it', async () => {
    const { browser } = await signedInCustomer();
    const { email: taken } = await signedInCustomer();
    const before = (await mailTo(t.database.db, taken)).length;
    const asked = await browser.post('/api/v1/settings/email', { email: taken, password: PASSWORD });
    expect(asked.json()).toEqual({ message: AUTH_TEXTS.emailChangeSent });
    const { id } = (await browser.get('/api/v1/user')).json<{ data: { id: number } }>().data;
    expect((await browser.post(`/api/v1/users/email-resend-verification/${id}`)).statusCode).toBe(200);
    expect(await mailTo(t.database.db, taken)).toHaveLength(before);
  });

  it('starts the 24-hour crypto withdrawal wait, as the withdrawal codes now go to the new address', async () => {
    const { browser, email } = await signedInCustomer();
    const live = await t.database.db
      .updateTable('users')
      .set({ status: 1, live_since: new Date() })
      .where('email', '=', email)
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertApprovedVerification(t.database.db, createStorageFromConfig(t.config), live.id);
    const withdraw = () => askForBtcWithdrawal(browser);
    const blockedUntil = async () =>
      (await browser.get('/api/v1/crypto/withdraw-info?coin=btc')).json<{
        data: { blocked_until: string | null };
      }>().data.blocked_until;

    // Before the change nothing waits: the request gets as far as the (empty) balance.
    expect(await blockedUntil()).toBeNull();
    const before = await withdraw();
    expect(before.statusCode, before.body).toBe(422);

    const next = newEmail();
    await browser.post('/api/v1/settings/email', { email: next, password: PASSWORD });
    const link = await linkInMail(t.database.db, next, /Confirm your new email/);
    const start = Date.now();
    expect((await browser.get(new URL(link).pathname)).headers.location).toBe('/login?email_change=success');

    const paused = await withdraw();
    expect(paused.statusCode, paused.body).toBe(403);
    const until = await blockedUntil();
    expect(Date.parse(until ?? '')).toBeGreaterThanOrEqual(start - 1_000 + 24 * 3_600_000);
    expect(errorOf(paused)).toMatchObject({
      code: 'FORBIDDEN',
      message: waitUntilText(CRYPTO_WITHDRAW_TEXTS.securityWait, new Date(until ?? '')),
    });
  });
});

describe('mail on the routes that must not tell who has an account', () => {
  let slow: TestApp;
  const held: { message: MailMessage; fail: () => void }[] = [];

  beforeAll(async () => {
    // Every mail waits until the test lets it fail, as a slow or unreachable SMTP server would.
    slow = await createTestApp({
      mailer: {
        kind: 'smtp',
        send: (message) =>
          new Promise<void>((_resolve, reject) => {
            held.push({ message, fail: () => reject(new Error('SMTP server unreachable')) });
          }),
      },
    });
  });
  afterAll(async () => {
    for (const mail of held) mail.fail();
    await slow.close();
  });

  it('answers registration and password-reset requests without waiting for the mail, which may then fail', async () => {
    const email = newEmail();
    const registered = await register(createBrowser(slow.app), email);
    expect(registered.statusCode).toBe(201);
    const again = await register(createBrowser(slow.app), email, { first_name: 'Mallory' });
    expect(again.statusCode).toBe(201);
    const reset = await createBrowser(slow.app).post('/api/v1/password/email', { email });
    expect(reset.json()).toEqual({ message: AUTH_TEXTS.resetLinkSent });

    await vi.waitFor(
      () =>
        expect(held.map((mail) => [mail.message.to, mail.message.subject])).toEqual([
          [email, 'Verify your email address — Florin'],
          [email, 'You already have a Florin account — Florin'],
          [email, 'Reset your Florin password — Florin'],
        ]),
      { timeout: 10_000 },
    );
    // The links were made before the answer; only their mails were still on the way.
    const tokens = await slow.database.db
      .selectFrom('email_tokens')
      .innerJoin('users', 'users.id', 'email_tokens.user_id')
      .select('email_tokens.purpose')
      .where('users.email', '=', email)
      .orderBy('email_tokens.purpose')
      .execute();
    expect(tokens).toEqual([{ purpose: 'password_reset' }, { purpose: 'verify_email' }]);
    for (const mail of held) mail.fail();
    // A mail that then fails changes nothing the request did, and the app goes on answering.
    expect((await createBrowser(slow.app).post('/api/v1/password/email', { email })).statusCode).toBe(200);
  });
});
