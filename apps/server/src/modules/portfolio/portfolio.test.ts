import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  HISTORY_CSV_COLUMNS,
  type Balances,
  type HistoryPage,
  type Quote,
  type Transaction,
} from '@florin/contracts';
import { formatAmount, parseAmount } from '@florin/domain';
import type { PriceSource, Tick, Timers } from '../../adapters/prices/source.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { newCustomer, type Customer } from '../kyc/kyc.test-kit.js';
import { liveCustomer, readyBankAccount, type FiatCustomer } from '../fiat/fiat.test-kit.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { createReferralsForTests, referralsKit } from '../referrals/referrals.test-kit.js';
import { createMarketRepository } from '../market/repository.js';
import { createMarketService, type MarketService } from '../market/service.js';

const stillTimers: Timers = {
  setInterval: () => 0,
  clearInterval: () => undefined,
  setTimeout: () => 0,
  clearTimeout: () => undefined,
};
const idle: PriceSource = { name: 'manual', start: () => undefined, stop: () => undefined };

let t: TestApp;
let market: MarketService;
let paths: MoneyPaths;
const { customer: referralCustomer } = referralsKit(() => t);

beforeAll(async () => {
  t = await createTestApp({
    market: (database) => {
      market = createMarketService({
        repository: createMarketRepository(database.db),
        source: idle,
        timers: stillTimers,
      });
      return market;
    },
  });
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await expectLedgerToHold(t.database.db);
});

/** Fresh prices now: BTC 50,000 GBP and 62,500 EUR (so 1 EUR = 0.80 GBP), ETH 2,000 GBP. */
async function priceTheMarket(options: { withEth?: boolean } = {}): Promise<void> {
  const at = new Date();
  const ticks: Tick[] = [
    { base: 'BTC', quote: 'GBP', mid: '50000', at },
    { base: 'BTC', quote: 'EUR', mid: '62500', at },
  ];
  if (options.withEth !== false) ticks.push({ base: 'ETH', quote: 'GBP', mid: '2000', at });
  await market.ingest(ticks);
}

async function history(customer: Customer | FiatCustomer, query = ''): Promise<HistoryPage> {
  const url = `/api/v1/user/fiat-crypto-transactions${query}`;
  const response = await ('browser' in customer ? customer.browser.get(url) : customer.get(url));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<HistoryPage>();
}

