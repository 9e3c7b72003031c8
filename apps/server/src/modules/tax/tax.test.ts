import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPITAL_GAINS_CSV_COLUMNS,
  CapitalGainsReportSchema,
  TradeSchema,
  type CapitalGainsReport,
} from '@florin/contracts';
import { parseCsv } from '../../http/csv.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { errorOf, liveCustomer, newIdempotencyKey, type FiatCustomer } from '../fiat/fiat.test-kit.js';

let t: TestApp;
let finance: SignedInStaff;
let paths: MoneyPaths;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

/** A trading-account (platform 2) customer with £10,000 paid in by bank transfer: market orders at the server's price. */
async function trader(): Promise<FiatCustomer> {
  const customer = await liveCustomer(t);
  await db().updateTable('users').set({ platform: 2 }).where('id', '=', customer.id).execute();
  await paths.bankDeposit(customer, '10000.00');
  return customer;
}

/** Moves the simulated BTC/GBP mid through the dev route. */
async function drive(mid: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/dev/market/drive',
    payload: { symbol: 'BTC/GBP', mid },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/**
 * A market order at `mid`, then dated to noon UTC on `day`: the history a
 * customer would have built over two tax years, made in one test.
 */
async function tradeOn(
  customer: FiatCustomer,
  day: string,
  side: 'buy' | 'sell',
  quantity: string,
  mid: string,
) {
  await drive(mid);
  const response = await customer.browser.post(
    `/api/v1/crypto/${side}`,
    { coin_id: 'btc', crypto_amount: quantity },
    { headers: { 'idempotency-key': newIdempotencyKey() } },
  );
  expect(response.statusCode, response.body).toBe(200);
  const trade = TradeSchema.parse(response.json<{ data: unknown }>().data);
  await db()
    .updateTable('trades')
    .set({ created_at: new Date(`${day}T12:00:00Z`) } as never)
    .where('id', '=', trade.id)
    .execute();
  return trade;
}

async function report(customer: FiatCustomer, year?: number): Promise<CapitalGainsReport> {
  const response = await customer.browser.get(`/api/v1/tax/capital-gains${year ? `?year=${year}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return CapitalGainsReportSchema.parse(response.json());
}

describe('the capital gains report', () => {
  it('matches a seeded history under HMRC’s rules: the same day, the next 30 days, then the pool', async () => {
    const customer = await trader();
    const trades = [
      await tradeOn(customer, '2025-05-01', 'buy', '0.1', '20000'),
      await tradeOn(customer, '2025-06-02', 'buy', '0.1', '30000'),
      await tradeOn(customer, '2025-07-01', 'sell', '0.05', '40000'),
      await tradeOn(customer, '2025-07-01', 'buy', '0.01', '40000'),
      await tradeOn(customer, '2025-07-11', 'buy', '0.02', '35000'),
      await tradeOn(customer, '2026-05-01', 'sell', '0.1', '50000'),
    ];
    // What each trade cost or brought, its 0.75 % fee included (a buy) or deducted (a sale).
    expect(trades.map((trade) => trade.total_cost_w_fee)).toEqual([
      '2025.08',
      '3037.62',
      '1975.07',
      '405.02',
      '708.78',
      '4937.68',
    ]);

    // Tax year 2025–26. The sale of 0.05 on 1 July 2025 is matched with
    //   the same day's purchase of 0.01:                 £405.02
    //   the purchase of 0.02 ten days later:             £708.78
    //   0.02 of the pool (0.2 BTC for £5,062.70), 1/10:  £506.27
    // a cost of £1,620.07 against proceeds of £1,975.07: a gain of £355.00. The pool keeps
    // 0.18 BTC for £4,556.43 (the 11 July purchase never joins it).
    const year2025 = await report(customer, 2025);
    expect(year2025.tax_year).toEqual({
      year: 2025,
      label: '2025–26',
      first: '2025-04-06',
      last: '2026-04-05',
    });
    expect(year2025.disposals).toEqual([
      {
        asset: 'BTC',
        date: '2025-07-01',
        quantity: '0.05000000',
        proceeds: '1975.07',
        cost: '1620.07',
        gain: '355.00',
        matches: [
          { rule: 'same-day', quantity: '0.01000000', cost: '405.02', acquired_on: null },
          { rule: 'thirty-day', quantity: '0.02000000', cost: '708.78', acquired_on: '2025-07-11' },
          { rule: 'section-104', quantity: '0.02000000', cost: '506.27', acquired_on: null },
        ],
        uncosted_quantity: '0.00000000',
      },
    ]);
    expect(year2025.totals).toEqual({
      proceeds: '1975.07',
      costs: '1620.07',
      gains: '355.00',
      losses: '0.00',
      net: '355.00',
    });
    expect(year2025.pools).toEqual([
      { asset: 'BTC', quantity: '0.18000000', cost: '4556.43', uncosted_quantity: '0.00000000' },
    ]);

    // Tax year 2026–27 (the current one, and the default): 0.1 of the pool's 0.18 costs
    // £4,556.43 × 0.1 ÷ 0.18 = £2,531.35 against £4,937.68, a gain of £2,406.33.
    const current = await report(customer);
    expect(current.tax_year.label).toBe('2026–27');
    expect(current.tax_years).toEqual([
      { year: 2026, label: '2026–27' },
      { year: 2025, label: '2025–26' },
    ]);
    expect(current.disposals).toMatchObject([
      { date: '2026-05-01', cost: '2531.35', gain: '2406.33', matches: [{ rule: 'section-104' }] },
    ]);
    expect(current.pools).toEqual([
      { asset: 'BTC', quantity: '0.08000000', cost: '2025.08', uncosted_quantity: '0.00000000' },
    ]);

    const csv = await customer.browser.get('/api/v1/tax/capital-gains/export?year=2025');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="Florin capital gains 2025-26.csv"',
    );
    // Each matched part is a row, the disposal's own figures repeated on each.
    const sale = ['2025-07-01', 'BTC', '0.05000000', '1975.07', '1620.07', '355.00'];
    expect(parseCsv(csv.body)).toEqual([
      [...CAPITAL_GAINS_CSV_COLUMNS],
      [...sale, 'Same day', '0.01000000', '405.02', '', '0.00000000'],
      [...sale, 'Next 30 days', '0.02000000', '708.78', '2025-07-11', '0.00000000'],
      [...sale, 'Section 104 pool', '0.02000000', '506.27', '', '0.00000000'],
    ]);
    await expectLedgerToHold(db());
  });

  it('counts coins deposited from outside Florin as having no recorded cost, and says how many were sold', async () => {
    const customer = await trader();
    const wallets = await customer.browser.get('/api/v1/user/wallet-addresses?coin=btc');
    const address = wallets.json<{ data: { address: string }[] }>().data[0]!.address;
    const deposited = await finance.browser.post('/api/admin/crypto/simulated-chain/deposit', {
      asset: 'BTC',
      address,
      amount: '0.25',
    });
    expect(deposited.statusCode, deposited.body).toBe(200);
    const mined = await finance.browser.post('/api/admin/crypto/simulated-chain/mine', {
      asset: 'BTC',
      blocks: 6,
    });
    expect(mined.statusCode, mined.body).toBe(200);
    await drive('40000');
    const sold = await customer.browser.post(
      '/api/v1/crypto/sell',
      { coin_id: 'btc', crypto_amount: '0.05' },
      { headers: { 'idempotency-key': newIdempotencyKey() } },
    );
    expect(sold.statusCode, sold.body).toBe(200);
    const proceeds = TradeSchema.parse(sold.json<{ data: unknown }>().data).total_cost_w_fee;

    const { disposals, pools } = await report(customer);
    expect(disposals).toMatchObject([
      { quantity: '0.05000000', proceeds, cost: '0.00', gain: proceeds, uncosted_quantity: '0.05000000' },
    ]);
    expect(pools).toEqual([
      { asset: 'BTC', quantity: '0.20000000', cost: '0.00', uncosted_quantity: '0.20000000' },
    ]);
    await expectLedgerToHold(db());
  });

  it('is each customer’s own: a visitor is asked to sign in, a company account has none, a future year is refused', async () => {
    const visitor = await t.app.inject({ method: 'GET', url: '/api/v1/tax/capital-gains' });
    expect(visitor.statusCode).toBe(401);
    const visitorCsv = await t.app.inject({ method: 'GET', url: '/api/v1/tax/capital-gains/export' });
    expect(visitorCsv.statusCode).toBe(401);

    const company = await trader();
    await db().updateTable('users').set({ account_type: 'Corporate' }).where('id', '=', company.id).execute();
    expect((await company.browser.get('/api/v1/tax/capital-gains')).statusCode).toBe(404);
    expect((await company.browser.get('/api/v1/tax/capital-gains/export')).statusCode).toBe(404);

    const customer = await trader();
    const future = await customer.browser.get('/api/v1/tax/capital-gains?year=2030');
    expect(future.statusCode).toBe(422);
    expect(errorOf(future).errors?.year).toEqual(['Choose a tax year that has started.']);
    const nonsense = await customer.browser.get('/api/v1/tax/capital-gains/export?year=twenty');
    expect(nonsense.statusCode).toBe(422);
    const empty = await report(customer);
    expect(empty).toMatchObject({ disposals: [], pools: [], tax_years: [{ year: 2026, label: '2026–27' }] });
  });
});
