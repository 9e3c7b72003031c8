import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TEXTS,
  AUTH_TEXTS,
  ENQUIRY_TEXTS,
  FIAT_TEXTS,
  OpenOrderSchema,
  QuoteSchema,
  REFERRALS_TEXTS,
  TERM_DEPOSIT_TEXTS,
  TRADING_TEXTS,
  TermDepositCoinSchema,
  TradingTermsSchema,
  type Quote,
} from '@florin/contracts';
import { notional, parseAmount, tradeFee } from '@florin/domain';
import { freshTotpCode, insertStaff, signInStaff, signedInStaff, type SignedInStaff } from '../test/admin.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createBrowser, linkInMail, type Browser } from '../test/browser.js';
import { expectLedgerToHold, fund, uniqueKey } from '../test/ledger.js';
import { createAuthRepository } from '../modules/auth/repository.js';
import { customerBrowser, mailSubjects } from '../modules/compliance/customers.test-kit.js';
import {
  balanceOf,
  errorOf,
  liveCustomer,
  mailedCode,
  newIdempotencyKey,
  readyBankAccount,
  withdraw,
  type FiatCustomer as Customer,
} from '../modules/fiat/fiat.test-kit.js';
import { testClock } from '../test/clock.js';
import { TOO_MANY_ATTEMPTS } from '../test/rate-limited.js';

/**
 * Issue 15, races: 50 concurrent copies of each money-moving or one-time-code
 * request that the module tests do not already race. Beside their modules:
 * fiat and crypto withdrawals and market orders spending one balance, the
 * crypto withdrawal code and the wallet removal code. Each case asserts the
 * exact answers, the rows in the database and, when money moved, the
 * invariant checker with every domain check main.ts runs.
 */

const COPIES = 50;

let t: TestApp;
let superadmin: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

/** COPIES concurrent calls of `send`. */
function race(send: (copy: number) => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse[]> {
  return Promise.all(Array.from({ length: COPIES }, (_, copy) => send(copy)));
}

/** How many answers had each status: { 200: 1, 409: 49 }. */
function tally(answers: readonly LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.statusCode] = (counts[answer.statusCode] ?? 0) + 1;
  return counts;
}

/** The messages of the refused answers, once each. */
function refusals(answers: readonly LightMyRequestResponse[]): string[] {
  return [...new Set(answers.filter((a) => a.statusCode !== 200).map((a) => errorOf(a).message))].sort();
}

/** Every copy answered 200 with the same body: the first result, replayed. */
function expectOneAnswer(answers: readonly LightMyRequestResponse[]): void {
  expect(tally(answers)).toEqual({ 200: COPIES });
  const first = answers[0]?.json<unknown>();
  for (const answer of answers) expect(answer.json<unknown>()).toEqual(first);
}

/**
 * COPIES uses of one second-factor code: one wins, and every other copy is refused, judged (the code
 * is spent) or, past the customer's five wrong codes (security/second-factor.ts), unjudged with a
 * 429. The right code clears the count: at most four wrong ones are judged beside it and five after.
 */
function expectOneWithOneCode(answers: readonly LightMyRequestResponse[], refusedStatus: number): void {
  const { 200: made, [refusedStatus]: refused = 0, 429: limited = 0, ...other } = tally(answers);
  expect({ made, other }).toEqual({ made: 1, other: {} });
  expect(refused + limited).toBe(COPIES - 1);
  for (const answer of answers.filter((a) => a.statusCode === 429))
    expect(errorOf(answer).message).toMatch(TOO_MANY_ATTEMPTS);
}

/** COPIES signed-in browsers of one customer: routes with a per-IP limit of ten a minute still see every copy. */
function browsersOf(customer: Customer): Promise<Browser[]> {
  return Promise.all(Array.from({ length: COPIES }, () => customerBrowser(t.app, db(), customer.id)));
}

/** Turns on the authenticator through the API and returns its secret. */
async function enableTwoFactor(browser: Browser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const generated = await browser.get('/api/v1/two-factor-authentication/generate');
  expect(generated.statusCode, generated.body).toBe(200);
  const { secret } = generated.json<{ data: { secret: string } }>().data;
  const toggled = await browser.post('/api/v1/two-factor-authentication/toggle', {
    passcode: freshTotpCode(secret),
    disable_2fa: 0,
  });
  expect(toggled.statusCode, toggled.body).toBe(200);
  return { secret, recoveryCodes: toggled.json<{ recovery_codes: string[] }>().recovery_codes };
}

