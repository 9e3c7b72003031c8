import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TEXTS, AUTH_TEXTS, ENQUIRY_TEXTS, FIAT_TEXTS } from '@florin/contracts';
import { freshTotpCode, insertStaff, signInStaff, signedInStaff } from '../test/admin.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createBrowser, linkInMail, type Browser } from '../test/browser.js';
import { bankDeposit } from '../test/deposits.js';
import { expectLedgerToHold } from '../test/ledger.js';
import { createAuthRepository } from '../modules/auth/repository.js';
import { mailSubjects } from '../modules/compliance/customers.test-kit.js';
import {
  balanceOf,
  errorOf,
  liveCustomer,
  mailedCode,
  readyBankAccount,
  withdraw,
} from '../modules/fiat/fiat.test-kit.js';
import { testClock } from '../test/clock.js';
import { COPIES, expectOneWithOneCode, race, raceSteps, refusals, tally } from './races.test-kit.js';

/**
 * Issue 15, races on one-time codes and accounts: 50 concurrent uses of one link or code (e-mail
 * verification, sign-in second factor, password reset, e-mail change, fiat withdrawal codes), the
 * failure limits counted in the database, and staff accounts disabling each other. Balances raced by
 * money-moving requests and idempotent replays are in races.test.ts.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  // A superadmin outside the ring below, as the staff race has always run beside one.
  await signedInStaff(t.app, t.database.db, 'superadmin');
});
afterAll(async () => {
  await t.close();
});

const { db, enableTwoFactor, countOf } = raceSteps(() => t);

// ---- one-time codes ----

const PASSWORD = 'correct horse battery staple';
let people = 0;

/** Registers through the API; the verification link is in the mailbox. */
async function registered(): Promise<{ email: string; browser: Browser }> {
  people += 1;
  const email = `racer${people}.${Date.now()}@example.com`;
  const browser = createBrowser(t.app);
  const response = await browser.post('/api/v1/user-register', {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    accept_terms_and_privacy: true,
  });
  expect(response.statusCode, response.body).toBe(201);
  return { email, browser };
}

async function verifyToken(email: string): Promise<string> {
  const link = await linkInMail(db(), email, /Verify your email/);
  return link.split('/verify/')[1] as string;
}

async function login(browser: Browser, email: string, password = PASSWORD) {
  return browser.post('/api/v1/login', { username: email, password, altcha: await browser.captcha() });
}

/** A customer registered, verified and signed in. */
async function signedInCustomer() {
  const { email, browser } = await registered();
  expect((await browser.post(`/api/v1/user-verify/${await verifyToken(email)}`)).statusCode).toBe(200);
  expect((await login(browser, email)).statusCode).toBe(200);
  return { email, browser };
}

/** A verified customer signed in with 2FA on. */
async function twoFactorCustomer() {
  const { email, browser } = await signedInCustomer();
  return { email, browser, ...(await enableTwoFactor(browser)) };
}

