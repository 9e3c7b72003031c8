import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TRADING_TEXTS,
  AdminCoinSchema,
  AdminCurrencySchema,
  InventoryRowSchema,
  TRADING_TEXTS,
  type AdminCoin,
  type AdminCurrency,
} from '@florin/contracts';
import { instantQuote, parseAmount } from '@florin/domain';
import { checkLedger } from '../../ledger/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  answersOtherThanNotFound,
  callEveryAdminRoute,
  signedInStaff,
  type SignedInStaff,
} from '../../test/admin.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { auditRows } from '../compliance/customers.test-kit.js';
import { errorOf, liveCustomer, readyBankAccount } from '../fiat/fiat.test-kit.js';
import { tradingDomainCheck } from './service.js';
import { tradingSteps } from './trading.test-kit.js';
import { tradingAdminSteps } from './trading-admin.test-kit.js';

let t: TestApp;
let finance: SignedInStaff;
let superadmin: SignedInStaff;
let support: SignedInStaff;
let paths: MoneyPaths;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
  support = await signedInStaff(t.app, t.database.db, 'support');
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const { drive } = tradingSteps(() => t);
const { quoteResponse, quote, auditCount } = tradingAdminSteps(() => t);

async function coins(staff: SignedInStaff = finance): Promise<AdminCoin[]> {
  const response = await staff.browser.get('/api/admin/trading/coins');
  expect(response.statusCode, response.body).toBe(200);
  return AdminCoinSchema.array().parse(response.json<{ data: unknown }>().data);
}

async function coin(coinId: string): Promise<AdminCoin> {
  const found = (await coins()).find((row) => row.coin_id === coinId);
  if (!found) throw new Error(`no coin ${coinId}`);
  return found;
}

/** The PUT body of a coin as it is now, with `changes`. */
function bodyOf(current: AdminCoin, changes: Record<string, unknown> = {}) {
  const { coin_id: _coinId, asset: _asset, name: _name, ...settings } = current;
  return { ...settings, ...changes };
}

/** A currency's settings as the back office reads them. */
async function currency(code: string): Promise<AdminCurrency> {
  const response = await finance.browser.get('/api/admin/trading/currencies');
  const found = AdminCurrencySchema.array()
    .parse(response.json<{ data: unknown }>().data)
    .find((row) => row.code === code);
  if (!found) throw new Error(`no currency ${code}`);
  return found;
}

/** A currency's save, from the revision it has now. */
async function saveCurrency(code: string, body: Record<string, unknown>) {
  return finance.browser.put(`/api/admin/trading/currencies/${code}`, {
    revision: (await currency(code)).revision,
    ...body,
  });
}

async function saveCoin(coinId: string, changes: Record<string, unknown>, staff: SignedInStaff = finance) {
  return staff.browser.put(`/api/admin/trading/coins/${coinId}`, bodyOf(await coin(coinId), changes));
}

async function inventory() {
  const response = await finance.browser.get('/api/admin/trading/inventory');
  expect(response.statusCode, response.body).toBe(200);
  const data = response.json<{ data: { assets: unknown[]; total_gbp_value: string; complete: boolean } }>()
    .data;
  return { ...data, assets: InventoryRowSchema.array().parse(data.assets) };
}

