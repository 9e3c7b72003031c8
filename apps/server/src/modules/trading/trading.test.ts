import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  COMPLIANCE_TEXTS,
  KYC_TEXTS,
  OpenOrderSchema,
  PositionSchema,
  QuoteSchema,
  TRADING_TEXTS,
  TradeSchema,
  TradingTermsSchema,
  pageSchema,
  type OpenOrder,
  type Quote,
} from '@florin/contracts';
import { DEFAULT_FEE_SCHEDULE, feePercent, instantQuote, parseAmount } from '@florin/domain';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { SESSION_COOKIE } from '../../http/auth.js';
import { checkLedger } from '../../ledger/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { fund } from '../../test/ledger.js';
import { auditRows, mailSubjects } from '../compliance/customers.test-kit.js';
import { errorOf, liveCustomer, newIdempotencyKey, type FiatCustomer as Customer } from '../fiat/fiat.test-kit.js';
import { createSessionStore } from '../auth/sessions.js';
import { createNotifier } from '../notifications/service.js';
import { connect } from '../realtime/realtime.test-kit.js';
import { createFeeScheduleStore } from '../fees/schedule.js';
import { createComplianceRepository } from '../compliance/repository.js';
import { createComplianceService, type ComplianceServiceDeps } from '../compliance/service.js';
import type { KycReader } from '../compliance/views.js';
import { createTradingVolumes } from '../trading-volume/service.js';
import { createTradingRepository } from './repository.js';
import { createTradingService, tradingDomainCheck, type TradingServiceDeps } from './service.js';
import { createInvestorRepository } from '../investor/repository.js';
import { createInvestorService } from '../investor/service.js';
import { createKycRepository } from '../kyc/repository.js';
import { createVerificationGate } from '../kyc/verification.js';
import { filePart, jpeg, multipart, WEALTH_NO, WEALTH_YES } from '../kyc/kyc.test-kit.js';
import { signedInStaff } from '../../test/admin.js';
import { testClock } from '../../test/clock.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

async function expectLedgerToHold(): Promise<void> {
  const result = await checkLedger(db(), [tradingDomainCheck]);
  expect(result.violations).toEqual([]);
}