describe('GET /api/v1/balance', () => {
  it('answers every holding with its GBP value at the bid and its share of the portfolio', async () => {
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await paths.bankDeposit(customer, '1000.00');
    await paths.bankDeposit(customer, '500.00', 'EUR'); // = 400.00 GBP
    await paths.coinDeposit(customer, 'btc', '0.5');
    await paths.coinDeposit(customer, 'eth', '2');
    // 100.00 GBP held by a pending withdrawal; 0.1 BTC locked in a term deposit.
    await paths.fiatWithdrawal(customer, '100.00');
    await paths.termDeposit(customer, 'btc', '0.1');
    await priceTheMarket();

    const response = await customer.browser.get(`/api/v1/balance?user_id=${customer.id}&percentage=true`);
    expect(response.statusCode, response.body).toBe(200);
    const [first] = response.json<Balances>().data;
    // Bids: BTC 50,000 less its 0.5 % spread = 49,750; ETH 2,000 less 0.5 % = 1,990.
    // The balance shown is what can be spent; the held and the total beside it.
    expect(first.balances.GBP).toMatchObject({
      amount: '900.00',
      available: '900.00',
      held: '100.00',
      held_withdrawals: '100.00',
      held_orders: '0.00',
      total: '1000.00',
      gbp_value: '1000.00',
    });
    expect(first.balances.EUR).toMatchObject({ amount: '500.00', gbp_value: '400.00' });
    expect(first.balances.btc).toMatchObject({
      asset: 'BTC',
      amount: '0.40000000',
      term_deposit: '0.10000000',
      gbp_value: '24875.00',
    });
    expect(first.balances.eth).toMatchObject({
      gbp_value: '3980.00',
      disable_buy: false,
      disable_withdraw: false,
    });
    expect(first.balances.GBP).not.toHaveProperty('disable_buy');
    // Cash first, then every active coin in the listing's order, held or not.
    expect(Object.keys(first.balances)).toEqual(['GBP', 'EUR', 'btc', 'eth', 'ltc', 'bch', 'xrp']);
    expect(first.balances.ltc).toMatchObject({ amount: '0.00000000', gbp_value: null, percentage: null });
    expect(first.term_deposit_balances).toEqual({ btc: { balance: '0.10000000' } });
    expect(first.total_gbp).toBe('30255.00');
    expect(first.balances.btc!.percentage).toBe('82.22');
    expect(first.balances.GBP!.percentage).toBe('3.31');
    expect(first.prices_stale).toBe(false);

    // The lock shows in history as the coins leaving the spendable balance.
    const [latest] = (await history(customer)).data;
    expect(latest).toMatchObject({
      transaction_type: 7,
      label: 'Term deposit lock',
      direction: 'out',
      coin_symbol: 'BTC',
      amount: '0.10000000',
      currency_code: null,
    });
  });

  it('leaves a coin without a fresh price out of the total and says prices are stale', async () => {
    const customer = await liveCustomer(t);
    await paths.coinDeposit(customer, 'ltc', '1');
    await paths.bankDeposit(customer, '50.00');
    await priceTheMarket();
    const [first] = (await customer.browser.get('/api/v1/balance')).json<Balances>().data;
    expect(first.balances.ltc).toMatchObject({ amount: '1.00000000', gbp_value: null, percentage: null });
    expect(first.total_gbp).toBe('50.00');
    expect(first.prices_stale).toBe(true);
  });

  it('carries each coin’s switches, so the dashboard disables what staff turned off', async () => {
    await t.database.db
      .updateTable('coins')
      .set({ disable_sell: true })
      .where('coin_id', '=', 'xrp')
      .execute();
    try {
      const customer = await newCustomer(t);
      const [first] = (await customer.get('/api/v1/balance')).json<Balances>().data;
      expect(first.balances.xrp).toMatchObject({ disable_sell: true, disable_buy: false });
      expect(first.balances.btc).toMatchObject({ disable_sell: false });
    } finally {
      await t.database.db
        .updateTable('coins')
        .set({ disable_sell: false })
        .where('coin_id', '=', 'xrp')
        .execute();
    }
  });

  it('answers only the signed-in customer, whatever user_id says, and nobody signed out', async () => {
    const owner = await liveCustomer(t);
    const other = await liveCustomer(t);
    await paths.bankDeposit(owner, '123.45');
    const [first] = (await other.browser.get(`/api/v1/balance?user_id=${owner.id}`)).json<Balances>().data;
    expect(first.balances.GBP).toMatchObject({ amount: '0.00' });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/balance' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/v1/user/fiat-crypto-transactions', () => {
  let customer: FiatCustomer;
  let stranger: FiatCustomer;
  /** The quotes the customer executed, oldest first: BTC buys, BTC sells. */
  const buys: Quote[] = [];
  const sells: Quote[] = [];

  beforeAll(async () => {
    customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    stranger = await liveCustomer(t);
    await paths.bankDeposit(stranger, '999.00');
    await priceTheMarket();
    // Oldest first: 12 GBP deposits, 5 BTC buys, 4 BTC sells, 2 ETH buys, 2 GBP withdrawals paid = 25.
    for (let index = 1; index <= 12; index += 1) await paths.bankDeposit(customer, `${index * 200}.00`);
    for (let index = 1; index <= 5; index += 1)
      buys.push((await paths.instant(customer, { side: 'buy', quantity: `0.0${index}` })).quote);
    for (let index = 1; index <= 4; index += 1)
      sells.push((await paths.instant(customer, { side: 'sell', quantity: '0.01' })).quote);
    await paths.instant(customer, { side: 'buy', coin_id: 'eth', quantity: '1' });
    await paths.instant(customer, { side: 'buy', coin_id: 'eth', quantity: '0.5' });
    for (const amount of ['100.00', '55.50'])
      await paths.payWithdrawal((await paths.fiatWithdrawal(customer, amount)).id);
  });

  it('pages the whole history ten at a time, newest first, with the spec’s types', async () => {
    const first = await history(customer);
    expect(first).toMatchObject({ current_page: 1, last_page: 3, per_page: 10, total: 25 });
    expect(first.next_page_url).toBe('/api/v1/user/fiat-crypto-transactions?page=2');
    expect(first.data.map((row) => row.transaction_type)).toEqual([6, 6, 1, 1, 2, 2, 2, 2, 1, 1]);
    expect(first.data[0]).toMatchObject({
      label: 'Withdraw',
      direction: 'out',
      coin_symbol: 'GBP',
      amount: '55.50',
      currency_code: 'GBP',
      currency_symbol: '£',
      gbp_amount: '55.50',
      fee: '5.00',
      price: null,
    });
    expect(first.data[4]).toMatchObject({
      label: 'Sell',
      coin_symbol: 'BTC',
      amount: '0.01000000',
      currency_code: 'GBP',
      price: sells[3]!.price,
      sell_amount_gbp: sells[3]!.total_cost_wo_fee,
      purchase_amount_gbp: null,
      fee: sells[3]!.fee,
      net_amount: sells[3]!.total_cost_w_fee,
    });
    expect(first.data[9]).toMatchObject({
      label: 'Buy',
      amount: '0.04000000',
      price: buys[3]!.price,
      purchase_amount_gbp: buys[3]!.total_cost_wo_fee,
      gbp_amount: buys[3]!.total_cost_wo_fee,
      fee: buys[3]!.fee,
    });

    const second = await history(customer, '?page=2');
    const third = await history(customer, '?page=3');
    expect(third.next_page_url).toBeNull();
    const all = [...first.data, ...second.data, ...third.data];
    expect(new Set(all.map((row) => row.id)).size).toBe(25);
    expect(third.data.at(-1)).toMatchObject({ transaction_type: 5, label: 'Deposit', amount: '200.00' });
    // A page past the end is empty, not an error.
    expect((await history(customer, '?page=9')).data).toEqual([]);
  });

  it('names a referral commission and its payout for what they are, not an adjustment', async () => {
    // A referrer abroad (so the incentives policy lets them earn); the customer they referred trades.
    const referrer = await referralCustomer('abroad');
    const referred = await referralCustomer('uk-individual', { referredBy: referrer });
    await priceTheMarket();
    await paths.bankDeposit(referred, '1000.00');
    const { quote } = await paths.instant(referred, { side: 'buy', quantity: '0.01' });
    await createReferralsForTests(t).accrueCommissions();
    // 20 % of the trade's fee, rounded down to the penny.
    const commission = formatAmount((parseAmount(quote.fee, 'GBP') * 20n) / 100n, 'GBP');

    await readyBankAccount(t, referrer);
    await paths.payReferralClaim((await paths.referralClaim(referrer, commission)).id);

    const [payout, earned] = (await history(referrer)).data;
    expect(earned).toMatchObject({
      transaction_type: 12,
      label: 'Referral commission',
      direction: 'in',
      amount: commission,
    });
    expect(payout).toMatchObject({
      transaction_type: 9,
      label: 'Referral payout',
      direction: 'out',
      amount: commission,
    });
  });

  it('filters Buy, Sell, Deposit and Withdraw, alone and together, and by asset', async () => {
    const types = (page: HistoryPage) => page.data.map((row: Transaction) => row.transaction_type);
    const buys = await history(customer, '?filter[]=buy');
    expect(buys.total).toBe(7);
    expect(types(buys)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const trades = await history(customer, '?filter[]=buy&filter[]=sell');
    expect(trades).toMatchObject({ total: 11, last_page: 2 });
    const deposits = await history(customer, '?filter=deposit');
    expect(deposits).toMatchObject({ total: 12, last_page: 2 });
    expect(deposits.next_page_url).toBe('/api/v1/user/fiat-crypto-transactions?filter%5B%5D=deposit&page=2');
    expect((await history(customer, '?filter[]=withdraw')).total).toBe(2);
    const ether = await history(customer, '?coin_id=eth');
    expect(ether.data.map((row) => [row.coin_symbol, row.amount])).toEqual([
      ['ETH', '0.500000000000000000'],
      ['ETH', '1.000000000000000000'],
    ]);
    // A coin's list: GET /api/v1/user/transactions?coin=btc, every BTC movement.
    const bitcoin = await customer.browser.get('/api/v1/user/transactions?coin=btc');
    expect(bitcoin.json<HistoryPage>()).toMatchObject({ total: 9 });
  });

  it('never shows one customer another’s transactions', async () => {
    const own = await history(stranger);
    expect(own.total).toBe(1);
    expect(own.data[0]).toMatchObject({ amount: '999.00' });
    const customersIds = new Set((await history(customer, '?page=3')).data.map((row) => row.id));
    expect(customersIds.has(own.data[0]!.id)).toBe(false);
  });

  it('refuses bad parameters with a 422 and the field named', async () => {
    for (const [query, field] of [
      ['?page=0', 'page'],
      ['?page=-1', 'page'],
      ['?page=abc', 'page'],
      ['?filter[]=steal', 'filter'],
      ['?coin_id=doge', 'coin_id'],
      ['?coin_id=%27%3B--', 'coin_id'],
    ] as const) {
      const response = await customer.browser.get(`/api/v1/user/fiat-crypto-transactions${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(JSON.stringify(response.json()), query).toContain(field);
    }
    expect((await customer.browser.get('/api/v1/user/transactions')).statusCode).toBe(422);
  });

  it('exports Crypto History.csv that parses back to the rows the history shows', async () => {
    const response = await customer.browser.get('/api/v1/crypto/transactions/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="Crypto History.csv"');
    const rows = parse<Record<string, string>>(response.body, { columns: true });
    expect(Object.keys(rows[0]!)).toEqual([...HISTORY_CSV_COLUMNS]);
    const shown = [
      ...(await history(customer)).data,
      ...(await history(customer, '?page=2')).data,
      ...(await history(customer, '?page=3')).data,
    ];
    expect(rows).toEqual(
      shown.map((row) => ({
        date: row.created_at,
        type: row.label,
        asset: row.coin_symbol,
        amount: row.direction === 'out' ? `-${row.amount}` : row.amount,
        currency: row.currency_code ?? '',
        price: row.price ?? '',
        gbp_value: row.gbp_amount ?? '',
        fee: row.fee,
        net_amount: row.net_amount ?? '',
        reference: row.id,
      })),
    );
    expect(rows[0]).toMatchObject({ type: 'Withdraw', amount: '-55.50' });
    expect(rows[0]!.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const strangers = parse<Record<string, string>>(
      (await stranger.browser.get('/api/v1/crypto/transactions/export')).body,
      { columns: true },
    );
    expect(strangers.map((row) => row.amount)).toEqual(['999.00']);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/crypto/transactions/export' });
    expect(anonymous.statusCode).toBe(401);
  });
});