describe('who may use the trading back office', () => {
  it('answers 404 to support staff, customers and the anonymous on every trading route', async () => {
    const tradingOnly = (answers: Awaited<ReturnType<typeof callEveryAdminRoute>>) =>
      answers.filter((answer) => answer.route.includes('/api/admin/trading'));
    const asSupport = tradingOnly(await callEveryAdminRoute(t.app, support.browser));
    expect(asSupport.map((answer) => answer.route).sort()).toEqual(
      [
        'GET /api/admin/trading/coins',
        'PUT /api/admin/trading/coins/1',
        'GET /api/admin/trading/currencies',
        'PUT /api/admin/trading/currencies/1',
        'GET /api/admin/trading/fee-plans',
        'PUT /api/admin/trading/fee-plans/1',
        'PUT /api/admin/trading/fee-schedule',
        'GET /api/admin/trading/inventory',
        'HEAD /api/admin/trading/coins',
        'HEAD /api/admin/trading/currencies',
        'HEAD /api/admin/trading/fee-plans',
        'HEAD /api/admin/trading/inventory',
      ].sort(),
    );
    expect(answersOtherThanNotFound(asSupport)).toEqual([]);
    const customer = await liveCustomer(t);
    expect(answersOtherThanNotFound(tradingOnly(await callEveryAdminRoute(t.app, customer.browser)))).toEqual(
      [],
    );
    expect(answersOtherThanNotFound(tradingOnly(await callEveryAdminRoute(t.app)))).toEqual([]);
  });

  it('lets finance and a superadmin read the coins as the table holds them', async () => {
    const btc = (await coins(superadmin)).find((row) => row.coin_id === 'btc');
    expect(btc).toEqual({
      coin_id: 'btc',
      asset: 'BTC',
      name: 'Bitcoin',
      active: true,
      primary: true,
      ask_spread: '0.5',
      bid_spread: '0.5',
      platform_fee: null,
      amount_min: '0.01000000',
      amount_max: '5.00000000',
      withdraw_fee: '0.00050000',
      disable_buy: false,
      disable_sell: false,
      disable_deposit: false,
      disable_withdraw: false,
      confirmations: expect.any(Number) as number,
      revision: expect.any(String) as string,
    });
    expect((await coins()).map((row) => row.coin_id)).toEqual(['btc', 'eth', 'ltc', 'bch', 'xrp']);
  });
});

