import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARF_CSV_COLUMNS, CARF_TEXTS, CryptoWithdrawalSchema, TradeSchema } from '@florin/contracts';
import { parseCsv } from '../../http/csv.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser } from '../../test/browser.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import {
  errorOf,
  liveCustomer,
  mailedCode,
  newIdempotencyKey,
  type FiatCustomer,
} from '../fiat/fiat.test-kit.js';

let t: TestApp;
let finance: SignedInStaff;
let compliance: SignedInStaff;
let paths: MoneyPaths;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  compliance = await signedInStaff(t.app, t.database.db, 'compliance');
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const URL_2026 = '/api/admin/reports/carf?year=2026';

/**
 * A trading-account (platform 2) customer who paid in £10,000 by bank transfer: market orders at
 * the server's price.
 */
async function trader(options: Parameters<typeof liveCustomer>[1] = {}): Promise<FiatCustomer> {
  const customer = await liveCustomer(t, options);
  await db().updateTable('users').set({ platform: 2 }).where('id', '=', customer.id).execute();
  await paths.bankDeposit(customer, '10000.00');
  return customer;
}

/** Moves a pair's simulated mid through the dev route. */
async function drive(symbol: string, mid: string) {
  const response = await t.app.inject({ method: 'POST', url: '/dev/market/drive', payload: { symbol, mid } });
  expect(response.statusCode, response.body).toBe(200);
}

/** A market order at `mid`, then dated to `at`: a history over two years, made in one test. */
async function tradeAt(
  customer: FiatCustomer,
  at: string,
  side: 'buy' | 'sell',
  coin: 'btc' | 'eth',
  quantity: string,
  mid: string,
) {
  await drive(`${coin.toUpperCase()}/GBP`, mid);
  const response = await customer.browser.post(
    `/api/v1/crypto/${side}`,
    { coin_id: coin, crypto_amount: quantity },
    { headers: { 'idempotency-key': newIdempotencyKey() } },
  );
  expect(response.statusCode, response.body).toBe(200);
  const trade = TradeSchema.parse(response.json<{ data: unknown }>().data);
  await db()
    .updateTable('trades')
    .set({ created_at: new Date(at) } as never)
    .where('id', '=', trade.id)
    .execute();
  return trade;
}