/** Moves the simulated BTC/GBP mid (and fills what it crosses) through the dev route. */
async function drive(mid: string, symbol = 'BTC/GBP') {
  const response = await t.app.inject({ method: 'POST', url: '/dev/market/drive', payload: { symbol, mid } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { bid: string; ask: string } }>().data;
}

async function trader(options: { platform?: 1 | 2; gbp?: bigint; btc?: bigint } = {}): Promise<Customer> {
  const customer = await liveCustomer(t);
  if (options.platform === 2)
    await db().updateTable('users').set({ platform: 2 }).where('id', '=', customer.id).execute();
  if (options.gbp) await fund(t.ledger, db(), customer.id, 'GBP', options.gbp);
  if (options.btc) await fund(t.ledger, db(), customer.id, 'BTC', options.btc);
  return customer;
}

/** The firm ended the account a moment ago: 60 days to withdraw, nothing else (issue 13). */
async function terminate(customer: Customer): Promise<void> {
  await db()
    .updateTable('users')
    .set({
      terminated_at: sql<Date>`now() - interval '1 second'`,
      access_ends_at: sql<Date>`now() + interval '60 days'`,
      terminated_by: 'firm',
    })
    .where('id', '=', customer.id)
    .execute();
}

async function balance(customer: Customer, asset: 'GBP' | 'BTC') {
  return t.ledger.getBalance(db(), { asset, kind: 'available', ownerUserId: String(customer.id) });
}

async function quote(customer: Customer, body: Record<string, unknown>): Promise<Quote> {
  const response = await customer.browser.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', ...body });
  expect(response.statusCode, response.body).toBe(200);
  return QuoteSchema.parse(response.json<{ data: unknown }>().data);
}

function execute(customer: Customer, quoteId: string) {
  return customer.browser.post('/api/v1/order', { quote_id: quoteId });
}

function market(
  customer: Customer,
  side: 'buy' | 'sell',
  body: Record<string, unknown>,
  key = newIdempotencyKey(),
) {
  return customer.browser.post(
    `/api/v1/crypto/${side}`,
    { coin_id: 'btc', ...body },
    { headers: { 'idempotency-key': key } },
  );
}

function limit(customer: Customer, body: Record<string, unknown>, key = newIdempotencyKey()) {
  return customer.browser.post(
    '/api/v1/crypto/limit_order',
    { coin_id: 'btc', order_type: 2, ...body },
    { headers: { 'idempotency-key': key } },
  );
}

async function placed(customer: Customer, body: Record<string, unknown>): Promise<OpenOrder> {
  const response = await limit(customer, body);
  expect(response.statusCode, response.body).toBe(200);
  return OpenOrderSchema.parse(response.json<{ data: unknown }>().data);
}

/** A trading service of its own on the test's database, with some of its parts replaced. */
function tradingService(overrides: Pick<TradingServiceDeps, 'market'> & Partial<TradingServiceDeps>) {
  return createTradingService({
    db: db(),
    repository: createTradingRepository(db()),
    volumes: createTradingVolumes(db()),
    ledger: t.ledger,
    notifier: createNotifier({ db: db(), mailer: createDevMailbox(db()), log: t.app.log }),
    userEvents: { moneyMoved: () => undefined, ordersChanged: () => undefined },
    log: t.app.log,
    feeDiscountFor: () => Promise.resolve(null),
    feeSchedule: createFeeScheduleStore(db()),
    investor: createInvestorService({
      db: db(),
      repository: createInvestorRepository(db()),
      clock: testClock,
    }),
    verification: createVerificationGate({ db: db(), repository: createKycRepository(db()) }),
    sourceOfWealth: { resetSourceOfWealthOverThreshold: () => Promise.resolve() },
    ...overrides,
  });
}

async function statusOf(orderId: string) {
  return (
    await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()
  ).status;
}

describe('instant trades at a quoted price', () => {
  it('quotes at the customer’s fee and ask, executes once, and moves the money in one journal', async () => {
    const customer = await trader({ gbp: 100_000n });
    const prices = await drive('20000');
    const terms = TradingTermsSchema.parse(
      (await customer.browser.get('/api/v1/trading/terms')).json<{ data: unknown }>().data,
    );
    expect(terms).toMatchObject({ platform: 1, tier: 1, custom_fee_percent: null, volume_gbp: '0.00' });
    expect(terms.coins.find((coin) => coin.coin_id === 'btc')).toMatchObject({ fee_percent: '1.39' });

    const offer = await quote(customer, { quantity: '0.01' });
    expect(offer).toMatchObject({ side: 'buy', symbol: 'BTC/GBP', price: prices.ask, fee_percent: '1.39' });
    const expected = instantQuote({
      side: 'buy',
      coin: 'BTC',
      fiat: 'GBP',
      price: prices.ask,
      feePercent: '1.39',
      quantity: 1_000_000n,
    });
    expect(parseAmount(offer.total_cost_w_fee, 'GBP')).toBe(expected.total);
    expect(parseAmount(offer.fee, 'GBP')).toBe(expected.fee);
    expect(offer.exceeds_balance).toBe(false);

    const done = await execute(customer, offer.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ message: TRADING_TEXTS.transactionSuccessful });
    expect(TradeSchema.parse(done.json<{ data: unknown }>().data)).toMatchObject({
      kind: 'instant',
      price: prices.ask,
    });
    expect((await balance(customer, 'BTC')).available).toBe(1_000_000n);
    expect((await balance(customer, 'GBP')).available).toBe(100_000n - expected.total);

    const again = await execute(customer, offer.id);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(TRADING_TEXTS.quoteUsed);
    expect((await balance(customer, 'BTC')).available).toBe(1_000_000n);
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('You bought BTC'),
    );
    await expectLedgerToHold();
  });

  it('takes a form-encoded order as the spec sends it, and quotes from a cost floored to 4 decimals', async () => {
    const customer = await trader({ gbp: 100_000n });
    await drive('20000');
    const offer = await quote(customer, { cost: '300.00' });
    expect(offer.quantity).toMatch(/^0\.\d{4}0000$/);
    expect(parseAmount(offer.total_cost_w_fee, 'GBP')).toBeLessThanOrEqual(30_000n);
    const form = new URLSearchParams({
      quote_id: offer.id,
      coin_id: 'btc',
      side: 'buy',
      order_type: 'market',
    });
    const response = await customer.browser.post('/api/v1/order', form.toString(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await balance(customer, 'BTC')).available).toBe(parseAmount(offer.quantity, 'BTC'));
  });

  it('refuses an expired quote, another customer’s quote, and an order the balance no longer covers', async () => {
    const customer = await trader({ gbp: 100_000n });
    await drive('20000');
    const stale = await quote(customer, { quantity: '0.01' });
    await db()
      .updateTable('trade_quotes')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', stale.id)
      .execute();
    const expired = await execute(customer, stale.id);
    expect(expired.statusCode).toBe(409);
    expect(errorOf(expired).message).toBe(TRADING_TEXTS.quoteExpired);

    const stranger = await trader({ gbp: 100_000n });
    const theirs = await quote(customer, { quantity: '0.01' });
    expect((await execute(stranger, theirs.id)).statusCode).toBe(404);

    const tooLarge = await quote(customer, { quantity: '0.5' });
    expect(tooLarge.exceeds_balance).toBe(true);
    const refused = await execute(customer, tooLarge.id);
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toMatchObject({
      code: 'ORDER_REFUSED',
      message: TRADING_TEXTS.insufficientFunds,
    });
    expect((await balance(customer, 'GBP')).available).toBe(100_000n);
    await expectLedgerToHold();
  });

  it('takes XRP in whole units only, refused with a clear text rather than an error', async () => {
    const customer = await trader({ platform: 2, gbp: 100_000n });
    for (const quantity of ['1.5', '1.1234567']) {
      const response = await customer.browser.post('/api/v1/quotes', {
        side: 'buy',
        coin_id: 'xrp',
        quantity,
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(errorOf(response).errors?.quantity).toEqual([TRADING_TEXTS.wholeUnits]);
    }
    const marketOrder = await market(customer, 'buy', { coin_id: 'xrp', crypto_amount: '2.5' });
    expect(errorOf(marketOrder).errors?.crypto_amount).toEqual([TRADING_TEXTS.wholeUnits]);
    const limitOrder = await limit(customer, { coin_id: 'xrp', side: 1, order_qty: '2.5', price: '0.4' });
    expect(errorOf(limitOrder).errors?.order_qty).toEqual([TRADING_TEXTS.wholeUnits]);
    expect((await balance(customer, 'GBP')).available).toBe(100_000n);
  });

  it('takes the figures a spec client sends as JSON numbers, and ignores them', async () => {
    const customer = await trader({ platform: 2, gbp: 100_000n });
    await drive('20000');
    const response = await market(customer, 'buy', {
      crypto_amount: 0.01,
      // Well above the ask (about £20,050): the slippage bound lets the buy through.
      crypto_price: 30000,
      fee: 1.5,
      gbp_amount: 1,
      gbp_amount_total: 2.5,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await balance(customer, 'BTC')).available).toBe(1_000_000n);
    await expectLedgerToHold();
  });

  it('refuses to execute on a price source that has stopped', async () => {
    const customer = await trader({ gbp: 100_000n });
    await drive('20000');
    const offer = await quote(customer, { quantity: '0.01' });
    const stopped = tradingService({
      market: {
        quote: () => {
          throw new AppError('PRICES_STALE');
        },
        gbpRate: () => null,
      },
    });
    await expect(stopped.executeQuote(customer.id, offer.id)).rejects.toMatchObject({ code: 'PRICES_STALE' });
    expect((await balance(customer, 'GBP')).available).toBe(100_000n);
  });

  it('refuses a coin whose buying is paused, and caps the fee at the coin’s platform fee', async () => {
    const customer = await trader({ gbp: 100_000n });
    await drive('20000');
    await db().updateTable('coins').set({ disable_buy: true }).where('asset', '=', 'BTC').execute();
    try {
      const response = await customer.browser.post('/api/v1/quotes', {
        side: 'buy',
        coin_id: 'btc',
        quantity: '0.01',
      });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).message).toBe(TRADING_TEXTS.buyDisabled);
    } finally {
      await db().updateTable('coins').set({ disable_buy: false }).where('asset', '=', 'BTC').execute();
    }
    await db().updateTable('coins').set({ platform_fee: '0.5' }).where('asset', '=', 'BTC').execute();
    try {
      const offer = await quote(customer, { quantity: '0.01' });
      expect(offer.fee_percent).toBe(
        feePercent({
          schedule: DEFAULT_FEE_SCHEDULE,
          platform: 1,
          tier: 1,
          customPercent: null,
          coinPlatformFee: '0.5',
        }),
      );
      expect(offer.fee_percent).toBe('0.5');
    } finally {
      await db().updateTable('coins').set({ platform_fee: null }).where('asset', '=', 'BTC').execute();
    }
  });
});