describe('coin settings', () => {
  it('a platform fee edit is audited and caps the fee of the very next quote', async () => {
    const customer = await liveCustomer(t);
    await drive('20000');
    const before = await quote(customer);
    expect(before.fee_percent).toBe('1.39');

    const saved = await saveCoin('btc', { platform_fee: '0.25' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      message: ADMIN_TRADING_TEXTS.coinSaved,
      data: { coin_id: 'btc', platform_fee: '0.25' },
    });

    const after = await quote(customer);
    expect(after.fee_percent).toBe('0.25');
    const expected = instantQuote({
      side: 'buy',
      coin: 'BTC',
      fiat: 'GBP',
      price: after.price,
      feePercent: '0.25',
      quantity: 1_000_000n,
    });
    expect(parseAmount(after.fee, 'GBP')).toBe(expected.fee);
    expect(parseAmount(after.fee, 'GBP')).toBeLessThan(parseAmount(before.fee, 'GBP'));

    const audit = await auditRows(db(), 'coin', 'btc');
    expect(audit.at(-1)).toMatchObject({ action: 'trading.coin_updated', staff_id: finance.id });
    const last = audit.at(-1)!;
    expect(last.before).toMatchObject({ platform_fee: null });
    expect(last.after).toMatchObject({ platform_fee: '0.25' });

    // Empty is no cap: the schedule's fee again.
    const cleared = await saveCoin('btc', { platform_fee: '' });
    expect(cleared.json()).toMatchObject({ data: { platform_fee: null } });
    expect((await quote(customer)).fee_percent).toBe('1.39');
  });

  it('a spread edit prices the next quote at once, without waiting for the market’s cache', async () => {
    const customer = await liveCustomer(t);
    await drive('20000');
    expect(new Decimal((await quote(customer)).price).equals('20100')).toBe(true);
    expect((await saveCoin('btc', { ask_spread: '2' })).statusCode).toBe(200);
    expect(new Decimal((await quote(customer)).price).equals('20400')).toBe(true);
    expect((await saveCoin('btc', { ask_spread: '0.5' })).statusCode).toBe(200);
    expect(new Decimal((await quote(customer)).price).equals('20100')).toBe(true);
  });

  it('disabling buy refuses a new buy quote and still quotes a sell; trading terms say so', async () => {
    const customer = await liveCustomer(t);
    await paths.coinDeposit(customer, 'btc', '0.05');
    await drive('20000');
    expect((await saveCoin('btc', { disable_buy: true })).statusCode).toBe(200);

    const refused = await quoteResponse(customer);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toBe(TRADING_TEXTS.buyDisabled);
    expect((await quote(customer, { side: 'sell' })).side).toBe('sell');
    const terms = await customer.browser.get('/api/v1/trading/terms');
    expect(terms.json<{ data: { coins: unknown[] } }>().data.coins).toContainEqual(
      expect.objectContaining({ coin_id: 'btc', can_buy: false, can_sell: true }),
    );

    expect((await saveCoin('btc', { disable_buy: false })).statusCode).toBe(200);
    expect((await quote(customer)).side).toBe('buy');
  });

  it('a new minimum trade applies to the next quote', async () => {
    const customer = await liveCustomer(t);
    await drive('20000');
    expect((await saveCoin('btc', { amount_min: '0.02' })).statusCode).toBe(200);
    const small = await quoteResponse(customer, { quantity: '0.01' });
    expect(small.statusCode).toBe(422);
    expect(errorOf(small).errors).toEqual({ quantity: ['The smallest order is 0.02 BTC.'] });
    expect((await saveCoin('btc', { amount_min: '0.01' })).statusCode).toBe(200);
    expect((await quote(customer, { quantity: '0.01' })).quantity).toBe('0.01000000');
  });

  it('refuses bad values with a field error, and changes nothing', async () => {
    const before = await coin('xrp');
    const audited = await auditCount('coin', 'xrp');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ask_spread: '100' }, 'ask_spread', ADMIN_TRADING_TEXTS.percent],
      [{ bid_spread: '0.12345' }, 'bid_spread', ADMIN_TRADING_TEXTS.percent],
      [{ platform_fee: '-1' }, 'platform_fee', ADMIN_TRADING_TEXTS.optionalPercent],
      [{ amount_min: 'abc' }, 'amount_min', ADMIN_TRADING_TEXTS.amount],
      [{ amount_max: '0' }, 'amount_max', ADMIN_TRADING_TEXTS.amountPositive],
      [{ confirmations: 0 }, 'confirmations', ADMIN_TRADING_TEXTS.confirmations],
      [{ confirmations: 2.5 }, 'confirmations', ADMIN_TRADING_TEXTS.confirmations],
      [{ amount_min: '0.1234567' }, 'amount_min', 'Enter at most 6 decimal places for XRP.'],
      [{ amount_min: '300', amount_max: '200' }, 'amount_max', ADMIN_TRADING_TEXTS.amountMaxBelowMin],
    ];
    for (const [changes, field, message] of cases) {
      const response = await saveCoin('xrp', changes);
      expect(response.statusCode, `${JSON.stringify(changes)}: ${response.body}`).toBe(422);
      expect(errorOf(response).errors?.[field]).toEqual([message]);
    }
    const unknownField = await saveCoin('xrp', { ask_spread: '1', sort_order: 9 });
    expect(unknownField.statusCode).toBe(422);
    const unknownCoin = await finance.browser.put('/api/admin/trading/coins/doge', bodyOf(before));
    expect(unknownCoin.statusCode).toBe(422);
    expect(await coin('xrp')).toEqual(before);
    expect(await auditCount('coin', 'xrp')).toBe(audited);
  });

  it('refuses a withdrawal fee that is not below the smallest withdrawal, and changes nothing', async () => {
    const before = await coin('bch');
    const audited = await auditCount('coin', 'bch');
    for (const changes of [
      { amount_min: '0.01', withdraw_fee: '0.01' },
      { amount_min: '0.01', withdraw_fee: '0.02' },
    ]) {
      const response = await saveCoin('bch', changes);
      expect(response.statusCode, response.body).toBe(422);
      expect(errorOf(response).errors).toEqual({ withdraw_fee: [ADMIN_TRADING_TEXTS.feeNotBelowMin] });
    }
    expect(await coin('bch')).toEqual(before);
    expect(await auditCount('coin', 'bch')).toBe(audited);
    const below = await saveCoin('bch', { amount_min: '0.01', withdraw_fee: '0.00999999' });
    expect(below.statusCode, below.body).toBe(200);
    // Back as it was, from the settings as they are now.
    const { revision: _seen, ...settings } = bodyOf(before);
    expect((await saveCoin('bch', settings)).statusCode).toBe(200);
  });

  it('keeps the deposit and withdrawal switches and confirmations', async () => {
    const saved = await saveCoin('ltc', {
      disable_deposit: true,
      disable_withdraw: true,
      confirmations: 12,
      withdraw_fee: '0.002',
      primary: false,
      amount_max: '',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await coin('ltc')).toMatchObject({
      disable_deposit: true,
      disable_withdraw: true,
      confirmations: 12,
      withdraw_fee: '0.00200000',
      primary: false,
      amount_max: null,
    });
    const withdrawInfo = await (await liveCustomer(t)).browser.get('/api/v1/crypto/withdraw-info?coin=ltc');
    expect(withdrawInfo.json()).toMatchObject({ data: { fee: '0.00200000', withdraw_disabled: true } });
  });
});