async function sessionsOf(email: string): Promise<number> {
  const row = await db()
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('users.email', '=', email)
    .where('sessions.revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('one-time codes', () => {
  it('of 50 requests turning 2FA on with one code, one succeeds: no second set of recovery codes replaces its', async () => {
    const { email, browser } = await signedInCustomer();
    const generated = await browser.get('/api/v1/two-factor-authentication/generate');
    const { secret } = generated.json<{ data: { secret: string } }>().data;
    const passcode = freshTotpCode(secret);
    const answers = await race(() =>
      browser.post('/api/v1/two-factor-authentication/toggle', { passcode, disable_2fa: 0 }),
    );
    // Five are judged (the toggle's limit), the rest refused 429; of the judged, the first turns it on.
    expect(tally(answers)[200]).toBe(1);
    const user = await db()
      .selectFrom('users')
      .select('totp_secret_encrypted')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.totp_secret_encrypted).not.toBeNull();
  });

  it('of 50 uses of one e-mail verification link, one verifies', async () => {
    const { email } = await registered();
    const token = await verifyToken(email);
    const answers = await race(() => createBrowser(t.app).post(`/api/v1/user-verify/${token}`));
    expect(tally(answers)).toEqual({ 200: 1, 404: COPIES - 1 });
    expect(refusals(answers)).toEqual([AUTH_TEXTS.verifyErrorBanner]);
    const tokens = await db()
      .selectFrom('email_tokens')
      .innerJoin('users', 'users.id', 'email_tokens.user_id')
      .select(['email_tokens.used_at'])
      .where('users.email', '=', email)
      .where('email_tokens.purpose', '=', 'verify_email')
      .execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]?.used_at).not.toBeNull();
  });

  it('of 50 sign-ins finished with one authenticator code, one gets a session', async () => {
    const { email, secret } = await twoFactorCustomer();
    const started = await login(createBrowser(t.app), email);
    expect(started.json()).toMatchObject({ data: { disable_2fa: 1 } });
    // The other 49 sign-ins as the password step leaves them: 50 captchas and password checks
    // would take half a minute and race nothing (the password step is auth.test.ts's).
    const user = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const repository = createAuthRepository(db(), testClock);
    const tokens = [
      started.json<{ login_token: string }>().login_token,
      ...(await Promise.all(
        Array.from({ length: COPIES - 1 }, () => repository.createLoginChallenge(user.id, 300)),
      )),
    ];
    const browsers = tokens.map(() => createBrowser(t.app));
    const passcode = freshTotpCode(secret);
    const answers = await race((copy) =>
      browsers[copy]!.post('/api/v1/login-2fa', { login_token: tokens[copy], passcode }),
    );
    // The losers are refused as a spent code, or by the per-account limit on wrong codes once it fills.
    const counts = tally(answers);
    expect(counts[200]).toBe(1);
    expect((counts[422] ?? 0) + (counts[429] ?? 0)).toBe(COPIES - 1);
    // The session the customer signed in with, and the one winner's.
    expect(await sessionsOf(email)).toBe(2);
  });

  it('of 50 copies of one sign-in finished with one recovery code, one gets a session and one code is spent', async () => {
    const { email, recoveryCodes } = await twoFactorCustomer();
    const browser = createBrowser(t.app);
    const started = await login(browser, email);
    const token = started.json<{ login_token: string }>().login_token;
    const answers = await race(() =>
      createBrowser(t.app).post('/api/v1/login-2fa', { login_token: token, passcode: recoveryCodes[0] }),
    );
    const counts = tally(answers);
    expect(counts[200]).toBe(1);
    // Refused as a spent code (422), a used sign-in (401), or five wrong codes (429).
    expect((counts[401] ?? 0) + (counts[422] ?? 0) + (counts[429] ?? 0)).toBe(COPIES - 1);
    expect(await sessionsOf(email)).toBe(2);
    const left = await db()
      .selectFrom('recovery_codes')
      .innerJoin('users', 'users.id', 'recovery_codes.user_id')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('users.email', '=', email)
      .where('recovery_codes.used_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(left.count)).toBe(recoveryCodes.length - 1);
  });

  it('of 50 uses of one password reset link, one sets the password', async () => {
    const { email, browser } = await registered();
    await browser.post(`/api/v1/user-verify/${await verifyToken(email)}`);
    expect((await createBrowser(t.app).post('/api/v1/password/email', { email })).statusCode).toBe(200);
    const link = await linkInMail(db(), email, /Reset your Florin password/);
    const token = link.slice(link.lastIndexOf('?') + 1);
    const password = 'a brand new passphrase';
    const answers = await race(() =>
      createBrowser(t.app).post('/api/v1/password/reset', {
        email,
        password,
        password_confirmation: password,
        token,
      }),
    );
    expect(tally(answers)).toEqual({ 200: 1, 422: COPIES - 1 });
    for (const answer of answers.filter((a) => a.statusCode !== 200))
      expect(errorOf(answer).errors).toEqual({ token: [AUTH_TEXTS.resetTokenInvalid] });
    const subjects = await mailSubjects(db(), email);
    expect(subjects.filter((subject) => subject === 'Your password was changed — Florin')).toHaveLength(1);
    expect((await login(createBrowser(t.app), email, password)).statusCode).toBe(200);
  });

  it('of 50 uses of one e-mail change link, one changes the address', async () => {
    const { email, browser } = await registered();
    await browser.post(`/api/v1/user-verify/${await verifyToken(email)}`);
    expect((await login(browser, email)).statusCode).toBe(200);
    const next = `moved.${email}`;
    const asked = await browser.post('/api/v1/settings/email', { email: next, password: PASSWORD });
    expect(asked.statusCode, asked.body).toBe(200);
    const path = new URL(await linkInMail(db(), next, /Confirm your new email/)).pathname;
    const answers = await race(() => createBrowser(t.app).get(path));
    expect(tally(answers)).toEqual({ 302: COPIES });
    const outcomes = answers.map((answer) => answer.headers.location);
    expect(outcomes.filter((to) => to === '/login?email_change=success')).toHaveLength(1);
    expect(outcomes.filter((to) => to === '/login?email_change=error')).toHaveLength(COPIES - 1);
    const subjects = await mailSubjects(db(), email);
    expect(subjects.filter((subject) => subject === 'Your email address was changed — Florin')).toHaveLength(
      1,
    );
  });

  it('of 50 fiat withdrawals with one e-mailed code, one is made', async () => {
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await bankDeposit(t, customer, '10000.00');
    await db()
      .updateTable('users')
      .set({ platform_2fa_mobile: true })
      .where('id', '=', customer.id)
      .execute();
    const sent = await customer.browser.post('/api/v1/mobile/request-2fa', { purpose: 'Fiat Withdraw(2fa)' });
    expect(sent.statusCode, sent.body).toBe(200);
    const passcode = await mailedCode(db(), customer.email);
    // The balance covers all 50: only the code stops the 49.
    const answers = await race(() => withdraw(customer, { amount: '30', passcode }));
    expectOneWithOneCode(answers, 400);
    expect(tally(answers)[400]).toBeLessThanOrEqual(9);
    for (const answer of answers.filter((a) => a.statusCode === 400))
      expect(errorOf(answer).message).toBe(FIAT_TEXTS.wrongPasscode);
    expect(await countOf('fiat_withdrawals', customer.id)).toBe(1);
    expect(await balanceOf(t, customer.id)).toEqual({
      posted: 1_000_000n,
      held: 3_000n,
      available: 997_000n,
    });
    await expectLedgerToHold(db());
  });

  it('of 50 fiat withdrawals with one authenticator code, one is made', async () => {
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await bankDeposit(t, customer, '10000.00');
    const { secret } = await enableTwoFactor(customer.browser);
    const passcode = freshTotpCode(secret);
    const answers = await race(() => withdraw(customer, { amount: '30', passcode }));
    expectOneWithOneCode(answers, 400);
    expect(tally(answers)[400]).toBeLessThanOrEqual(9);
    for (const answer of answers.filter((a) => a.statusCode === 400))
      expect(errorOf(answer).message).toBe(FIAT_TEXTS.wrongPasscode);
    expect(await countOf('fiat_withdrawals', customer.id)).toBe(1);
    expect((await balanceOf(t, customer.id)).held).toBe(3_000n);
    await expectLedgerToHold(db());
  });
});

