import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_LARGE_TEXTS } from '@florin/contracts';
import { createTestApp, type TestApp } from '../test/app.js';
import { bankDeposit } from '../test/deposits.js';
import {
  errorOf,
  liveCustomer,
  newIdempotencyKey,
  type FiatCustomer,
} from '../modules/fiat/fiat.test-kit.js';

/**
 * Issue 40 finding 4: a limit order with a 40-digit price was a 500 ("numeric field overflow" when
 * its hold was written). Every amount and price is bounded by its column in the contract, so such
 * a figure is a 422 naming the field in words a customer reads, and nothing is held or moved.
 */
const FORTY_DIGITS = '1234567890123456789012345678901234567890';

let t: TestApp;
let customer: FiatCustomer;

beforeAll(async () => {
  t = await createTestApp();
  customer = await liveCustomer(t);
  await t.database.db.updateTable('users').set({ platform: 2 }).where('id', '=', customer.id).execute();
  await bankDeposit(t, customer, '10000.00');
  const driven = await t.app.inject({
    method: 'POST',
    url: '/dev/market/drive',
    payload: { symbol: 'BTC/GBP', mid: '20000' },
  });
  expect(driven.statusCode, driven.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

function post(url: string, body: Record<string, unknown>) {
  return customer.browser.post(url, body, { headers: { 'idempotency-key': newIdempotencyKey() } });
}

async function held(): Promise<bigint> {
  const balance = await t.ledger.getBalance(t.database.db, {
    asset: 'GBP',
    kind: 'available',
    ownerUserId: String(customer.id),
  });
  return balance.held;
}

const limitOrder = { coin_id: 'btc', order_type: 2, side: 1, order_qty: '0.01', price: '19000' };

describe('a figure too large for its column', () => {
  it.each([
    ['a limit order’s price', '/api/v1/crypto/limit_order', { ...limitOrder, price: FORTY_DIGITS }, 'price'],
    [
      'a limit order’s quantity',
      '/api/v1/crypto/limit_order',
      { ...limitOrder, order_qty: FORTY_DIGITS },
      'order_qty',
    ],
    ['a market buy', '/api/v1/crypto/buy', { coin_id: 'btc', crypto_amount: FORTY_DIGITS }, 'crypto_amount'],
    [
      'a quote’s quantity',
      '/api/v1/quotes',
      { side: 'buy', coin_id: 'btc', quantity: FORTY_DIGITS },
      'quantity',
    ],
    ['a quote’s cost', '/api/v1/quotes', { side: 'buy', coin_id: 'btc', cost: FORTY_DIGITS }, 'cost'],
    ['a fiat withdrawal', '/api/v1/users/withdraw', { amount: FORTY_DIGITS, currency_code: 'GBP' }, 'amount'],
    [
      'an affiliate claim',
      '/api/v1/user/affiliate-withdraw',
      { withdraw_amount: FORTY_DIGITS },
      'withdraw_amount',
    ],
  ] as const)('is refused with a clear text: %s', async (_name, url, body, field) => {
    const response = await post(url, body);
    expect(response.statusCode, response.body).toBe(422);
    const text = TOO_LARGE_TEXTS[field === 'price' ? 'price' : 'amount'];
    expect(errorOf(response).errors).toEqual({ [field]: [text] });
    expect(await held()).toBe(0n);
  });

  it('a price and a quantity each within bounds whose product no balance can hold is refused, not a 500', async () => {
    // Staff may leave a coin without a largest order (null): then only the balance limits one.
    await t.database.db.updateTable('coins').set({ amount_max: null }).where('coin_id', '=', 'btc').execute();
    const response = await post('/api/v1/crypto/limit_order', {
      ...limitOrder,
      price: '9'.repeat(30),
      order_qty: '9'.repeat(18),
    });
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(response.statusCode, response.body).toBe(400);
    expect(await held()).toBe(0n);
  });
});