describe('fiat currency withdrawal settings', () => {
  it('finance sets the minimum, fee and fee-free threshold; the customer’s form shows them at once', async () => {
    const list = await finance.browser.get('/api/admin/trading/currencies');
    expect(AdminCurrencySchema.array().parse(list.json<{ data: unknown }>().data)).toContainEqual({
      code: 'GBP',
      name: 'British Pound',
      symbol: '£',
      active: true,
      withdraw_min: '25.00',
      withdraw_fee: '5.00',
      withdraw_fee_free_from: '10000.00',
      revision: expect.any(String) as string,
    });
    const saved = await saveCurrency('GBP', {
      withdraw_min: '50',
      withdraw_fee: '2.5',
      withdraw_fee_free_from: '',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      message: ADMIN_TRADING_TEXTS.currencySaved,
      data: { withdraw_min: '50.00', withdraw_fee: '2.50', withdraw_fee_free_from: null },
    });
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    const info = await customer.browser.get('/api/v1/fiat/withdraw-info');
    expect(info.json()).toMatchObject({ data: { minimum: '50.00', fee: '2.50', fee_free_from: null } });
    const audit = await auditRows(db(), 'currency', 'GBP');
    expect(audit.at(-1)).toMatchObject({ action: 'trading.currency_updated', staff_id: finance.id });
    expect(audit.at(-1)!.before).toMatchObject({ withdraw_min: '25.00' });
  });

  it('refuses bad values and changes nothing', async () => {
    const audited = await auditCount('currency', 'EUR');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ withdraw_min: '1.234' }, 'withdraw_min', 'Enter at most 2 decimal places for EUR.'],
      [{ withdraw_fee: '-1' }, 'withdraw_fee', ADMIN_TRADING_TEXTS.amount],
      [{ withdraw_fee_free_from: '10' }, 'withdraw_fee_free_from', ADMIN_TRADING_TEXTS.feeFreeBelowMin],
      // A withdrawal of the minimum would leave nothing to pay out.
      [{ withdraw_fee: '25' }, 'withdraw_fee', ADMIN_TRADING_TEXTS.feeNotBelowMin],
      [{ withdraw_fee: '30' }, 'withdraw_fee', ADMIN_TRADING_TEXTS.feeNotBelowMin],
    ];
    for (const [changes, field, message] of cases) {
      const response = await saveCurrency('EUR', {
        withdraw_min: '25',
        withdraw_fee: '5',
        withdraw_fee_free_from: '10000',
        ...changes,
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(errorOf(response).errors?.[field]).toEqual([message]);
    }
    const list = await finance.browser.get('/api/admin/trading/currencies');
    expect(list.json<{ data: { code: string }[] }>().data).toContainEqual(
      expect.objectContaining({ code: 'EUR', withdraw_min: '25.00', withdraw_fee_free_from: '10000.00' }),
    );
    expect(await auditCount('currency', 'EUR')).toBe(audited);
  });
});

