import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuoteSchema, TermDepositCoinSchema, type Balances } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { liveCustomer, readyBankAccount, type FiatCustomer } from '../fiat/fiat.test-kit.js';

/**
 * One definition of a balance (issue 41): the dashboard, the withdraw form,
 * the trade page and the Term Deposits page show the same available figure,
 * and available + what orders and withdrawals hold + term deposits = total.
 * Everything is made through the real services.
 */

let t: TestApp;
let paths: MoneyPaths;

beforeAll(async () => {
  t = await createTestApp();
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});

async function balances(customer: FiatCustomer) {
  const response = await customer.browser.get('/api/v1/balance?percentage=true');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Balances>().data[0].balances;
}

describe('a customer’s balance', () => {
  it('is the same available figure on every screen, and its parts add up to the total', async () => {
    const customer = await liveCustomer(t);
    await t.database.db.updateTable('users').set({ platform: 2 }).where('id', '=', customer.id).execute();
    await readyBankAccount(t, customer);
    await paths.bankDeposit(customer, '10000.00');
    await paths.drive('50000');
    await paths.instant(customer, { side: 'buy', quantity: '0.1' });

    // Held by a pending withdrawal and by open orders, each asset; some BTC locked in a term deposit.
    await paths.fiatWithdrawal(customer, '100.00');
    await paths.placeOrder(customer, { side: 1, order_qty: '0.01', price: '40000' });
    await paths.placeOrder(customer, { side: 2, order_qty: '0.01', price: '60000' });
    const withdrawal = await paths.coinWithdrawal(customer, {
      coin: 'btc',
      wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      amount: '0.02',
    });
    expect(withdrawal.status).not.toBe('sent');
    await paths.termDeposit(customer, 'btc', '0.03');

    const { btc, GBP } = await balances(customer);
    expect(btc).toMatchObject({
      amount: '0.04000000',
      available: '0.04000000',
      held: '0.03000000',
      held_orders: '0.01000000',
      held_withdrawals: '0.02000000',
      term_deposit: '0.03000000',
      total: '0.10000000',
    });
    for (const balance of [btc!, GBP!]) {
      const scale = balance.kind === 'coin' ? 'BTC' : 'GBP';
      const units = (value: string) => parseAmount(value, scale);
      expect(units(balance.available) + units(balance.held) + units(balance.term_deposit)).toBe(
        units(balance.total),
      );
      expect(units(balance.held_orders) + units(balance.held_withdrawals)).toBe(units(balance.held));
      expect(balance.amount).toBe(balance.available);
    }
    expect(GBP!.held_withdrawals).toBe('100.00');
    expect(GBP!.held_orders).not.toBe('0.00');

    // The Term Deposits page's balance.
    const coins = await customer.browser.get('/api/v1/term-deposit-coins');
    const termBtc = TermDepositCoinSchema.array()
      .parse(coins.json<{ data: unknown }>().data)
      .find((coin) => coin.coin_id === 'btc');
    expect(termBtc?.balance).toBe(btc!.available);

    // The trade page's: what a sell (BTC) or a buy (GBP) quote says is available.
    const sell = await customer.browser.post('/api/v1/quotes', {
      side: 'sell',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(QuoteSchema.parse(sell.json<{ data: unknown }>().data).available).toBe(btc!.available);
    const buy = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(QuoteSchema.parse(buy.json<{ data: unknown }>().data).available).toBe(GBP!.available);

    // The withdraw form: more than the available figure is refused, though the total would cover it.
    const over = await customer.browser.post(
      '/api/v1/crypto/send-verify-withdraw',
      {
        coin: 'btc',
        wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        amount: '0.05',
        beneficiary_type: 'self',
        destination_type: 'private_wallet',
      },
      { headers: { 'idempotency-key': `over-${customer.id}` } },
    );
    expect(over.statusCode).toBe(422);
    await expectLedgerToHold(t.database.db);
  });
});
