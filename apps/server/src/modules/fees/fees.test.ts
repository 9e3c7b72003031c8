import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminCoinSchema,
  AdminCurrencySchema,
  cryptoMinimumText,
  CryptoWithdrawalSchema,
  FeesSchema,
  FiatWithdrawalSchema,
  QuoteSchema,
  type AssetFees,
  type Fees,
} from '@florin/contracts';
import { parseAmount, formatAmount } from '@florin/domain';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import {
  errorOf,
  liveCustomer,
  newIdempotencyKey,
  readyBankAccount,
  withdraw,
  type FiatCustomer,
} from '../fiat/fiat.test-kit.js';

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

/** GET /api/v1/fees as a visitor: no session, no cookie. */
async function fees(): Promise<Fees> {
  const response = await t.app.inject({ method: 'GET', url: '/api/v1/fees' });
  expect(response.statusCode, response.body).toBe(200);
  return FeesSchema.parse(response.json());
}

async function feesOf(asset: string): Promise<AssetFees> {
  const found = (await fees()).assets.find((row) => row.asset === asset);
  if (!found) throw new Error(`no fees for ${asset}`);
  return found;
}

/** A staff edit of one coin's settings through the back office, the rest left as they are. */
async function saveCoin(coinId: string, changes: Record<string, unknown>) {
  const list = await finance.browser.get('/api/admin/trading/coins');
  const coin = AdminCoinSchema.array()
    .parse(list.json<{ data: unknown }>().data)
    .find((row) => row.coin_id === coinId);
  if (!coin) throw new Error(`no coin ${coinId}`);
  const { coin_id: _coinId, asset: _asset, name: _name, ...settings } = coin;
  const response = await finance.browser.put(`/api/admin/trading/coins/${coinId}`, {
    ...settings,
    ...changes,
  });
  expect(response.statusCode, response.body).toBe(200);
}

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

function requestBtcWithdrawal(customer: FiatCustomer, amount: string) {
  return customer.browser.post(
    '/api/v1/crypto/send-verify-withdraw',
    {
      coin: 'btc',
      amount,
      wallet: BTC_ADDRESS,
      beneficiary_type: 'self',
      destination_type: 'private_wallet',
    },
    { headers: { 'idempotency-key': newIdempotencyKey() } },
  );
}