describe('two staff editing the same settings', () => {
  it('refuses a save made from settings someone else changed since, with their values, and keeps their change', async () => {
    // Finance and the superadmin open BTC's settings; finance switches withdrawals off first.
    const seen = await coin('btc');
    expect((await saveCoin('btc', { disable_withdraw: true })).statusCode).toBe(200);
    const audited = await auditCount('coin', 'btc');
    const stale = await superadmin.browser.put(
      '/api/admin/trading/coins/btc',
      bodyOf(seen, { ask_spread: '0.9' }),
    );
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).message).toBe(ADMIN_TRADING_TEXTS.changedMeanwhile);
    const current = AdminCoinSchema.parse((errorOf(stale).data as { current: unknown }).current);
    expect(current).toEqual(await coin('btc'));
    expect(current).toMatchObject({ disable_withdraw: true, ask_spread: seen.ask_spread });
    expect(await auditCount('coin', 'btc')).toBe(audited);
    // From the settings as they are now, the same change goes through.
    expect(
      (await superadmin.browser.put('/api/admin/trading/coins/btc', bodyOf(current, { ask_spread: '0.9' })))
        .statusCode,
    ).toBe(200);
    expect(await coin('btc')).toMatchObject({ disable_withdraw: true, ask_spread: '0.9' });
    await saveCoin('btc', { disable_withdraw: false, ask_spread: seen.ask_spread });

    const usd = await currency('USD');
    expect(
      (await saveCurrency('USD', { withdraw_min: '40', withdraw_fee: '4', withdraw_fee_free_from: null }))
        .statusCode,
    ).toBe(200);
    const staleCurrency = await finance.browser.put('/api/admin/trading/currencies/USD', {
      revision: usd.revision,
      withdraw_min: usd.withdraw_min,
      withdraw_fee: '1',
      withdraw_fee_free_from: usd.withdraw_fee_free_from,
    });
    expect(staleCurrency.statusCode).toBe(409);
    expect(await currency('USD')).toMatchObject({ withdraw_min: '40.00', withdraw_fee: '4.00' });

    const plans = await finance.browser.get('/api/admin/trading/fee-plans');
    const revision = plans.json<{ data: { schedule_revision: string } }>().data.schedule_revision;
    const columns = {
      instant_percents: ['1.39', '1.15', '0.90', '0.65'],
      trading_percents: ['0.75', '0.60', '0.45', '0.35'],
    };
    const first = await finance.browser.put('/api/admin/trading/fee-schedule', {
      ...columns,
      instant_percents: ['1.30', '1.15', '0.90', '0.65'],
      reason: 'First change',
      revision,
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await superadmin.browser.put('/api/admin/trading/fee-schedule', {
      ...columns,
      trading_percents: ['0.70', '0.60', '0.45', '0.35'],
      reason: 'Second change, from the old schedule',
      revision,
    });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).data).toMatchObject({
      current: {
        instant_percents: ['1.30', '1.15', '0.90', '0.65'],
        trading_percents: columns.trading_percents,
      },
    });
    const restored = await finance.browser.put('/api/admin/trading/fee-schedule', {
      ...columns,
      reason: 'Back to the default',
      revision: (errorOf(second).data as { current: { revision: string } }).current.revision,
    });
    expect(restored.statusCode, restored.body).toBe(200);
  });
});

describe('the house’s net position', () => {
  it('moves with a customer’s trade, valued in GBP at the current bid', async () => {
    await drive('20000');
    const before = await inventory();
    const btcBefore = before.assets.find((row) => row.asset === 'BTC')!;
    const gbpBefore = before.assets.find((row) => row.asset === 'GBP')!;

    const customer = await liveCustomer(t);
    await paths.bankDeposit(customer, '1000.00');
    const offer = await quote(customer);
    const executed = await customer.browser.post('/api/v1/order', { quote_id: offer.id });
    expect(executed.statusCode, executed.body).toBe(200);

    const after = await inventory();
    const btc = after.assets.find((row) => row.asset === 'BTC')!;
    const gbp = after.assets.find((row) => row.asset === 'GBP')!;
    expect(signedUnits(btc.balance, 'BTC')).toBe(signedUnits(btcBefore.balance, 'BTC') - 1_000_000n);
    expect(signedUnits(gbp.balance, 'GBP')).toBe(
      signedUnits(gbpBefore.balance, 'GBP') + parseAmount(offer.total_cost_wo_fee, 'GBP'),
    );
    // The bid at mid 20000 with a 0.5 % spread.
    expect(new Decimal(btc.gbp_rate!).equals('19900')).toBe(true);
    expect(btc.gbp_value).toBe(
      new Decimal(btc.balance).times('19900').toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2),
    );
    expect(gbp.gbp_rate).toBe('1');
    const ledger = await checkLedger(db(), [tradingDomainCheck]);
    expect(ledger.violations).toEqual([]);
  });
});

function signedUnits(text: string, asset: 'BTC' | 'GBP'): bigint {
  return text.startsWith('-') ? -parseAmount(text.slice(1), asset) : parseAmount(text, asset);
}
