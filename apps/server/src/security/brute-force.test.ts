import autocannon from 'autocannon';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshTotpCode } from '../test/admin.js';
import { CSRF, createTestApp, type TestApp } from '../test/app.js';
import { createBrowser, linkInMail, mailTo } from '../test/browser.js';

/**
 * Issue 15, brute force and abuse: the identity routes flooded with autocannon
 * over real HTTP from many addresses. The app believes X-Forwarded-For from
 * the loopback proxy, as it does from nginx in production, so each request
 * comes from an address of 127.0.0.0/8 the flood chooses. Every flood asserts
 * no 5xx, that the limits held (counted in the answers and in what was
 * e-mailed or changed), and that the real owner can still get in.
 */

const PASSWORD = 'Owner-passw0rd-for-brute-force';
/** The owner's own address: they have signed in from it before the floods start. */
const OWNER_ADDRESS = '127.0.0.9';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '1000000' } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

/** The n-th address of a flood: 127.<flood>.x.y, so floods never share one with each other or the owner. */
function addressOf(flood: number, n: number): string {
  return `127.${flood}.${(n >> 8) & 255}.${n & 255}`;
}

/** A signed-in browser's two cookies: the session, and the CSRF token bound to it. */
type Session = { token: string; csrf: string };

/** One request over HTTP from `address`, as a browser on our own pages sends it (signed in, with `session`). */
async function send(address: string, method: string, path: string, body?: unknown, session?: Session) {
  const csrf = session?.csrf ?? CSRF['x-csrf-token'];
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      'x-forwarded-for': address,
      'x-csrf-token': csrf,
      cookie: `csrf_token=${csrf}${session ? `; access_token=${session.token}` : ''}`,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const cookies = response.headers.getSetCookie().join('\n');
  const token = /access_token=([^;]+)/.exec(cookies)?.[1];
  const csrfToken = /csrf_token=([^;]+)/.exec(cookies)?.[1];
  return {
    status: response.status,
    json: <T>() => JSON.parse(text) as T,
    session: token && csrfToken ? { token, csrf: csrfToken } : undefined,
  };
}

type Flood = { statuses: Record<string, number>; fiveHundreds: number; errors: number };

/**
 * `amount` POSTs to `path` over 20 connections, the n-th from addressOf(flood, n % addresses)
 * with body(n). Answers are counted by status.
 */
async function flood(
  path: string,
  options: { flood: number; addresses: number; amount: number; body: (n: number) => unknown },
): Promise<Flood> {
  let sent = 0;
  const result = await autocannon({
    url: `${base}${path}`,
    connections: 20,
    amount: options.amount,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const n = sent++;
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              'x-forwarded-for': addressOf(options.flood, n % options.addresses),
              'x-csrf-token': CSRF['x-csrf-token'],
              cookie: CSRF.cookie,
            },
            body: JSON.stringify(options.body(n)),
          };
        },
      },
    ],
  });
  const statuses: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {}))
    statuses[status] = stats?.count ?? 0;
  expect(Object.values(statuses).reduce((sum, count) => sum + count, 0)).toBe(options.amount);
  return { statuses, fiveHundreds: result['5xx'], errors: result.errors };
}

/** A solved ALTCHA, as the sign-in form sends it (a payload is good once, from any address). */
function captcha(): Promise<string> {
  return createBrowser(t.app).captcha();
}

/** A registered, confirmed customer who has signed in once from OWNER_ADDRESS. */
async function owner(label: string): Promise<{ email: string; id: number }> {
  const email = `${label}.${Date.now()}@example.com`;
  const registered = await send(OWNER_ADDRESS, 'POST', '/api/v1/user-register', {
    first_name: 'Owen',
    last_name: 'Owner',
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    accept_terms_and_privacy: true,
  });
  expect(registered.status).toBe(201);
  const link = await linkInMail(t.database.db, email, /Verify your email/);
  expect((await send(OWNER_ADDRESS, 'POST', `/api/v1/user-verify/${link.split('/verify/')[1]}`)).status).toBe(
    200,
  );
  const login = await send(OWNER_ADDRESS, 'POST', '/api/v1/login', {
    username: email,
    password: PASSWORD,
    altcha: await captcha(),
  });
  expect(login.status).toBe(200);
  const user = await t.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { email, id: user.id };
}