async function countOf(
  table:
    'trades' | 'orders' | 'term_deposits' | 'affiliate_claims' | 'promo_redemptions' | 'fiat_withdrawals',
  userId: number,
): Promise<number> {
  const row = await db()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function holdsOf(userId: number, reason: string) {
  return db()
    .selectFrom('holds')
    .innerJoin('accounts', 'accounts.id', 'holds.account_id')
    .select(['holds.status', 'holds.amount'])
    .where('accounts.owner_user_id', '=', String(userId))
    .where('holds.reason', '=', reason)
    .execute();
}

/** The first ETH term offered to the customer. */
async function ethTerm(customer: Customer): Promise<number> {
  const coins = TermDepositCoinSchema.array().parse(
    (await customer.browser.get('/api/v1/term-deposit-coins')).json<{ data: unknown }>().data,
  );
  const option = coins.find((coin) => coin.coin_id === 'eth')?.options[0];
  if (!option) throw new Error('no ETH term');
  return option.id;
}

/** A live customer with a ready GBP account and £2.00 unpaid commission (Dr referral expense / Cr affiliate). */
async function earner(): Promise<Customer> {
  const customer = await liveCustomer(t);
  await readyBankAccount(t, customer);
  await t.ledger.postJournal(db(), {
    idempotencyKey: uniqueKey('commission'),
    kind: 'affiliate_commission',
    postings: [
      { account: { asset: 'GBP', kind: 'referral_expense' }, amount: -200n },
      { account: { asset: 'GBP', kind: 'affiliate', ownerUserId: String(customer.id) }, amount: 200n },
    ],
  });
  return customer;
}

function claim(browser: Browser, body: Record<string, unknown>, key = newIdempotencyKey()) {
  return browser.post('/api/v1/user/affiliate-withdraw', body, { headers: { 'idempotency-key': key } });
}

// ---- trading ----

async function drive(mid: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/dev/market/drive',
    payload: { symbol: 'BTC/GBP', mid },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function trader(gbp: bigint, platform: 1 | 2 = 1): Promise<Customer> {
  const customer = await liveCustomer(t);
  if (platform === 2)
    await db().updateTable('users').set({ platform }).where('id', '=', customer.id).execute();
  if (gbp > 0n) await fund(t.ledger, db(), customer.id, 'GBP', gbp);
  return customer;
}

function btcOf(customer: Customer) {
  return t.ledger.getBalance(db(), { asset: 'BTC', kind: 'available', ownerUserId: String(customer.id) });
}

async function quoteFor(customer: Customer): Promise<Quote> {
  const response = await customer.browser.post('/api/v1/quotes', {
    side: 'buy',
    coin_id: 'btc',
    quantity: '0.01',
  });
  expect(response.statusCode, response.body).toBe(200);
  return QuoteSchema.parse(response.json<{ data: unknown }>().data);
}

function limitOrder(customer: Customer, body: Record<string, unknown>) {
  return customer.browser.post(
    '/api/v1/crypto/limit_order',
    { coin_id: 'btc', order_type: 2, side: 1, ...body },
    { headers: { 'idempotency-key': newIdempotencyKey() } },
  );
}

describe('quote execution', () => {
  /**
   * POST /api/v1/order reads no Idempotency-Key: the quote is the key (its
   * journal's key is trade:quote:<id>) and a quote executes once; a second
   * execution is 409 "quote used" (trading.test.ts), whatever header it sends.
   * The balance covers all 50, so only the quote's own guard stops the 49.
   */
  async function executeFifty(key: (copy: number) => string) {
    const customer = await trader(1_200_000n);
    await drive('20000');
    const quote = await quoteFor(customer);
    const answers = await race((copy) =>
      customer.browser.post(
        '/api/v1/order',
        { quote_id: quote.id },
        { headers: { 'idempotency-key': key(copy) } },
      ),
    );
    expect(tally(answers)).toEqual({ 200: 1, 409: COPIES - 1 });
    expect(refusals(answers)).toEqual([TRADING_TEXTS.quoteUsed]);
    const trades = await db().selectFrom('trades').select('id').where('quote_id', '=', quote.id).execute();
    expect(trades).toHaveLength(1);
    expect(await countOf('trades', customer.id)).toBe(1);
    const journals = await db()
      .selectFrom('journals')
      .select('id')
      .where('idempotency_key', '=', `trade:quote:${quote.id}`)
      .execute();
    expect(journals).toHaveLength(1);
    expect((await balanceOf(t, customer.id)).available).toBe(
      1_200_000n - parseAmount(quote.total_cost_w_fee, 'GBP'),
    );
    expect((await btcOf(customer)).available).toBe(1_000_000n);
    await expectLedgerToHold(db());
  }

  it('of 50 executions of one quote, each with its own idempotency key, one trades', async () => {
    await executeFifty(() => newIdempotencyKey());
  });

  it('of 50 executions of one quote with one idempotency key, one trades', async () => {
    const key = newIdempotencyKey();
    await executeFifty(() => key);
  });
});

describe('limit orders', () => {
  it('of 50 cancels of one open order, one cancels and the hold is released once', async () => {
    const customer = await trader(100_000n, 2);
    await drive('20000');
    const placed = await limitOrder(customer, { order_qty: '0.01', price: '19000' });
    expect(placed.statusCode, placed.body).toBe(200);
    const order = OpenOrderSchema.parse(placed.json<{ data: unknown }>().data);
    expect((await balanceOf(t, customer.id)).held).toBe(parseAmount(order.held, 'GBP'));

    const answers = await race(() => customer.browser.post(`/api/v1/crypto/limit_order/${order.id}/cancel`));
    expect(tally(answers)).toEqual({ 200: 1, 422: COPIES - 1 });
    expect(refusals(answers)).toEqual([TRADING_TEXTS.orderNotOpen]);
    const row = await db()
      .selectFrom('orders')
      .select(['status', 'hold_id'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('cancelled');
    const hold = await db()
      .selectFrom('holds')
      .select(['status', 'remaining'])
      .where('id', '=', row.hold_id)
      .executeTakeFirstOrThrow();
    expect(hold).toEqual({ status: 'voided', remaining: '0' });
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 100_000n, held: 0n, available: 100_000n });
    await expectLedgerToHold(db());
  });

  it('of 50 limit orders each holding the whole balance, one is placed', async () => {
    await drive('20000');
    const customer = await trader(0n, 2);
    const terms = TradingTermsSchema.parse(
      (await customer.browser.get('/api/v1/trading/terms')).json<{ data: unknown }>().data,
    );
    const feePercent = terms.coins.find((coin) => coin.coin_id === 'btc')?.fee_percent;
    if (!feePercent) throw new Error('no BTC fee');
    // What a limit buy of 0.01 BTC at £19,000 holds: the most it may spend, fee included.
    const value = notional(1_000_000n, 'BTC', '19000', 'GBP', 'ceil');
    const whole = value + tradeFee(value, feePercent);
    await fund(t.ledger, db(), customer.id, 'GBP', whole);

    const answers = await race(() => limitOrder(customer, { order_qty: '0.01', price: '19000' }));
    expect(tally(answers)).toEqual({ 200: 1, 400: COPIES - 1 });
    expect(refusals(answers)).toEqual([TRADING_TEXTS.insufficientFunds]);
    expect(await countOf('orders', customer.id)).toBe(1);
    expect(await holdsOf(customer.id, 'limit_order')).toEqual([
      { status: 'pending', amount: whole.toString() },
    ]);
    expect(await balanceOf(t, customer.id)).toEqual({ posted: whole, held: whole, available: 0n });
    await expectLedgerToHold(db());
  });
});

describe('term deposits', () => {
  it('of 50 deposits each of the whole available balance, one locks it', async () => {
    const customer = await liveCustomer(t);
    await fund(t.ledger, db(), customer.id, 'ETH', parseAmount('1', 'ETH'));
    const day = await ethTerm(customer);

    const answers = await race(() =>
      customer.browser.post(
        '/api/v1/crypto/term-deposit',
        { coin: 'eth', amount: '1', day },
        { headers: { 'idempotency-key': newIdempotencyKey() } },
      ),
    );
    expect(tally(answers)).toEqual({ 200: 1, 422: COPIES - 1 });
    for (const answer of answers.filter((a) => a.statusCode !== 200))
      expect(errorOf(answer).errors).toEqual({ amount: [TERM_DEPOSIT_TEXTS.amountExceeded] });
    expect(await countOf('term_deposits', customer.id)).toBe(1);
    const locks = await db()
      .selectFrom('journals')
      .innerJoin('entries', 'entries.journal_id', 'journals.id')
      .innerJoin('accounts', 'accounts.id', 'entries.account_id')
      .select('journals.id')
      .where('journals.kind', '=', 'term_deposit_lock')
      .where('accounts.owner_user_id', '=', String(customer.id))
      .where('accounts.kind', '=', 'available')
      .execute();
    expect(locks).toHaveLength(1);
    const eth = await t.ledger.getBalance(db(), {
      asset: 'ETH',
      kind: 'available',
      ownerUserId: String(customer.id),
    });
    expect(eth).toEqual({ posted: 0n, held: 0n, available: 0n });
    await expectLedgerToHold(db());
  });
});

describe('affiliate earnings claims', () => {
  async function expectOneClaim(
    customer: Customer,
    answers: readonly LightMyRequestResponse[],
    options: { oneCode?: boolean } = {},
  ) {
    if (options.oneCode) expectOneWithOneCode(answers, 400);
    else expect(tally(answers)).toEqual({ 200: 1, 400: COPIES - 1 });
    expect(await countOf('affiliate_claims', customer.id)).toBe(1);
    expect(await holdsOf(customer.id, 'affiliate_claim')).toEqual([{ status: 'pending', amount: '200' }]);
    const affiliate = await t.ledger.getBalance(db(), {
      asset: 'GBP',
      kind: 'affiliate',
      ownerUserId: String(customer.id),
    });
    expect(affiliate).toEqual({ posted: 200n, held: 200n, available: 0n });
    const subjects = await mailSubjects(db(), customer.email);
    expect(subjects.filter((subject) => subject === 'Your referral earnings claim — Florin')).toHaveLength(1);
    await expectLedgerToHold(db());
  }

  it('of 50 claims of the whole earnings with one 2FA code, one is queued and the earnings are held once', async () => {
    const customer = await earner();
    const { secret } = await enableTwoFactor(customer.browser);
    const browsers = await browsersOf(customer);
    const passcode = freshTotpCode(secret);
    const answers = await race((copy) => claim(browsers[copy]!, { withdraw_amount: '2.00', passcode }));
    // The losers lose on the spent code, or (after the winner committed) on the earnings already claimed,
    // or past five wrong codes on the customer's count of them.
    for (const message of refusals(answers))
      expect(message).toSatisfy(
        (text: string) =>
          text === REFERRALS_TEXTS.wrongPasscode ||
          text === REFERRALS_TEXTS.nothingToClaim ||
          TOO_MANY_ATTEMPTS.test(text),
      );
    await expectOneClaim(customer, answers, { oneCode: true });
  });

  it('of 50 claims of the whole earnings without a second factor, one is queued', async () => {
    const customer = await earner();
    const browsers = await browsersOf(customer);
    const answers = await race((copy) => claim(browsers[copy]!, { withdraw_amount: '2.00' }));
    for (const message of refusals(answers))
      expect([REFERRALS_TEXTS.claimTooLarge, REFERRALS_TEXTS.nothingToClaim]).toContain(message);
    await expectOneClaim(customer, answers);
  });
});

describe('promo codes', () => {
  it('of 50 applications of one code by one customer, one is redeemed', async () => {
    const code = `RACE${Date.now().toString(36).toUpperCase()}`;
    const created = await superadmin.browser.post('/api/admin/promo-codes', {
      code,
      discount_percent: '25',
      duration_days: 30,
    });
    expect(created.statusCode, created.body).toBe(200);
    const customer = await liveCustomer(t);
    // The incentives policy admits customers outside the UK.
    await db().updateTable('users').set({ country: 'FR' }).where('id', '=', customer.id).execute();
    const browsers = await browsersOf(customer);
    const answers = await race((copy) =>
      browsers[copy]!.post('/api/v1/affiliate-codes/assign', { affiliate_code: code }),
    );
    expect(tally(answers)).toEqual({ 200: 1, 422: COPIES - 1 });
    expect(refusals(answers)).toEqual([REFERRALS_TEXTS.promoInvalid]);
    expect(await countOf('promo_redemptions', customer.id)).toBe(1);
  });
});

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
    await fund(t.ledger, db(), customer.id, 'GBP', 1_000_000n);
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
    await fund(t.ledger, db(), customer.id, 'GBP', 1_000_000n);
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

describe('idempotent replay', () => {
  it('answers 50 copies of one fiat withdrawal of the whole balance, with one key, with the one withdrawal', async () => {
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await fund(t.ledger, db(), customer.id, 'GBP', 10_000n);
    const key = newIdempotencyKey();
    const answers = await race(() => withdraw(customer, { amount: '100' }, key));
    expectOneAnswer(answers);
    expect(await countOf('fiat_withdrawals', customer.id)).toBe(1);
    expect(await holdsOf(customer.id, 'fiat_withdrawal')).toEqual([{ status: 'pending', amount: '10000' }]);
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 10_000n, held: 10_000n, available: 0n });
    const subjects = await mailSubjects(db(), customer.email);
    expect(subjects.filter((subject) => subject.startsWith('Your withdrawal request'))).toHaveLength(1);
    await expectLedgerToHold(db());
  });

  it('answers 50 copies of one crypto withdrawal of the whole balance, with one key, with the one withdrawal', async () => {
    const customer = await liveCustomer(t);
    await fund(t.ledger, db(), customer.id, 'BTC', 10_000_000n);
    const key = newIdempotencyKey();
    const answers = await race(() =>
      customer.browser.post(
        '/api/v1/crypto/send-verify-withdraw',
        {
          coin: 'btc',
          wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
          beneficiary_type: 'self',
          destination_type: 'private_wallet',
          amount: '0.1',
        },
        { headers: { 'idempotency-key': key } },
      ),
    );
    expectOneAnswer(answers);
    const rows = await db()
      .selectFrom('crypto_withdrawals')
      .select('id')
      .where('user_id', '=', customer.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await holdsOf(customer.id, 'crypto_withdrawal')).toEqual([
      { status: 'pending', amount: '10000000' },
    ]);
    await expectLedgerToHold(db());
  });

  it('answers 50 copies of one term deposit of the whole balance, with one key, with the one deposit', async () => {
    const customer = await liveCustomer(t);
    await fund(t.ledger, db(), customer.id, 'ETH', parseAmount('1', 'ETH'));
    const day = await ethTerm(customer);
    const key = newIdempotencyKey();
    const answers = await race(() =>
      customer.browser.post(
        '/api/v1/crypto/term-deposit',
        { coin: 'eth', amount: '1', day },
        { headers: { 'idempotency-key': key } },
      ),
    );
    expectOneAnswer(answers);
    expect(await countOf('term_deposits', customer.id)).toBe(1);
    await expectLedgerToHold(db());
  });

  it('answers 50 copies of one claim of the whole earnings, with one key, with the one claim', async () => {
    const customer = await earner();
    const browsers = await browsersOf(customer);
    const key = newIdempotencyKey();
    const answers = await race((copy) => claim(browsers[copy]!, { withdraw_amount: '2.00' }, key));
    expectOneAnswer(answers);
    expect(await countOf('affiliate_claims', customer.id)).toBe(1);
    await expectLedgerToHold(db());
  });

  it('answers 50 copies of one market buy, with one key, with the one trade', async () => {
    await drive('20000');
    // Enough for four such buys: only the key keeps it to one.
    const customer = await trader(100_000n, 2);
    const key = newIdempotencyKey();
    const answers = await race(() =>
      customer.browser.post(
        '/api/v1/crypto/buy',
        { coin_id: 'btc', crypto_amount: '0.01' },
        { headers: { 'idempotency-key': key } },
      ),
    );
    expectOneAnswer(answers);
    expect(await countOf('trades', customer.id)).toBe(1);
    expect((await btcOf(customer)).available).toBe(1_000_000n);
    await expectLedgerToHold(db());
  });

  it('answers 50 copies of one limit sell of the whole balance, with one key, with the one order', async () => {
    await drive('20000');
    const customer = await trader(0n, 2);
    await fund(t.ledger, db(), customer.id, 'BTC', 1_000_000n);
    const key = newIdempotencyKey();
    const answers = await race(() =>
      customer.browser.post(
        '/api/v1/crypto/limit_order',
        { coin_id: 'btc', order_type: 2, side: 2, order_qty: '0.01', price: '25000' },
        { headers: { 'idempotency-key': key } },
      ),
    );
    expectOneAnswer(answers);
    expect(await countOf('orders', customer.id)).toBe(1);
    expect(await holdsOf(customer.id, 'limit_order')).toEqual([{ status: 'pending', amount: '1000000' }]);
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
