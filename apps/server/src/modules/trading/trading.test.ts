import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  OpenOrderSchema,
  PositionSchema,
  TRADING_TEXTS,
  TradeSchema,
  TradingTermsSchema,
  pageSchema,
} from '@florin/contracts';
import { DEFAULT_FEE_SCHEDULE, feePercent, instantQuote, parseAmount } from '@florin/domain';
import { SESSION_COOKIE } from '../../http/auth.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { mailSubjects } from '../compliance/customers.test-kit.js';
import { errorOf } from '../fiat/fiat.test-kit.js';
import { createSessionStore } from '../auth/sessions.js';
import { connect } from '../realtime/realtime.test-kit.js';
import { testClock } from '../../test/clock.js';
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
  balance,
  quote,
  execute,
  market,
  limit,
  placed,
  tradingService,
  sendDueMail,
  statusOf,
} = tradingSteps(() => t);

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
    // The trade's mail is the outbox sender's: written with the trade, sent by the next run (issue 43).
    expect(await mailSubjects(db(), customer.email)).not.toContainEqual(
      expect.stringContaining('You bought BTC'),
    );
    await sendDueMail();
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
    // The fills' mails are the outbox sender's (decision 136).
    await sendDueMail();
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
