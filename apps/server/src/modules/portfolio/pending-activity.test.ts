import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryPageSchema, PendingTransactionsSchema } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { liveCustomer, readyBankAccount, type FiatCustomer } from '../fiat/fiat.test-kit.js';

/**
 * Issue 41: a withdrawal waiting to be paid or sent holds money and has no
 * journal yet, so the history alone never showed it. Recent Activity lists
 * it, with its status, until it is paid; everything here is made through the
 * real services.
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

const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

async function pending(customer: FiatCustomer, query = '') {
  const response = await customer.browser.get(`/api/v1/user/pending-transactions${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return PendingTransactionsSchema.parse(response.json()).data;
}

async function history(customer: FiatCustomer) {
  const response = await customer.browser.get('/api/v1/user/fiat-crypto-transactions');
  expect(response.statusCode, response.body).toBe(200);
  return HistoryPageSchema.parse(response.json()).data;
}

describe('pending withdrawals in Recent Activity', () => {
  it('lists a pending fiat and coin withdrawal with their status until they are paid, then the history has them', async () => {
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await paths.bankDeposit(customer, '10000.00');
    await paths.drive('50000');
    await paths.instant(customer, { side: 'buy', quantity: '0.1' });
    const fiat = await paths.fiatWithdrawal(customer, '100.00');
    const coin = await paths.coinWithdrawal(customer, { coin: 'btc', wallet: WALLET, amount: '0.02' });
    expect(coin.status).toBe('pending');

    const listed = await pending(customer);
    expect(listed).toEqual([
      expect.objectContaining({
        id: `crypto-withdrawal-${coin.id}`,
        label: 'Withdraw',
        direction: 'out',
        coin_symbol: 'BTC',
        amount: '0.02000000',
        currency_code: null,
        gbp_amount: null,
        status: 'pending',
        status_label: 'Pending',
      }),
      expect.objectContaining({
        id: `fiat-withdrawal-${fiat.id}`,
        label: 'Withdraw',
        direction: 'out',
        coin_symbol: 'GBP',
        amount: '100.00',
        currency_code: 'GBP',
        gbp_amount: '100.00',
        status: 'pending',
        status_label: 'Pending',
      }),
    ]);
    // The filters keep their meaning: withdrawals under Withdraw and All, one asset's list only its own.
    expect(await pending(customer, '?filter[]=withdraw')).toHaveLength(2);
    expect(await pending(customer, '?filter[]=buy&filter[]=deposit')).toEqual([]);
    expect((await pending(customer, '?coin_id=btc')).map((row) => row.coin_symbol)).toEqual(['BTC']);
    // Nothing has moved yet: the history has the deposit and the buy, both completed.
    const before = await history(customer);
    expect(before.map((row) => [row.label, row.status, row.status_label])).toEqual([
      ['Buy', 'completed', 'Completed'],
      ['Deposit', 'completed', 'Completed'],
    ]);

    // Paid by the bank: it leaves the pending list and the history has it.
    await paths.payWithdrawal(fiat.id);
    expect((await pending(customer)).map((row) => row.id)).toEqual([`crypto-withdrawal-${coin.id}`]);
    expect((await history(customer))[0]).toMatchObject({
      label: 'Withdraw',
      coin_symbol: 'GBP',
      amount: '100.00',
      status: 'completed',
    });

    // Another customer sees none of it.
    const other = await liveCustomer(t);
    expect(await pending(other)).toEqual([]);
    await expectLedgerToHold(t.database.db);
  });
});