describe('brute force from many addresses', () => {
  it('sign-in: unsolved captchas reach no password, solved ones stop at the account limit, and the owner still signs in at home', async () => {
    const { email } = await owner('login');

    // 2,000 guesses from 500 addresses, none able to pay for a captcha.
    const cheap = await flood('/api/v1/login', {
      flood: 1,
      addresses: 500,
      amount: 2_000,
      body: (n) => ({ username: email, password: `guess-${n}`, altcha: 'not-solved' }),
    });
    expect(cheap.fiveHundreds).toBe(0);
    expect(cheap.statuses).toEqual({ 422: 2_000 });

    // Eight guesses that did pay, from eight addresses: five are judged, then the account is shut to strangers.
    const paid: number[] = [];
    for (let n = 0; n < 8; n++) {
      const guess = await send(addressOf(2, n), 'POST', '/api/v1/login', {
        username: email,
        password: `paid-guess-${n}`,
        altcha: await captcha(),
      });
      paid.push(guess.status);
    }
    expect(paid).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // Even the right password from a stranger's address is refused now …
    const stranger = await send(addressOf(2, 99), 'POST', '/api/v1/login', {
      username: email,
      password: PASSWORD,
      altcha: await captcha(),
    });
    expect(stranger.status).toBe(429);
    // … while the owner, at an address they have signed in from, gets in.
    const home = await send(OWNER_ADDRESS, 'POST', '/api/v1/login', {
      username: email,
      password: PASSWORD,
      altcha: await captcha(),
    });
    expect(home.status).toBe(200);
    expect(home.session).toBeTruthy();
    expect((await send(OWNER_ADDRESS, 'GET', '/api/v1/user', undefined, home.session)).status).toBe(200);
  }, 120_000);

  it('2FA: a thief with the password guesses codes from many addresses; five are judged, none passes, and the owner signs in with their code', async () => {
    const { email } = await owner('twofactor');
    const home = await send(OWNER_ADDRESS, 'POST', '/api/v1/login', {
      username: email,
      password: PASSWORD,
      altcha: await captcha(),
    });
    const session = home.session;
    const generated = await send(
      OWNER_ADDRESS,
      'GET',
      '/api/v1/two-factor-authentication/generate',
      undefined,
      session,
    );
    const { secret } = generated.json<{ data: { secret: string } }>().data;
    const toggled = await send(
      OWNER_ADDRESS,
      'POST',
      '/api/v1/two-factor-authentication/toggle',
      { passcode: freshTotpCode(secret), disable_2fa: 0 },
      session,
    );
    expect(toggled.status).toBe(200);

    const stolen = await send(addressOf(3, 0), 'POST', '/api/v1/login', {
      username: email,
      password: PASSWORD,
      altcha: await captcha(),
    });
    expect(stolen.status).toBe(200);
    const loginToken = stolen.json<{ login_token: string }>().login_token;
    expect(loginToken).toBeTruthy();

    const guesses = await flood('/api/v1/login-2fa', {
      flood: 4,
      addresses: 250,
      amount: 1_000,
      body: (n) => ({ login_token: loginToken, passcode: String(100_000 + ((n * 7_919) % 900_000)) }),
    });
    expect(guesses.fiveHundreds).toBe(0);
    expect(guesses.statuses[200]).toBeUndefined();
    // Wrong codes judged: at most the account's five; every other guess is refused unjudged.
    expect(guesses.statuses[422] ?? 0).toBeLessThanOrEqual(5);
    expect((guesses.statuses[422] ?? 0) + (guesses.statuses[429] ?? 0) + (guesses.statuses[401] ?? 0)).toBe(
      1_000,
    );

    const owner2fa = await send(OWNER_ADDRESS, 'POST', '/api/v1/login', {
      username: email,
      password: PASSWORD,
      altcha: await captcha(),
    });
    const ownerToken = owner2fa.json<{ login_token: string }>().login_token;
    const signedIn = await send(OWNER_ADDRESS, 'POST', '/api/v1/login-2fa', {
      login_token: ownerToken,
      passcode: freshTotpCode(secret),
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.session).toBeTruthy();
  }, 120_000);

  it('password reset: a flood of requests mails the owner three links, guessed tokens change nothing, and the owner resets with a real link', async () => {
    const { email } = await owner('reset');
    const before = (await mailTo(t.database.db, email)).length;
    const requests = await flood('/api/v1/password/email', {
      flood: 5,
      addresses: 300,
      amount: 1_000,
      body: () => ({ email }),
    });
    expect(requests.fiveHundreds).toBe(0);
    // Written after the answers (their timing must not tell who has an account): waited for.
    await vi.waitFor(async () => expect((await mailTo(t.database.db, email)).slice(before)).toHaveLength(3));

    // 1,000 guessed tokens from 20 addresses: ten judged per address an hour, none right.
    const guesses = await flood('/api/v1/password/reset', {
      flood: 6,
      addresses: 20,
      amount: 1_000,
      body: (n) => ({
        email,
        token: `guessed-token-${n}-${'x'.repeat(20)}`,
        password: 'Thief-passw0rd-2026',
        password_confirmation: 'Thief-passw0rd-2026',
      }),
    });
    expect(guesses.fiveHundreds).toBe(0);
    expect(guesses.statuses[200]).toBeUndefined();
    expect(guesses.statuses[429]).toBe(1_000 - 20 * 10);

    const link = await linkInMail(t.database.db, email, /reset/i);
    const token = new URL(link).search.slice(1);
    const reset = await send(OWNER_ADDRESS, 'POST', '/api/v1/password/reset', {
      email,
      token,
      password: 'Owner-new-passw0rd-2026',
      password_confirmation: 'Owner-new-passw0rd-2026',
    });
    expect(reset.status).toBe(200);
    const login = await send(OWNER_ADDRESS, 'POST', '/api/v1/login', {
      username: email,
      password: 'Owner-new-passw0rd-2026',
      altcha: await captcha(),
    });
    expect(login.status).toBe(200);
  }, 120_000);

  it('registration and verification mails: ten sign-ups an hour per address, three verification mails an hour per account', async () => {
    const users = () => t.database.db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('rows'));
    const before = Number((await users().executeTakeFirstOrThrow()).rows);
    const signUps = await flood('/api/v1/user-register', {
      flood: 7,
      addresses: 5,
      amount: 500,
      body: (n) => ({
        first_name: 'Bot',
        last_name: `Number ${n}`,
        email: `bot.${n}.${Date.now()}@example.com`,
        password: PASSWORD,
        password_confirmation: PASSWORD,
        accept_terms_and_privacy: true,
      }),
    });
    expect(signUps.fiveHundreds).toBe(0);
    expect(signUps.statuses).toEqual({ 201: 50, 429: 450 });
    expect(Number((await users().executeTakeFirstOrThrow()).rows) - before).toBe(50);

    const email = `unconfirmed.${Date.now()}@example.com`;
    const registered = await send(OWNER_ADDRESS, 'POST', '/api/v1/user-register', {
      first_name: 'Una',
      last_name: 'Confirmed',
      email,
      password: PASSWORD,
      password_confirmation: PASSWORD,
      accept_terms_and_privacy: true,
    });
    const user = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(registered.status).toBe(201);
    const resends = await flood(`/api/v1/users/email-resend-verification/${user.id}`, {
      flood: 8,
      addresses: 200,
      amount: 600,
      body: () => ({}),
    });
    expect(resends.fiveHundreds).toBe(0);
    // The sign-up's own mail and three resends.
    expect((await mailTo(t.database.db, email)).map((mail) => mail.subject)).toHaveLength(4);
  }, 120_000);
});