describe('market orders (trading accounts)', () => {
  it('are for trading accounts, priced by the server, refused beyond the slippage allowed', async () => {
    const instant = await trader({ gbp: 100_000n });
    const prices = await drive('20000');
    const notTrading = await market(instant, 'buy', { crypto_amount: '0.01', crypto_price: prices.ask });
    expect(notTrading.statusCode).toBe(403);

    const customer = await trader({ platform: 2, gbp: 100_000n });
    const slipped = await market(customer, 'buy', { crypto_amount: '0.01', crypto_price: '15000' });
    expect(slipped.statusCode).toBe(400);
    expect(errorOf(slipped).message).toBe(TRADING_TEXTS.slippageExceeded);
    const empty = await market(customer, 'buy', { crypto_amount: '0' });
    expect(errorOf(empty).errors?.crypto_amount).toEqual([TRADING_TEXTS.quantityRequired]);
    const precise = await market(customer, 'buy', { crypto_amount: '0.01234' });
    expect(errorOf(precise).errors?.crypto_amount).toEqual([TRADING_TEXTS.amountDecimals]);

    const key = newIdempotencyKey();
    const bought = await market(
      customer,
      'buy',
      { crypto_amount: '0.01', crypto_price: prices.ask, gbp_amount: '1' },
      key,
    );
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json()).toMatchObject({ data: { kind: 'market', side: 'buy' } });
    const replayed = await market(
      customer,
      'buy',
      { crypto_amount: '0.01', crypto_price: prices.ask, gbp_amount: '1' },
      key,
    );
    expect(replayed.json<{ data: { id: string } }>().data.id).toBe(
      bought.json<{ data: { id: string } }>().data.id,
    );
    expect((await balance(customer, 'BTC')).available).toBe(1_000_000n);
    const sold = await market(customer, 'sell', { crypto_amount: '0.01' });
    expect(sold.statusCode, sold.body).toBe(200);
    expect((await balance(customer, 'BTC')).available).toBe(0n);
    await expectLedgerToHold();
  });

  it('of 50 concurrent orders spending one balance, one executes and nothing is overspent', async () => {
    const customer = await trader({ platform: 2, gbp: 100_000n });
    await drive('20000');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => market(customer, 'buy', { crypto_amount: '0.03' })),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode >= 500)).toHaveLength(0);
    expect((await balance(customer, 'BTC')).available).toBe(3_000_000n);
    expect((await balance(customer, 'GBP')).available).toBeGreaterThanOrEqual(0n);
    await expectLedgerToHold();
  });
});

