import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLIANCE_TEXTS, KYC_TEXTS, TRADING_TEXTS } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { auditRows, mailSubjects } from '../compliance/customers.test-kit.js';
import { errorOf, newIdempotencyKey, type FiatCustomer as Customer } from '../fiat/fiat.test-kit.js';
import { createNotifier } from '../notifications/service.js';
import { createComplianceRepository } from '../compliance/repository.js';
import { createComplianceService, type ComplianceServiceDeps } from '../compliance/service.js';
import type { KycReader } from '../compliance/views.js';
import { createTradingVolumes } from '../trading-volume/service.js';
import { createTradingRepository } from './repository.js';
import { filePart, jpeg, multipart, WEALTH_NO, WEALTH_YES } from '../kyc/kyc.test-kit.js';
import { signedInStaff } from '../../test/admin.js';
import { tradingSteps } from './trading.test-kit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const {
  db,
  expectLedgerToHold,
  drive,
  trader,
  terminate,
  balance,
  quote,
  execute,
  market,
  limit,
  placed,
  tradingService,
  statusOf,
} = tradingSteps(() => t);

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
  let paths: MoneyPaths;

  beforeAll(async () => {
    paths = await moneyPaths(t);
  });

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
    await paths.bankDeposit(customer, '10000.00', 'EUR');
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
    await paths.bankDeposit(customer, '10000.00', 'EUR');
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
