import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_TEXTS, CRYPTO_WITHDRAW_TEXTS, NewApiTokenSchema, waitUntilText } from '@florin/contracts';
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
import { authSteps, errorOf, login, newEmail, PASSWORD } from './auth.test-kit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const { signedInCustomer } = authSteps(() => t);

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

  it('keeps every reset link of the hour working until one is used, since mails can arrive out of order', async () => {
    const { email } = await signedInCustomer();
    const anonymous = createBrowser(t.app);
    const resetTokens = async () =>
      (await mailTo(t.database.db, email))
        .filter((mail) => /Reset your Florin password/.test(mail.subject))
        .map((mail) => /password-reset\?([\w-]+)/.exec(mail.text)?.[1] ?? '')
        .reverse();
    await anonymous.post('/api/v1/password/email', { email });
    await vi.waitFor(async () => expect(await resetTokens()).toHaveLength(1));
    await anonymous.post('/api/v1/password/email', { email });
    await vi.waitFor(async () => expect(await resetTokens()).toHaveLength(2));
    const tokens = await resetTokens();
    expect(tokens[0]).not.toEqual(tokens[1]);
    const reset = (token: string, password: string) =>
      anonymous.post('/api/v1/password/reset', { email, password, password_confirmation: password, token });

    expect((await reset(tokens[0] ?? '', 'the first link works')).statusCode).toBe(200);
    expect(errorOf(await reset(tokens[1] ?? '', 'the second one is void')).errors).toEqual({
      token: [AUTH_TEXTS.resetTokenInvalid],
    });
    expect((await login(createBrowser(t.app), email, 'the first link works')).statusCode).toBe(200);
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