describe('limit and stop orders', () => {
  it('a limit buy holds the most it may spend and fills at or below its price when the ask comes down', async () => {
    const customer = await trader({ platform: 2, gbp: 100_000n });
    await drive('20000');
    const order = await placed(customer, { side: 1, order_qty: '0.01', price: '19000' });
    expect(order).toMatchObject({ status: 'open', order_type: 'LIMIT', side: 1, price: '19000' });
    const heldGbp = (await balance(customer, 'GBP')).held;
    expect(heldGbp).toBe(parseAmount(order.held, 'GBP'));
    expect(heldGbp).toBeGreaterThan(19_000n);

    await drive('19500');
    const stillOpen = pageSchema(OpenOrderSchema).parse(
      (await customer.browser.get('/api/v1/crypto/limit_orders')).json(),
    );
    expect(stillOpen.data.map((row) => row.id)).toContain(order.id);
    expect(stillOpen.data[0]?.percent_away).not.toBeNull();
    // The spec names the list by its singular address too.
    expect((await customer.browser.get('/api/v1/crypto/limit_order')).json()).toEqual(
      (await customer.browser.get('/api/v1/crypto/limit_orders')).json(),
    );

    await drive('18500');
    const filled = pageSchema(OpenOrderSchema).parse(
      (await customer.browser.get('/api/v1/crypto/limit_orders?status=filled')).json(),
    );
    expect(filled.data.map((row) => row.id)).toContain(order.id);
    const gbp = await balance(customer, 'GBP');
    expect(gbp.held).toBe(0n);
    expect((await balance(customer, 'BTC')).available).toBe(1_000_000n);
    // Filled at the ask then, below the limit: the customer paid less than was held.
    expect(100_000n - gbp.available).toBeLessThan(heldGbp);
    await expectLedgerToHold();
  });

  it('a limit sell fills when the bid rises to it; a stop sells when the bid falls to it', async () => {
    const customer = await trader({ platform: 2, btc: 3_000_000n });
    await drive('20000');
    const sell = await placed(customer, { side: 2, order_qty: '0.01', price: '21000' });
    const stop = await placed(customer, { side: 2, order_qty: '0.01', price: '18000', order_type: 3 });
    expect(stop.order_type).toBe('STOP');
    expect((await balance(customer, 'BTC')).held).toBe(2_000_000n);
    await drive('21500');
    expect(await statusOf(sell.id)).toBe('filled');
    expect(await statusOf(stop.id)).toBe('open');
    await drive('17000');
    expect(await statusOf(stop.id)).toBe('filled');
    expect(await balance(customer, 'BTC')).toMatchObject({ available: 1_000_000n, held: 0n });
    await expectLedgerToHold();
  });

  it('one tick fills every crossed order of several customers together, each at its own price; a customer on hold keeps theirs', async () => {
    await drive('20000');
    const [ann, bob, held] = [
      await trader({ platform: 2, gbp: 1_000_000n }),
      await trader({ platform: 2, gbp: 1_000_000n, btc: 2_000_000n }),
      await trader({ platform: 2, gbp: 1_000_000n }),
    ];
    const orders = [
      await placed(ann, { side: 1, order_qty: '0.01', price: '19000' }),
      await placed(ann, { side: 1, order_qty: '0.02', price: '18900' }),
      await placed(bob, { side: 1, order_qty: '0.01', price: '18800' }),
      await placed(bob, { side: 2, order_qty: '0.02', price: '21000' }),
    ];
    const waiting = await placed(held, { side: 1, order_qty: '0.01', price: '19000' });
    await db().updateTable('users').set({ block_status: 2 }).where('id', '=', held.id).execute();

    const { ask } = await drive('18000');
    expect(await Promise.all(orders.slice(0, 3).map((order) => statusOf(order.id)))).toEqual([
      'filled',
      'filled',
      'filled',
    ]);
    expect(await statusOf(orders[3]?.id ?? '')).toBe('open');
    expect(await statusOf(waiting.id)).toBe('open');
    // In the order the orders were placed: the two lanes of a tick write their trades at once.
    const trades = await db()
      .selectFrom('trades')
      .innerJoin('orders', 'orders.id', 'trades.order_id')
      .select(['trades.user_id', 'trades.price', 'trades.quantity', 'trades.total'])
      .where(
        'trades.order_id',
        'in',
        orders.map((order) => order.id),
      )
      .orderBy('orders.seq')
      .execute();
    expect(trades.map((trade) => [trade.user_id, trade.price, trade.quantity])).toEqual([
      [ann.id, ask, '1000000'],
      [ann.id, ask, '2000000'],
      [bob.id, ask, '1000000'],
    ]);
    // Each paid exactly its trades' totals; nothing stays held but the open orders' holds.
    const annPaid = trades
      .filter((trade) => trade.user_id === ann.id)
      .reduce((sum, trade) => sum + BigInt(trade.total), 0n);
    expect(await balance(ann, 'GBP')).toEqual({
      posted: 1_000_000n - annPaid,
      held: 0n,
      available: 1_000_000n - annPaid,
    });
    expect((await balance(ann, 'BTC')).available).toBe(3_000_000n);
    expect((await balance(bob, 'BTC')).held).toBe(2_000_000n);
    expect(
      (await mailSubjects(db(), ann.email)).filter((subject) => subject.startsWith('You bought BTC')),
    ).toHaveLength(2);
    await expectLedgerToHold();
  });

  it('fills the rest of a tick’s orders when one of them cannot be filled', async () => {
    await drive('20000');
    const customer = await trader({ platform: 2, gbp: 1_000_000n });
    const good = await placed(customer, { side: 1, order_qty: '0.01', price: '19000' });
    const broken = await placed(customer, { side: 1, order_qty: '0.01', price: '19000' });
    // A hold released behind the order's back: filling it is refused, and with it the whole batch.
    const { hold_id: holdId } = await db()
      .selectFrom('orders')
      .select('hold_id')
      .where('id', '=', broken.id)
      .executeTakeFirstOrThrow();
    await t.ledger.releaseHold(db(), { holdId, outcome: 'voided' });

    await drive('18000');
    expect(await statusOf(good.id)).toBe('filled');
    expect(await statusOf(broken.id)).toBe('open');
    // Put the broken order's row right again so the trading check has nothing to report.
    await db().updateTable('orders').set({ status: 'cancelled' }).where('id', '=', broken.id).execute();
    await expectLedgerToHold();
  });

  it('tells the customer’s open pages when their orders change: placed, filled, cancelled, executed', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const customer = await trader({ platform: 2, gbp: 1_000_000n });
    const other = await trader({ platform: 2, gbp: 1_000_000n });
    const session = async (userId: number) =>
      `${SESSION_COOKIE}=${(await createSessionStore(db(), testClock).create(userId, { ip: '127.0.0.1' })).token}`;
    const tab = await connect(`${address.replace('http', 'ws')}/ws`, { cookie: await session(customer.id) });
    const otherTab = await connect(`${address.replace('http', 'ws')}/ws`, {
      cookie: await session(other.id),
    });
    try {
      await drive('20000');
      const events = async (count: number) => {
        const deadline = Date.now() + 5_000;
        const heard = () => tab.received.filter((message) => message.type === 'user');
        while (heard().length < count && Date.now() < deadline) await sleep(20);
        return heard().map((message) => (message as { event: string }).event);
      };
      const resting = await placed(customer, { side: 1, order_qty: '0.01', price: '19000' });
      expect(await events(2)).toEqual(['balances', 'orders']);
      await placed(customer, { side: 1, order_qty: '0.01', price: '15000' });
      await drive('18500');
      expect((await events(6)).slice(4)).toEqual(['balances', 'orders']);
      expect(await statusOf(resting.id)).toBe('filled');
      const open = pageSchema(OpenOrderSchema).parse(
        (await customer.browser.get('/api/v1/crypto/limit_orders')).json(),
      );
      const cancelled = await customer.browser.post(
        `/api/v1/crypto/limit_order/${open.data[0]?.id ?? ''}/cancel`,
        {},
      );
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect((await events(8)).slice(6)).toEqual(['balances', 'orders']);
      const bought = await market(customer, 'buy', { crypto_amount: '0.01' });
      expect(bought.statusCode, bought.body).toBe(200);
      expect((await events(10)).slice(8)).toEqual(['balances', 'orders']);
      expect(otherTab.received.filter((message) => message.type === 'user')).toEqual([]);
      await expectLedgerToHold();
    } finally {
      tab.close();
      otherTab.close();
    }
  });

  it('cancels with the hold released; another customer’s order is not found; expired orders give back', async () => {
    const customer = await trader({ platform: 2, gbp: 100_000n });
    await drive('20000');
    const order = await placed(customer, { side: 1, order_qty: '0.01', price: '10000' });
    const stranger = await trader({ platform: 2 });
    const foreign = await stranger.browser.post(`/api/v1/crypto/limit_order/${order.id}/cancel`);
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign).message).toBe(TRADING_TEXTS.orderNotFound);
    const cancelled = await customer.browser.post(`/api/v1/crypto/limit_order/${order.id}/cancel`);
    expect(cancelled.json()).toMatchObject({
      data: { status: 'cancelled' },
      message: TRADING_TEXTS.orderCancelled,
    });
    expect((await balance(customer, 'GBP')).held).toBe(0n);
    const twice = await customer.browser.post(`/api/v1/crypto/limit_order/${order.id}/cancel`);
    expect(twice.statusCode).toBe(422);

    const expiring = await placed(customer, {
      side: 1,
      order_qty: '0.01',
      price: '10000',
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await db()
      .updateTable('orders')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', expiring.id)
      .execute();
    await drive('20001');
    expect(
      (
        await db()
          .selectFrom('orders')
          .select('status')
          .where('id', '=', expiring.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('expired');
    expect((await balance(customer, 'GBP')).held).toBe(0n);
    const noPrice = await limit(customer, { side: 1, order_qty: '0.01' });
    expect(errorOf(noPrice).errors?.price).toEqual([TRADING_TEXTS.priceRequired]);
    await expectLedgerToHold();
  });
});

describe('customers who may not trade', () => {
  it('a terminated customer’s orders stay unfilled, and they can still cancel them to withdraw', async () => {
    const customer = await trader({ platform: 2, gbp: 100_000n });
    await drive('20000');
    const order = await placed(customer, { side: 1, order_qty: '0.01', price: '19000' });
    await terminate(customer);

    await drive('18500');
    expect(await statusOf(order.id)).toBe('open');
    const another = await limit(customer, { side: 1, order_qty: '0.01', price: '19000' });
    expect(another.statusCode).toBe(403);
    expect(errorOf(another).code).toBe('ACCOUNT_TERMINATED');

    const cancelled = await customer.browser.post(`/api/v1/crypto/limit_order/${order.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await balance(customer, 'GBP')).toMatchObject({ held: 0n, available: 100_000n });
    await expectLedgerToHold();
  });

  it('a customer whose verification lapsed keeps resting orders unfilled until it is complete again', async () => {
    const lapsed = await trader({ platform: 2, gbp: 100_000n });
    const verified = await trader({ platform: 2, gbp: 100_000n });
    await drive('20000');
    const waiting = await placed(lapsed, { side: 1, order_qty: '0.01', price: '19000' });
    const filling = await placed(verified, { side: 1, order_qty: '0.01', price: '19000' });
    // Compliance declines the passport on file: spec 000 §6, an incomplete verification cannot buy or sell.
    const { id: passportId } = await db()
      .selectFrom('kyc_documents')
      .select('id')
      .where('user_id', '=', lapsed.id)
      .where('key', '=', 'passport')
      .executeTakeFirstOrThrow();
    const compliance = await signedInStaff(t.app, db(), 'compliance');
    const declined = await compliance.browser.post(`/api/admin/documents/${passportId}/decline`, {
      note: 'The photo is blurred.',
    });
    expect(declined.statusCode, declined.body).toBe(200);

    await drive('18500');
    expect(await statusOf(filling.id)).toBe('filled');
    expect(await statusOf(waiting.id)).toBe('open');
    expect((await balance(lapsed, 'GBP')).held).toBe(parseAmount(waiting.held, 'GBP'));

    const form = multipart([{ name: 'doc_type', value: 'passport' }, filePart(await jpeg(), 'passport.jpg')]);
    const uploaded = await lapsed.browser.post('/api/v1/user/id-proof', form.payload, {
      headers: form.headers,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    await drive('18400');
    expect(await statusOf(waiting.id)).toBe('filled');
    expect((await balance(lapsed, 'BTC')).available).toBe(1_000_000n);
    await expectLedgerToHold();
  });

  it('orders that must wait do not keep the crossed orders behind them from filling', async () => {
    const held = await trader({ platform: 2, gbp: 100_000n });
    const behind = await trader({ platform: 2, gbp: 100_000n });
    await drive('20000');
    const waiting = [
      await placed(held, { side: 1, order_qty: '0.01', price: '19000' }),
      await placed(held, { side: 1, order_qty: '0.01', price: '19000' }),
    ];
    const next = await placed(behind, { side: 1, order_qty: '0.01', price: '19000' });
    const compliance = await signedInStaff(t.app, db(), 'compliance');
    const hold = await compliance.browser.post(`/api/admin/compliance/cases/${held.id}/hold`, {
      reason: 'Source of funds under review.',
    });
    expect(hold.statusCode, hold.body).toBe(200);

    // A fill engine of its own (the app's fills on every tick it drives) that reads the crossed orders one a
    // lane at a time: the held customer's two fill its first reading, and orders left waiting by earlier
    // tests (a customer on hold) come before them.
    const at = new Date().toISOString();
    const fell = { mid: '18500', bid: '18400', ask: '18600', at, stale: false };
    const engine = tradingService({
      fillBatch: 1,
      market: { quote: (symbol) => ({ ...fell, symbol }), gbpRate: () => null },
    });
    await engine.sweep([{ ...fell, symbol: 'BTC/GBP' }]);
    expect(await statusOf(next.id)).toBe('filled');
    expect([await statusOf(waiting[0]?.id ?? ''), await statusOf(waiting[1]?.id ?? '')]).toEqual([
      'open',
      'open',
    ]);
    await expectLedgerToHold();
  });

  it('a shutdown lets the fills in flight commit and leaves the other crossed orders open for the next leader', async () => {
    const customer = await trader({ platform: 2, gbp: 100_000n });
    await drive('20000');
    // One customer's three orders: one lane, read two at a time (orders left open by earlier tests first).
    const orders = [
      await placed(customer, { side: 1, order_qty: '0.01', price: '19000' }),
      await placed(customer, { side: 1, order_qty: '0.01', price: '19000' }),
      await placed(customer, { side: 1, order_qty: '0.01', price: '19000' }),
    ];
    const at = new Date().toISOString();
    const fell = { mid: '18500', bid: '18400', ask: '18600', at, stale: false };
    const deps = {
      fillBatch: 1,
      market: { quote: (symbol: string) => ({ ...fell, symbol }), gbpRate: () => null },
    };
    const repository = createTradingRepository(db());
    let stopped: Promise<void> | undefined;
    const engine = tradingService({
      ...deps,
      repository: {
        ...repository,
        // The shutdown arrives while the sweep's first fills are in flight.
        listCrossedOrders: async (...args) => {
          const crossed = await repository.listCrossedOrders(...args);
          stopped ??= engine.stop();
          return crossed;
        },
      },
    });
    await engine.onPrices([{ ...fell, symbol: 'BTC/GBP' }]);
    await stopped;
    const after = await Promise.all(orders.map((order) => statusOf(order.id)));
    expect(after).toContain('open');
    // Stopped, the engine fills nothing more: the ticks go to the next leader.
    await engine.onPrices([{ ...fell, symbol: 'BTC/GBP' }]);
    expect(await Promise.all(orders.map((order) => statusOf(order.id)))).toEqual(after);
    await expectLedgerToHold();

    await tradingService(deps).sweep([{ ...fell, symbol: 'BTC/GBP' }]);
    expect(await Promise.all(orders.map((order) => statusOf(order.id)))).toEqual([
      'filled',
      'filled',
      'filled',
    ]);
    await expectLedgerToHold();
  });

  it('after a source-of-wealth reset the customer may sell but not buy, and resting buys wait', async () => {
    const customer = await trader({ platform: 2, gbp: 100_000n, btc: 2_000_000n });
    await drive('20000');
    const buy = await placed(customer, { side: 1, order_qty: '0.01', price: '19000' });
    const sell = await placed(customer, { side: 2, order_qty: '0.01', price: '20500' });
    await db().updateTable('users').set({ is_sow_reset: 1 }).where('id', '=', customer.id).execute();

    const buyQuote = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(buyQuote.statusCode).toBe(403);
    await quote(customer, { side: 'sell', quantity: '0.01' });

    await drive('18500');
    expect(await statusOf(buy.id)).toBe('open');
    await drive('21500');
    expect(await statusOf(sell.id)).toBe('filled');
    await expectLedgerToHold();
  });
});

describe('the £15,000 source-of-wealth threshold', () => {
  async function userState(customer: Customer) {
    return (await customer.browser.get('/api/v1/user')).json<{
      data: { is_sow_reset: number; sow_over_threshold: number | null };
    }>().data;
  }

  it('asks a customer who answered No for their source of wealth once this year’s trades pass it, and takes only Yes', async () => {
    const customer = await trader({ gbp: 2_500_000n, btc: 100_000_000n });
    await drive('20000');
    const sold = await quote(customer, { side: 'sell', quantity: '0.7' });
    expect((await execute(customer, sold.id)).statusCode).toBe(200);
    expect(await userState(customer)).toMatchObject({ is_sow_reset: 0, sow_over_threshold: null });

    // About £14,000 so far: this sale takes the year past £15,000.
    const crossing = await quote(customer, { side: 'sell', quantity: '0.1' });
    expect((await execute(customer, crossing.id)).statusCode).toBe(200);
    expect(await userState(customer)).toMatchObject({ is_sow_reset: 1, sow_over_threshold: 1 });
    expect(await auditRows(db(), 'user', customer.id)).toEqual([
      expect.objectContaining({
        staff_id: null,
        action: 'user.source_of_wealth_reset',
        before: { is_sow_reset: 0 },
        after: { is_sow_reset: 1, reason: COMPLIANCE_TEXTS.sourceOfWealthThresholdReason },
      }),
    ]);
    expect(await mailSubjects(db(), customer.email)).toContain(
      'Please tell us about your source of wealth — Florin',
    );

    // Buying waits; selling goes on, and asks nothing more.
    const buy = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(buy.statusCode).toBe(403);
    const more = await quote(customer, { side: 'sell', quantity: '0.01' });
    expect((await execute(customer, more.id)).statusCode).toBe(200);
    expect(await auditRows(db(), 'user', customer.id)).toHaveLength(1);

    const no = await customer.browser.post('/api/v1/settings/kyc/update', { ...WEALTH_NO, sow_reset: 0 });
    expect(no.statusCode).toBe(422);
    expect(errorOf(no)).toMatchObject({
      message: KYC_TEXTS.overThresholdAnswer,
      errors: { trades_over_threshold: [KYC_TEXTS.overThresholdAnswer] },
    });
    expect(await userState(customer)).toMatchObject({ is_sow_reset: 1 });

    const yes = await customer.browser.post('/api/v1/settings/kyc/update', { ...WEALTH_YES, sow_reset: 0 });
    expect(yes.statusCode, yes.body).toBe(200);
    expect(await userState(customer)).toMatchObject({ is_sow_reset: 0, sow_over_threshold: null });
    // Answered Yes, the customer trades on without being asked again.
    const bought = await quote(customer, { side: 'buy', quantity: '0.01' });
    expect((await execute(customer, bought.id)).statusCode).toBe(200);
    expect(await userState(customer)).toMatchObject({ is_sow_reset: 0 });
    await expectLedgerToHold();
  });

  it('asks a customer over it whose own trade’s check was missed: at their next trade, or by the hourly sweep', async () => {
    const answeredNo = async (customer: Customer) =>
      db()
        .updateTable('kyc_answers')
        .set({ trades_over_threshold: 0 })
        .where('user_id', '=', customer.id)
        .execute();
    // Over £15,000 while their answer said Yes; then (say, corrected by staff) it says No, and nothing traded since.
    const [next, idle, leaving] = [
      await trader({ btc: 100_000_000n }),
      await trader({ btc: 100_000_000n }),
      await trader({ btc: 100_000_000n }),
    ];
    await drive('20000');
    for (const customer of [next, idle, leaving]) {
      await db()
        .updateTable('kyc_answers')
        .set({ trades_over_threshold: 1 })
        .where('user_id', '=', customer.id)
        .execute();
      const sold = await quote(customer, { side: 'sell', quantity: '0.8' });
      expect((await execute(customer, sold.id)).statusCode).toBe(200);
      await answeredNo(customer);
      expect(await userState(customer)).toMatchObject({ is_sow_reset: 0 });
    }

    const small = await quote(next, { side: 'sell', quantity: '0.01' });
    expect((await execute(next, small.id)).statusCode).toBe(200);
    expect(await userState(next)).toMatchObject({ is_sow_reset: 1 });

    // The leading instance's hourly run, as app.ts schedules it: everyone who answered No.
    const compliance = createComplianceService({
      db: db(),
      repository: createComplianceRepository(db()),
      notifier: createNotifier({ db: db(), mailer: createDevMailbox(db()), log: t.app.log }),
      // Neither is read by the threshold's reset.
      kyc: {} as KycReader,
      sanctions: {} as ComplianceServiceDeps['sanctions'],
      tradingVolumes: createTradingVolumes(db()),
      publicUrl: 'http://florin.test',
    });
    // A terminated customer may only withdraw in their last days: the run leaves them be.
    await terminate(leaving);
    await compliance.resetSourceOfWealthOverThreshold();
    expect(await userState(idle)).toMatchObject({ is_sow_reset: 1, sow_over_threshold: 1 });
    expect(await userState(leaving)).toMatchObject({ is_sow_reset: 0 });
    expect(await mailSubjects(db(), idle.email)).toContain(
      'Please tell us about your source of wealth — Florin',
    );
    // A second run asks nobody twice.
    await compliance.resetSourceOfWealthOverThreshold();
    expect(await auditRows(db(), 'user', idle.id)).toHaveLength(1);
    await expectLedgerToHold();
  });

  it('counts a year’s trades of exactly £15,000 as not past it, and any more as past it', async () => {
    const customer = await trader({ platform: 2, btc: 100_000_000n });
    const at = new Date().toISOString();
    // A bid of £20,000 with no spread: 0.75 BTC is worth exactly £15,000.00.
    const flat = tradingService({
      market: {
        quote: (symbol) => ({ symbol, mid: '20000', bid: '20000', ask: '20000', at, stale: false }),
        gbpRate: () => null,
      },
    });
    const sell = (crypto_amount: string) =>
      flat.marketOrder(customer.id, newIdempotencyKey(), 'sell', {
        coin_id: 'btc',
        crypto_amount,
        currency: 'gbp',
        max_slippage_percent: '1',
      });
    const over = () => createTradingVolumes(db()).listOverSourceOfWealthThreshold([customer.id]);
    await sell('0.74');
    await sell('0.01');
    expect(await over()).toEqual([]);
    await sell('0.01');
    expect(await over()).toEqual([customer.id]);
    await expectLedgerToHold();
  });

  it('asks when a resting order’s fill takes the year past it', async () => {
    const customer = await trader({ platform: 2, btc: 100_000_000n });
    await drive('20000');
    expect((await market(customer, 'sell', { crypto_amount: '0.7' })).statusCode).toBe(200);
    const order = await placed(customer, { side: 2, order_qty: '0.1', price: '20500' });
    expect(await userState(customer)).toMatchObject({ is_sow_reset: 0 });

    await drive('21000');
    expect(await statusOf(order.id)).toBe('filled');
    expect(await userState(customer)).toMatchObject({ is_sow_reset: 1, sow_over_threshold: 1 });
    expect(await mailSubjects(db(), customer.email)).toContain(
      'Please tell us about your source of wealth — Florin',
    );
    await expectLedgerToHold();
  });
});

describe('the GBP value of a trade in another fiat', () => {
  // The app's fills run on the GBP ticks drive() makes; these engines of their own are handed the prices.
  const at = new Date().toISOString();
  const fell = { mid: '18500', bid: '18400', ask: '18600', at, stale: false };
  const quoteAt = (symbol: string) => ({ ...fell, symbol });
  const eurOnly = (asset: string) => (asset === 'EUR' ? '0.85' : null);

  async function gbpValues(customer: Customer): Promise<string[]> {
    const rows = await db()
      .selectFrom('trades')
      .select('gbp_value')
      .where('user_id', '=', customer.id)
      .execute();
    return rows.map((row) => String(row.gbp_value));
  }

  it('is read from the fiat’s rate when the coin has no GBP price; without either the trade is refused', async () => {
    const customer = await trader({ platform: 2 });
    await fund(t.ledger, db(), customer.id, 'EUR', 1_000_000n);
    const body = {
      coin_id: 'btc',
      crypto_amount: '0.01',
      currency: 'eur',
      max_slippage_percent: '1',
    } as const;

    const unpriced = tradingService({ market: { quote: quoteAt, gbpRate: () => null } });
    await expect(unpriced.marketOrder(customer.id, newIdempotencyKey(), 'buy', body)).rejects.toMatchObject({
      code: 'PRICES_STALE',
    });
    expect(await gbpValues(customer)).toEqual([]);
    expect(
      (await t.ledger.getBalance(db(), { asset: 'EUR', kind: 'available', ownerUserId: String(customer.id) }))
        .available,
    ).toBe(1_000_000n);

    const priced = tradingService({ market: { quote: quoteAt, gbpRate: eurOnly } });
    await priced.marketOrder(customer.id, newIdempotencyKey(), 'buy', body);
    // €186.00 (0.01 BTC at the ask) at £0.85 a euro.
    expect(await gbpValues(customer)).toEqual(['15810']);
    await expectLedgerToHold();
  });

  it('a resting order waits for a tick that can value it, then fills with its value', async () => {
    const customer = await trader({ platform: 2 });
    await fund(t.ledger, db(), customer.id, 'EUR', 1_000_000n);
    await drive('20000', 'BTC/EUR');
    const order = await placed(customer, { side: 1, order_qty: '0.01', price: '19000', currency: 'eur' });
    const tick = [{ ...fell, symbol: 'BTC/EUR' }];

    await tradingService({ market: { quote: quoteAt, gbpRate: () => null } }).sweep(tick);
    expect(await statusOf(order.id)).toBe('open');

    await tradingService({ market: { quote: quoteAt, gbpRate: eurOnly } }).sweep(tick);
    expect(await statusOf(order.id)).toBe('filled');
    expect(await gbpValues(customer)).toEqual(['15810']);
    await expectLedgerToHold();
  });
});

describe('positions', () => {
  it('show the pooled average cost and a profit and loss that moves with the price', async () => {
    const customer = await trader({ platform: 2, gbp: 1_000_000n });
    await drive('20000');
    expect((await market(customer, 'buy', { crypto_amount: '0.1' })).statusCode).toBe(200);
    await drive('22000');
    expect((await market(customer, 'buy', { crypto_amount: '0.1' })).statusCode).toBe(200);
    const read = async () =>
      PositionSchema.array().parse(
        (await customer.browser.get('/api/v1/crypto/positions')).json<{ data: unknown }>().data,
      );
    const [position] = await read();
    expect(position).toMatchObject({ coin_id: 'btc', quantity: '0.20000000', order_type: 'MARKET' });
    const average = parseAmount(position?.average_cost ?? '0', 'GBP');
    expect(average).toBeGreaterThan(2_100_000n);
    expect(average).toBeLessThan(2_150_000n);
    await drive('30000');
    const [up] = await read();
    expect(up?.direction).toBe('up');
    await drive('15000');
    const [down] = await read();
    expect(down?.direction).toBe('down');
    expect(down?.unrealised_pnl).toMatch(/^-\d+\.\d{2}$/);
  });
});
