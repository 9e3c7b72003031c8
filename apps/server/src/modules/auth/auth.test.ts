import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_TEXTS, UNATTENDED_HEADER, ukDateTime } from '@florin/contracts';
import type { MailMessage } from '../../adapters/mail/mailer.js';
import * as passwords from '../../security/passwords.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser, linkInMail, mailTo } from '../../test/browser.js';
import { TOO_MANY_ATTEMPTS } from '../../test/rate-limited.js';
import { authSteps, errorOf, login, newEmail, PASSWORD, register } from './auth.test-kit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const { signedInCustomer } = authSteps(() => t);

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

    // Each mail is sent after its answer, so two requests' mails may reach the mailer in either order.
    await vi.waitFor(
      () =>
        expect(held.map((mail) => [mail.message.to, mail.message.subject]).sort()).toEqual(
          [
            [email, 'Verify your email address — Florin'],
            [email, 'You already have a Florin account — Florin'],
            [email, 'Reset your Florin password — Florin'],
          ].sort(),
        ),
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