describe('the public fees (GET /api/v1/fees)', () => {
  it('gives a visitor the deposit and withdrawal figures of spec 002 §9 and the fee schedule', async () => {
    const body = await fees();
    const fiat = (asset: 'GBP' | 'EUR' | 'USD') => ({
      asset,
      kind: 'fiat',
      deposit_fee: '0.00',
      withdraw_fee: '5.00',
      withdraw_fee_free_from: '10000.00',
      withdraw_min: '25.00',
      withdraw_max: null,
    });
    const coin = (asset: string, fee: string, minimum: string) => ({
      asset,
      kind: 'coin',
      deposit_fee: formatAmount(0n, asset as 'BTC'),
      withdraw_fee: fee,
      withdraw_fee_free_from: null,
      withdraw_min: minimum,
      withdraw_max: null,
    });
    expect(body.assets).toEqual([
      fiat('GBP'),
      fiat('EUR'),
      fiat('USD'),
      coin('BTC', '0.00050000', '0.01000000'),
      coin('ETH', '0.005000000000000000', '0.010000000000000000'),
      coin('LTC', '0.00100000', '1.00000000'),
      coin('BCH', '0.00100000', '0.01000000'),
      coin('XRP', '1.000000', '20.000000'),
    ]);
    // DECISIONS.md: the spec's tier table for instant accounts, "from 0.35%" for trading accounts.
    expect(body.trading).toEqual([
      {
        tier: 1,
        volume_from: '0.00',
        volume_to: '50000.00',
        instant_percent: '1.39',
        trading_percent: '0.75',
      },
      {
        tier: 2,
        volume_from: '50001.00',
        volume_to: '100000.00',
        instant_percent: '1.15',
        trading_percent: '0.60',
      },
      {
        tier: 3,
        volume_from: '100001.00',
        volume_to: '250000.00',
        instant_percent: '0.90',
        trading_percent: '0.45',
      },
      {
        tier: 4,
        volume_from: '250001.00',
        volume_to: '1000000.00',
        instant_percent: '0.65',
        trading_percent: '0.35',
      },
    ]);
  });

  it('a crypto withdrawal charges the fee and minimum the page shows, also after staff change them', async () => {
    await saveCoin('btc', { withdraw_fee: '0.0007', amount_min: '0.02' });
    const btc = await feesOf('BTC');
    expect(btc).toMatchObject({ withdraw_fee: '0.00070000', withdraw_min: '0.02000000' });

    const customer = await liveCustomer(t);
    await paths.coinDeposit(customer, 'btc', '1');

    const below = await requestBtcWithdrawal(customer, '0.019');
    expect(below.statusCode).toBe(422);
    expect(errorOf(below).message).toBe(cryptoMinimumText('btc', btc.withdraw_min));

    const response = await requestBtcWithdrawal(customer, '0.5');
    expect(response.statusCode, response.body).toBe(200);
    const withdrawal = CryptoWithdrawalSchema.parse(response.json<{ data: unknown }>().data);
    expect(withdrawal.fee).toBe(btc.withdraw_fee);
    expect(parseAmount(withdrawal.amount_receive, 'BTC')).toBe(
      parseAmount('0.5', 'BTC') - parseAmount(btc.withdraw_fee, 'BTC'),
    );
    await expectLedgerToHold(db());
  });

  it('a GBP withdrawal charges the fee the page shows, and none from the fee-free amount on', async () => {
    const currencies = await finance.browser.get('/api/admin/trading/currencies');
    const { revision } = AdminCurrencySchema.array()
      .parse(currencies.json<{ data: unknown }>().data)
      .find((row) => row.code === 'GBP')!;
    const saved = await finance.browser.put('/api/admin/trading/currencies/GBP', {
      revision,
      withdraw_min: '30',
      withdraw_fee: '3.5',
      withdraw_fee_free_from: '5000',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const gbp = await feesOf('GBP');
    expect(gbp).toMatchObject({
      withdraw_fee: '3.50',
      withdraw_min: '30.00',
      withdraw_fee_free_from: '5000.00',
    });

    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await paths.bankDeposit(customer, '10000.00');

    const below = await withdraw(customer, { amount: '29.99' });
    expect(below.statusCode).toBe(400);
    expect(errorOf(below).message).toBe(`Minimum GBP withdrawal amount is ${gbp.withdraw_min}`);

    const charged = await withdraw(customer, { amount: '100' });
    expect(charged.statusCode, charged.body).toBe(200);
    expect(FiatWithdrawalSchema.parse(charged.json<{ data: unknown }>().data)).toMatchObject({
      fee: gbp.withdraw_fee,
      amount_receive: '96.50',
    });

    const free = await withdraw(customer, { amount: gbp.withdraw_fee_free_from ?? '' });
    expect(free.statusCode, free.body).toBe(200);
    expect(FiatWithdrawalSchema.parse(free.json<{ data: unknown }>().data)).toMatchObject({
      fee: '0.00',
      amount_receive: '5000.00',
    });
    await expectLedgerToHold(db());
  });

  it('a quote charges the schedule’s fee for the customer’s account type', async () => {
    const drove = await t.app.inject({
      method: 'POST',
      url: '/dev/market/drive',
      payload: { symbol: 'BTC/GBP', mid: '20000' },
    });
    expect(drove.statusCode, drove.body).toBe(200);
    const tier1 = (await fees()).trading.find((row) => row.tier === 1);
    if (!tier1) throw new Error('no Tier 1 on the schedule');

    const feePercentFor = async (customer: FiatCustomer) => {
      const response = await customer.browser.post('/api/v1/quotes', {
        side: 'buy',
        coin_id: 'btc',
        currency: 'gbp',
        // The coin's amount_min is also its smallest trade, and the test above raised it to 0.02.
        quantity: '0.05',
      });
      expect(response.statusCode, response.body).toBe(200);
      return QuoteSchema.parse(response.json<{ data: unknown }>().data).fee_percent;
    };
    const instant = await liveCustomer(t);
    expect(await feePercentFor(instant)).toBe(tier1.instant_percent);

    const trader = await liveCustomer(t);
    await db().updateTable('users').set({ platform: 2 }).where('id', '=', trader.id).execute();
    expect(await feePercentFor(trader)).toBe(tier1.trading_percent);
  });
});
