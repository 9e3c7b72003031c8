import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OpenOrderSchema,
  QuoteSchema,
  REFERRALS_TEXTS,
  TERM_DEPOSIT_TEXTS,
  TRADING_TEXTS,
  TermDepositCoinSchema,
  TradingTermsSchema,
  type Quote,
} from '@florin/contracts';
import { formatAmount, notional, parseAmount, tradeFee } from '@florin/domain';
import { freshTotpCode, signedInStaff, type SignedInStaff } from '../test/admin.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { type Browser } from '../test/browser.js';
import { bankDeposit, coinDeposit } from '../test/deposits.js';
import { expectLedgerToHold, uniqueKey } from '../test/ledger.js';
import { mailSubjects } from '../modules/compliance/customers.test-kit.js';
import {
  balanceOf,
  errorOf,
  liveCustomer,
  newIdempotencyKey,
  readyBankAccount,
  withdraw,
  type FiatCustomer as Customer,
} from '../modules/fiat/fiat.test-kit.js';
import { TOO_MANY_ATTEMPTS } from '../test/rate-limited.js';
import {
  COPIES,
  expectOneAnswer,
  expectOneWithOneCode,
  race,
  raceSteps,
  refusals,
  tally,
} from './races.test-kit.js';

/**
 * Issue 15, races: 50 concurrent copies of each money-moving or one-time-code
 * request that the module tests do not already race. Beside their modules:
 * fiat and crypto withdrawals and market orders spending one balance, the
 * crypto withdrawal code and the wallet removal code. Each case asserts the
 * exact answers, the rows in the database and, when money moved, the
 * invariant checker with every domain check main.ts runs. The races on
 * one-time codes, failure limits and staff accounts are in account-races.test.ts.
 */

let t: TestApp;
let superadmin: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
});
afterAll(async () => {
  await t.close();
});

const { db, browsersOf, enableTwoFactor, countOf, holdsOf } = raceSteps(() => t);

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
  if (gbp > 0n) await bankDeposit(t, customer, formatAmount(gbp, 'GBP'));
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
    await bankDeposit(t, customer, formatAmount(whole, 'GBP'));

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
    await coinDeposit(t, customer, 'eth', '1');
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

describe('idempotent replay', () => {
  it('answers 50 copies of one fiat withdrawal of the whole balance, with one key, with the one withdrawal', async () => {
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await bankDeposit(t, customer, '100.00');
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
    await coinDeposit(t, customer, 'btc', '0.1');
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
    await coinDeposit(t, customer, 'eth', '1');
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
    await coinDeposit(t, customer, 'btc', '0.01');
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