/**
 * The failure limits counted in the database (5 wrong passwords or codes in 15 minutes, 5 enquiries an
 * hour): each attempt takes its place in the count before it is judged, so of 50 at once exactly 5 are
 * judged. Counted after judging, all 50 passed the count before the first failure was written.
 */
describe('abuse limits under concurrency', () => {
  const JUDGED = 5;

  /** The 5 judged answers carry `message` (or the field error); the rest are the limit's 429. */
  function expectFiveJudged(
    answers: readonly LightMyRequestResponse[],
    judgedStatus: number,
    message: string,
  ) {
    expect(tally(answers)).toEqual({ [judgedStatus]: JUDGED, 429: COPIES - JUDGED });
    for (const answer of answers.filter((a) => a.statusCode === judgedStatus)) {
      const error = errorOf(answer);
      expect([error.message, ...Object.values(error.errors ?? {}).flat()]).toContain(message);
    }
    expect(refusals(answers).filter((text) => text.startsWith('Too many attempts'))).toHaveLength(1);
  }

  it('of 50 password changes with a wrong current password, 5 are judged and the password stays', async () => {
    const { email, browser } = await signedInCustomer();
    const answers = await race(() =>
      browser.put('/api/v1/settings/change-password', {
        current_password: 'not the password',
        password: 'another long passphrase',
        password_confirmation: 'another long passphrase',
      }),
    );
    expectFiveJudged(answers, 422, AUTH_TEXTS.currentPasswordWrong);
    expect((await login(createBrowser(t.app), email)).statusCode).toBe(200);
  });

  it('of 50 e-mail changes with a wrong password, 5 are judged and nothing is pending', async () => {
    const { email, browser } = await signedInCustomer();
    const answers = await race((copy) =>
      browser.post('/api/v1/settings/email', { email: `new.${copy}.${email}`, password: 'not the password' }),
    );
    expectFiveJudged(answers, 422, AUTH_TEXTS.currentPasswordWrong);
    const user = await db()
      .selectFrom('users')
      .select('pending_email')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.pending_email).toBeNull();
  });

  it('of 50 attempts to turn 2FA off with a wrong code, 5 are judged and 2FA stays on', async () => {
    const { email, browser } = await twoFactorCustomer();
    const answers = await race(() =>
      browser.post('/api/v1/two-factor-authentication/toggle', { passcode: '000000', disable_2fa: 1 }),
    );
    expectFiveJudged(answers, 422, AUTH_TEXTS.wrongToggleCode);
    const user = await db()
      .selectFrom('users')
      .select('totp_secret_encrypted')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.totp_secret_encrypted).not.toBeNull();
  });

  it('of 50 staff sign-ins with a wrong password from 50 addresses, 5 are judged', async () => {
    const staff = await insertStaff(db(), { role: 'support' });
    const answers = await race(() =>
      createBrowser(t.app).post('/api/admin/login', { email: staff.email, password: 'not the password' }),
    );
    expectFiveJudged(answers, 401, ADMIN_TEXTS.invalidCredentials);
  });

  it('of 50 wrong codes on one staff sign-in, 5 are judged and no session opens', async () => {
    const staff = await signInStaff(t.app, await insertStaff(db(), { role: 'support' }));
    const browser = createBrowser(t.app);
    const started = await browser.post('/api/admin/login', { email: staff.email, password: staff.password });
    expect(started.statusCode, started.body).toBe(200);
    const loginToken = started.json<{ login_token: string }>().login_token;
    const answers = await race(() =>
      browser.post('/api/admin/login-2fa', { login_token: loginToken, code: '000000' }),
    );
    expectFiveJudged(answers, 422, ADMIN_TEXTS.wrongCode);
    const sessions = await db()
      .selectFrom('staff_sessions')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('staff_id', '=', staff.id)
      .executeTakeFirstOrThrow();
    // The one signInStaff opened.
    expect(Number(sessions.count)).toBe(1);
  });

  it('of 50 enquiries from one address, 5 are kept', async () => {
    const browser = createBrowser(t.app);
    const answers = await race((copy) =>
      browser.post('/api/v1/inquire/general', {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: `enquirer.${copy}.${Date.now()}@example.com`,
        message: 'How do I open a company account?',
      }),
    );
    expect(tally(answers)).toEqual({ 200: JUDGED, 429: COPIES - JUDGED });
    for (const answer of answers.filter((a) => a.statusCode === 200))
      expect(answer.json()).toMatchObject({ message: ENQUIRY_TEXTS.sent });
    const kept = await db()
      .selectFrom('enquiries')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('email', 'like', 'enquirer.%')
      .executeTakeFirstOrThrow();
    expect(Number(kept.count)).toBe(JUDGED);
  });
});

describe('staff accounts', () => {
  it('of ten superadmins each disabling the next at once, not all succeed: one is left to run the back office', async () => {
    const ring = await Promise.all(
      Array.from({ length: 10 }, () => signedInStaff(t.app, t.database.db, 'superadmin')),
    );
    const answers = await Promise.all(
      ring.map((member, index) =>
        member.browser.post(`/api/admin/staff/${ring[(index + 1) % ring.length]!.id}/disable`),
      ),
    );
    // A loser is answered as the door answers a member who no longer may: not found.
    expect(Object.keys(tally(answers)).sort()).toEqual(['200', '404']);
    const left = await db()
      .selectFrom('staff')
      .select('id')
      .where(
        'id',
        'in',
        ring.map((member) => member.id),
      )
      .where('disabled_at', 'is', null)
      .execute();
    expect(left.length).toBeGreaterThan(0);
  });
});