/** Coins sent to the customer's deposit address on the simulated chain, confirmed, then dated to `at`. */
async function depositAt(customer: FiatCustomer, at: string, amount: string) {
  const wallets = await customer.browser.get('/api/v1/user/wallet-addresses?coin=btc');
  const address = wallets.json<{ data: { address: string }[] }>().data[0]!.address;
  const sent = await finance.browser.post('/api/admin/crypto/simulated-chain/deposit', {
    asset: 'BTC',
    address,
    amount,
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const mined = await finance.browser.post('/api/admin/crypto/simulated-chain/mine', {
    asset: 'BTC',
    blocks: 6,
  });
  expect(mined.statusCode, mined.body).toBe(200);
  const credited = await db()
    .updateTable('crypto_deposits')
    .set({ credited_at: new Date(at) })
    .where('user_id', '=', customer.id)
    .where('status', '=', 'credited')
    .where('credited_at', '>', new Date(Date.now() - 60_000))
    .returning('journal_id')
    .executeTakeFirstOrThrow();
  const journal = await db()
    .selectFrom('journals')
    .select('metadata')
    .where('id', '=', credited.journal_id!)
    .executeTakeFirstOrThrow();
  return journal.metadata.gbp_value;
}

/** BTC locked for the shortest term, paid back with interest through the dev route, then dated to `at`. */
async function interestPaidAt(customer: FiatCustomer, at: string, amount: string) {
  const coins = await customer.browser.get('/api/v1/term-deposit-coins');
  const btc = coins
    .json<{ data: { coin_id: string; options: { id: number; no_days: number }[] }[] }>()
    .data.find((coin) => coin.coin_id === 'btc');
  const option = btc!.options.reduce((a, b) => (a.no_days <= b.no_days ? a : b));
  const locked = await customer.browser.post(
    '/api/v1/crypto/term-deposit',
    { coin: 'btc', amount, day: option.id },
    { headers: { 'idempotency-key': newIdempotencyKey() } },
  );
  expect(locked.statusCode, locked.body).toBe(200);
  const matured = await t.app.inject({
    method: 'POST',
    url: '/dev/term-deposits/mature',
    payload: { email: customer.email },
  });
  expect(matured.statusCode, matured.body).toBe(200);
  await db()
    .updateTable('term_deposits')
    .set({ paid_at: new Date(at) })
    .where('user_id', '=', customer.id)
    .execute();
}

/** A withdrawal requested, verified with the mailed code, approved and sent by finance, then dated to `at`. */
async function withdrawalSentAt(customer: FiatCustomer, at: string, amount: string) {
  const requested = await customer.browser.post(
    '/api/v1/crypto/send-verify-withdraw',
    {
      coin: 'btc',
      wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      amount,
      beneficiary_type: 'self',
      destination_type: 'private_wallet',
    },
    { headers: { 'idempotency-key': newIdempotencyKey() } },
  );
  expect(requested.statusCode, requested.body).toBe(200);
  const { id } = CryptoWithdrawalSchema.parse(requested.json<{ data: unknown }>().data);
  const verified = await customer.browser.post('/api/v1/crypto/verify-withdraw', {
    withdrawal_id: id,
    verify_code: await mailedCode(db(), customer.email),
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const submitted = await customer.browser.post('/api/v1/crypto/withdraw', { withdrawal_id: id });
  expect(submitted.statusCode, submitted.body).toBe(200);
  for (const action of ['approve', 'send']) {
    const response = await finance.browser.post(`/api/admin/crypto/withdrawals/${id}/${action}`, {});
    expect(response.statusCode, response.body).toBe(200);
  }
  await db()
    .updateTable('crypto_withdrawals')
    .set({ sent_at: new Date(at) })
    .where('id', '=', id)
    .execute();
}

/** A stored BTC/GBP candle: the export prices a transfer with no stored GBP value from these. */
async function candle(resolution: 'minute' | 'hour', startAt: string, close: string) {
  await db()
    .insertInto('candles')
    .values({
      symbol: 'BTC/GBP',
      resolution,
      start_at: new Date(startAt),
      open: close,
      high: close,
      low: close,
      close,
      last_tick_at: new Date(startAt),
    })
    .execute();
}

async function exportAs(staff: SignedInStaff, url = URL_2026) {
  const response = await staff.browser.get(url);
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

describe('the CARF yearly export', () => {
  it('gives each customer’s identity and, per asset, the calendar year’s trades and transfers with GBP values, and audits it', async () => {
    const customer = await trader({ firstName: 'Ada', lastName: 'Byron' });
    // The year before: none of it is 2026's.
    await tradeAt(customer, '2025-12-31T23:59:59.999Z', 'buy', 'btc', '0.1', '20000');
    await depositAt(customer, '2025-06-01T12:00:00Z', '0.5');
    // 2026, from its first moment (UTC).
    const buys = [
      await tradeAt(customer, '2026-01-01T00:00:00Z', 'buy', 'btc', '0.1', '30000'),
      await tradeAt(customer, '2026-03-01T12:00:00Z', 'buy', 'btc', '0.02', '35000'),
    ];
    const sale = await tradeAt(customer, '2026-06-01T12:00:00Z', 'sell', 'btc', '0.05', '40000');
    const eth = await tradeAt(customer, '2026-05-05T09:00:00Z', 'buy', 'eth', '0.5', '2000');
    // The next year's first moment is not 2026's.
    await tradeAt(customer, '2027-01-01T00:00:00Z', 'sell', 'btc', '0.01', '40000');
    // The GBP value each trade recorded is its notional, Florin's fee excluded.
    expect([...buys, sale, eth].map((trade) => trade.total_cost_wo_fee)).toEqual([
      '3015.00',
      '703.50',
      '1990.00',
      '1005.00',
    ]);

    // Credited while the price was fresh: the journal stored its GBP value.
    await drive('BTC/GBP', '40000');
    const storedValue = await depositAt(customer, '2026-02-01T10:00:00Z', '0.25');
    expect(storedValue).toBe('9950.00');

    // Interest is priced from the minute candle at or before its payment.
    await interestPaidAt(customer, '2026-04-01T12:00:30Z', '0.1');
    await candle('minute', '2026-04-01T11:59:00Z', '36000.00000000');

    // Withdrawals: one priced from the hour candle (no minute one near), one from the minute candle.
    await withdrawalSentAt(customer, '2026-07-01T08:30:00Z', '0.05');
    await candle('hour', '2026-07-01T08:00:00Z', '41000.00000000');
    await withdrawalSentAt(customer, '2026-09-15T16:00:20Z', '0.02');
    await candle('minute', '2026-09-15T16:00:00Z', '42000.00000000');

    // Activity only in another year, or none: not in the file.
    const earlier = await trader({ firstName: 'Earlier', lastName: 'Only' });
    await tradeAt(earlier, '2025-11-11T11:00:00Z', 'buy', 'btc', '0.01', '30000');
    const idle = await trader({ firstName: 'Idle', lastName: 'Customer' });

    // A company account: its holder's details and the company's.
    const company = await trader({ firstName: 'Grace', lastName: 'Director', accountType: 'Corporate' });
    await db()
      .updateTable('companies')
      .set({
        name: 'Hopper Widgets Ltd',
        company_number: '01234567',
        address: '2 Dock Road',
        city: 'Leeds',
        country: 'GB',
        zip: 'LS1 4AP',
      })
      .where('user_id', '=', company.id)
      .execute();
    await tradeAt(company, '2026-08-08T08:08:08Z', 'buy', 'btc', '0.01', '30000');
    // Sent when Florin had no price anywhere near: its GBP value is unknown, and the file says so.
    await withdrawalSentAt(company, '2026-10-10T10:00:00Z', '0.01');

    const response = await exportAs(finance);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="florin-carf-2026.csv"');
    expect(response.headers['cache-control']).toBe('no-store');
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual([...CARF_CSV_COLUMNS]);

    const ada = [
      '2026',
      customer.reference,
      'Individual',
      'Ada',
      'Byron',
      '1980-05-17',
      '1 Long Lane',
      'London',
      'EC1A 1BB',
      'GB',
      'GB',
      'QQ123456C',
      'NINO',
      ...['', '', '', '', '', ''],
    ];
    expect(rows.filter((row) => row[1] === customer.reference)).toEqual([
      [
        ...ada,
        'BTC',
        // Bought 0.1 + 0.02 for £3,015.00 + £703.50; sold 0.05 for £1,990.00.
        ...['2', '0.12000000', '3718.50'],
        ...['1', '0.05000000', '1990.00'],
        // Deposited 0.25, valued when credited: £9,950.00 as stored.
        ...['1', '0.25000000', '9950.00'],
        // 0.25 % on 0.1 for the shortest term: 0.00025 BTC at £36,000 = £9.00.
        ...['1', '0.00025000', '9.00'],
        // 0.05 at £41,000 = £2,050.00 and 0.02 at £42,000 = £840.00.
        ...['2', '0.07000000', '2890.00'],
        '',
      ],
      [
        ...ada,
        'ETH',
        ...['1', '0.500000000000000000', '1005.00'],
        ...['0', '0.000000000000000000', '0.00'],
        ...['0', '0.000000000000000000', '0.00'],
        ...['0', '0.000000000000000000', '0.00'],
        ...['0', '0.000000000000000000', '0.00'],
        '',
      ],
    ]);
    expect(rows.filter((row) => row[1] === company.reference)).toEqual([
      [
        '2026',
        company.reference,
        'Corporate',
        'Grace',
        'Director',
        '1980-05-17',
        '1 Long Lane',
        'London',
        'EC1A 1BB',
        'GB',
        'GB',
        'QQ123456C',
        'NINO',
        'Hopper Widgets Ltd',
        '01234567',
        '2 Dock Road',
        'Leeds',
        'LS1 4AP',
        'GB',
        'BTC',
        ...['1', '0.01000000', '301.50'],
        ...['0', '0.00000000', '0.00'],
        ...['0', '0.00000000', '0.00'],
        ...['0', '0.00000000', '0.00'],
        ...['1', '0.01000000', ''],
        'No GBP price for 1 of 1 transfers out: GBP value left empty.',
      ],
    ]);
    expect(rows).toHaveLength(3);
    const references = rows.map((row) => row[1]);
    expect(references).not.toContain(earlier.reference);
    expect(references).not.toContain(idle.reference);

    const audit = await db()
      .selectFrom('audit_log')
      .select(['staff_id', 'action', 'target_type', 'target_id', 'after'])
      .where('action', '=', 'carf.exported')
      .execute();
    expect(audit).toEqual([
      {
        staff_id: finance.id,
        action: 'carf.exported',
        target_type: 'report',
        target_id: '2026',
        after: { year: 2026, customers: 2, rows: 3 },
      },
    ]);
    await expectLedgerToHold(db());
  });

  it('is for compliance and finance only: support, customers and visitors find nothing there', async () => {
    expect((await exportAs(compliance)).body.split('\r\n')[0]).toBe(CARF_CSV_COLUMNS.join(','));
    const support = await signedInStaff(t.app, t.database.db, 'support');
    const customer = await liveCustomer(t);
    for (const browser of [support.browser, customer.browser, createBrowser(t.app)]) {
      const response = await browser.get(URL_2026);
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
    }
    const audit = await db()
      .selectFrom('audit_log')
      .select('staff_id')
      .where('action', '=', 'carf.exported')
      .where('staff_id', '=', support.id)
      .execute();
    expect(audit).toEqual([]);
  });

  it('refuses a year not yet started, one before CARF, and no year at all', async () => {
    const nextYear = new Date().getUTCFullYear() + 1;
    const future = await compliance.browser.get(`/api/admin/reports/carf?year=${nextYear}`);
    expect(future.statusCode).toBe(422);
    expect(errorOf(future).errors?.year).toEqual([CARF_TEXTS.yearNotStarted]);
    const before = await compliance.browser.get('/api/admin/reports/carf?year=2025');
    expect(before.statusCode).toBe(422);
    expect(errorOf(before).errors?.year).toEqual([CARF_TEXTS.yearTooEarly]);
    const none = await compliance.browser.get('/api/admin/reports/carf');
    expect(none.statusCode).toBe(422);
    expect(errorOf(none).errors?.year).toEqual([CARF_TEXTS.yearRequired]);
  });
});
