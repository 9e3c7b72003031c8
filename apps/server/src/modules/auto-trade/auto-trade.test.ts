import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTO_TRADE_TEXTS, AutoTradeItemSchema, type AutoTradeItem } from '@florin/contracts';
import { checkLedger } from '../../ledger/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { sendDueMail } from '../../test/browser.js';
import { freshTotpCode, signedInStaff, switchOnAuthenticator, type SignedInStaff } from '../../test/admin.js';
import { mailSubjects } from '../compliance/customers.test-kit.js';
import { cryptoDomainCheck } from '../crypto/service.js';
import { fiatDomainCheck } from '../fiat/service.js';
import { errorOf, liveCustomer, type FiatCustomer } from '../fiat/fiat.test-kit.js';
import { tradingDomainCheck } from '../trading/service.js';
import { autoTradeDomainCheck } from './service.js';

let t: TestApp;
let finance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

type Customer = FiatCustomer & { secret: string | null };

/** A live customer; with `twoFactor`, with the authenticator app switched on through the API. */
async function customerWith(options: { twoFactor: boolean } = { twoFactor: true }): Promise<Customer> {
  const customer = await liveCustomer(t);
  if (!options.twoFactor) return { ...customer, secret: null };
  const secret = await switchOnAuthenticator(customer.browser);
  return { ...customer, secret };
}

function create(customer: Customer, body: Record<string, unknown>, userId = customer.id) {
  return customer.browser.post(`/api/v1/user/autobuy/${userId}`, body);
}

async function created(customer: Customer, type: 'buy' | 'sell', coinId: string): Promise<AutoTradeItem[]> {
  const response = await create(customer, {
    type,
    coin_id: coinId,
    passcode: freshTotpCode(customer.secret ?? ''),
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json<{ message: string }>().message).toBe(AUTO_TRADE_TEXTS.created);
  return AutoTradeItemSchema.array().parse(response.json<{ data: unknown }>().data);
}

async function listed(customer: Customer): Promise<AutoTradeItem[]> {
  const response = await customer.browser.get(`/api/v1/user/autobuy/${customer.id}`);
  expect(response.statusCode, response.body).toBe(200);
  return AutoTradeItemSchema.array().parse(response.json<{ data: unknown }>().data);
}

/** Moves the simulated mid of a pair through the dev route. */
async function drive(mid: string, symbol = 'BTC/GBP') {
  const response = await t.app.inject({ method: 'POST', url: '/dev/market/drive', payload: { symbol, mid } });
  expect(response.statusCode, response.body).toBe(200);
}

async function runJob(): Promise<{ converted: number; skipped: number }> {
  const response = await t.app.inject({ method: 'POST', url: '/dev/auto-trade/run' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { converted: number; skipped: number } }>().data;
}

let transactions = 0;

/** Finance records the customer's bank transfer by hand; it is credited (reference and name match). */
async function bankDeposit(customer: Customer, amount: string): Promise<string> {
  transactions += 1;
  const response = await finance.browser.post('/api/admin/fiat/deposits', {
    currency: 'GBP',
    amount,
    payer_name: 'MS G HOPPER',
    reference: customer.reference,
    bank_transaction_id: `AUTO-${Date.now()}-${transactions}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ data: { outcome: string; deposit: { id: string } } }>();
  expect(body.data.outcome).toBe('credited');
  return body.data.deposit.id;
}

async function balance(customer: Customer, asset: 'GBP' | 'BTC') {
  return (await t.ledger.getBalance(db(), { asset, kind: 'available', ownerUserId: String(customer.id) }))
    .available;
}

function expectRefusal(
  response: Awaited<ReturnType<typeof create>>,
  status: number,
  title: string,
  text: string,
) {
  expect(response.statusCode, response.body).toBe(status);
  const body = errorOf(response);
  expect(body.message).toBe(text);
  expect(body.data).toEqual({ title });
}

describe('setting up auto trade', () => {
  it('answers every refusal of spec 002 §5 with its title and text', async () => {
    const customer = await customerWith({ twoFactor: false });
    // An id beyond the column's range is refused by the contract, not by the database (a 500).
    expect((await customer.browser.delete('/api/v1/user/autobuy/3000000000')).statusCode).toBe(422);
    const noCoin = await create(customer, { type: 'buy', passcode: '123456' });
    expectRefusal(noCoin, 422, AUTO_TRADE_TEXTS.coinNotSelectedTitle, AUTO_TRADE_TEXTS.coinNotSelected);
    expect(errorOf(noCoin).errors).toEqual({ coin_id: [AUTO_TRADE_TEXTS.coinNotSelected] });
    expectRefusal(
      await create(customer, { type: 'buy', coin_id: '', passcode: '123456' }),
      422,
      AUTO_TRADE_TEXTS.coinNotSelectedTitle,
      AUTO_TRADE_TEXTS.coinNotSelected,
    );
    for (const coin of ['xrp', 'eth']) {
      expectRefusal(
        await create(customer, { type: 'sell', coin_id: coin, passcode: '123456' }),
        422,
        AUTO_TRADE_TEXTS.coinNotAllowedTitle,
        AUTO_TRADE_TEXTS.coinNotAllowed,
      );
    }
    expectRefusal(
      await create(customer, { type: 'buy', coin_id: 'doge', passcode: '123456' }),
      422,
      AUTO_TRADE_TEXTS.coinNotAllowedTitle,
      AUTO_TRADE_TEXTS.coinNotAllowed,
    );
    const noCode = await create(customer, { type: 'buy', coin_id: 'btc' });
    expectRefusal(noCode, 422, AUTO_TRADE_TEXTS.passcodeMissingTitle, AUTO_TRADE_TEXTS.passcodeMissing);
    expect(errorOf(noCode).errors).toEqual({ passcode: [AUTO_TRADE_TEXTS.passcodeMissing] });
    // Without any second factor set up there is no code to check: refused, with the way out.
    expectRefusal(
      await create(customer, { type: 'buy', coin_id: 'btc', passcode: '123456' }),
      422,
      AUTO_TRADE_TEXTS.secondFactorNeededTitle,
      AUTO_TRADE_TEXTS.secondFactorNeeded,
    );
    expect(await listed(customer)).toEqual([]);
  });

  it('takes the authenticator code; allows one buy and one sell, two at most; cancels', async () => {
    const customer = await customerWith();
    const wrong = await create(customer, { type: 'buy', coin_id: 'btc', passcode: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong).message).toBe(AUTO_TRADE_TEXTS.wrongPasscode);

    const afterBuy = await created(customer, 'buy', 'btc');
    expect(afterBuy).toEqual([
      expect.objectContaining({ type: 'buy', coin_id: 'btc', _coin_str: 'Bitcoin (BTC)' }),
    ]);
    expect(afterBuy[0]?._created_str).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    // Eth can be auto-bought, only not auto-sold; but a second buy is one too many.
    expectRefusal(
      await create(customer, { type: 'buy', coin_id: 'eth', passcode: '123456' }),
      409,
      AUTO_TRADE_TEXTS.sameTypeTitle,
      AUTO_TRADE_TEXTS.sameType,
    );
    const afterSell = await created(customer, 'sell', 'ltc');
    expect(afterSell.map((item) => [item.type, item.coin_id])).toEqual([
      ['buy', 'btc'],
      ['sell', 'ltc'],
    ]);
    for (const type of ['buy', 'sell']) {
      expectRefusal(
        await create(customer, { type, coin_id: 'bch', passcode: '123456' }),
        409,
        AUTO_TRADE_TEXTS.tooManyTitle,
        AUTO_TRADE_TEXTS.tooMany,
      );
    }

    // Another customer sees neither the list nor can cancel or create for this one.
    const stranger = await customerWith({ twoFactor: false });
    expect((await stranger.browser.get(`/api/v1/user/autobuy/${customer.id}`)).statusCode).toBe(404);
    expect((await create(stranger, { type: 'buy', coin_id: 'btc' }, customer.id)).statusCode).toBe(404);
    const sellId = afterSell[1]?.id;
    expect((await stranger.browser.delete(`/api/v1/user/autobuy/${sellId}`)).statusCode).toBe(404);

    const cancelled = await customer.browser.delete(`/api/v1/user/autobuy/${sellId}`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toEqual({ message: AUTO_TRADE_TEXTS.cancelled });
    expect((await customer.browser.delete(`/api/v1/user/autobuy/${sellId}`)).statusCode).toBe(404);
    expect((await listed(customer)).map((item) => item.type)).toEqual(['buy']);
  });
});

describe('converting deposits', () => {
  it('converts a bank deposit recorded after an auto buy into the coin once, as an e-mailed trade', async () => {
    await drive('20000');
    const customer = await customerWith();
    const before = await bankDeposit(customer, '10.00');
    await created(customer, 'buy', 'btc');
    // Deposits that arrived before the auto trade stay as they are.
    await runJob();
    expect(await balance(customer, 'GBP')).toBe(1_000n);
    expect(await balance(customer, 'BTC')).toBe(0n);

    const deposit = await bankDeposit(customer, '250.00');
    // Two instances' runs at once: the deposit converts once.
    const runs = await Promise.all([runJob(), runJob()]);
    expect(runs.reduce((sum, run) => sum + run.converted, 0)).toBeGreaterThanOrEqual(1);
    // The deposit became coin: the 10.00 from before stays, and of the 250 only what is less than the
    // smallest step of an instant quantity (0.0001 BTC, about 2.03 GBP with the fee at this price).
    const gbp = await balance(customer, 'GBP');
    expect(gbp).toBeGreaterThanOrEqual(1_000n);
    expect(gbp).toBeLessThan(1_000n + 203n);
    const btc = await balance(customer, 'BTC');
    expect(btc).toBeGreaterThan(0n);
    await sendDueMail(t.app, db());
    expect(await mailSubjects(db(), customer.email)).toContainEqual('You bought BTC — Florin');
    const trades = await db()
      .selectFrom('trades')
      .select(['id', 'side', 'asset', 'kind'])
      .where('user_id', '=', customer.id)
      .execute();
    expect(trades).toEqual([expect.objectContaining({ side: 'buy', asset: 'BTC', kind: 'instant' })]);
    const conversions = await db()
      .selectFrom('auto_trade_conversions')
      .select(['deposit_id', 'status', 'trade_id'])
      .where('user_id', '=', customer.id)
      .execute();
    expect(conversions).toEqual([{ deposit_id: deposit, status: 'converted', trade_id: trades[0]?.id }]);
    expect(conversions.map((row) => row.deposit_id)).not.toContain(before);

    const second = await runJob();
    expect(second).toEqual({ converted: 0, skipped: 0 });
    expect(await balance(customer, 'BTC')).toBe(btc);

    const result = await checkLedger(db(), [
      tradingDomainCheck,
      fiatDomainCheck,
      cryptoDomainCheck,
      autoTradeDomainCheck,
    ]);
    expect(result.violations).toEqual([]);
  });

  it('finishes a conversion a stopped run left pending, once', async () => {
    await drive('20000');
    const customer = await customerWith();
    const [autoBuy] = await created(customer, 'buy', 'btc');
    const deposit = await bankDeposit(customer, '250.00');
    // As a run that claimed the deposit and then stopped (a restart) leaves it.
    await db()
      .insertInto('auto_trade_conversions')
      .values({
        auto_trade_id: autoBuy?.id ?? 0,
        user_id: customer.id,
        source: 'fiat',
        deposit_id: deposit,
        status: 'pending',
        claimed_at: new Date(Date.now() - 5 * 60_000),
      })
      .execute();
    await runJob();
    await runJob();
    const rows = await db()
      .selectFrom('auto_trade_conversions')
      .select(['status', 'trade_id', 'reason'])
      .where('deposit_id', '=', deposit)
      .execute();
    const trades = await db().selectFrom('trades').select('id').where('user_id', '=', customer.id).execute();
    expect(trades).toHaveLength(1);
    expect(rows).toEqual([{ status: 'converted', trade_id: trades[0]?.id, reason: null }]);
    expect(await balance(customer, 'BTC')).toBeGreaterThan(0n);

    // The domain check notices a conversion pointing at a trade that is not its customer's.
    const stranger = await customerWith({ twoFactor: false });
    const violations = await db()
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('trades')
          .set({ user_id: stranger.id })
          .where('id', '=', trades[0]?.id ?? '')
          .execute();
        const found = await autoTradeDomainCheck.run(trx);
        await trx
          .updateTable('trades')
          .set({ user_id: customer.id })
          .where('id', '=', trades[0]?.id ?? '')
          .execute();
        return found;
      });
    expect(violations).toEqual([expect.stringMatching(/^auto trade conversion \d+ does not match trade /)]);
    expect(await autoTradeDomainCheck.run(db())).toEqual([]);
  });

  it('converts nothing once the auto buy is cancelled', async () => {
    await drive('20000');
    const customer = await customerWith();
    const [autoBuy] = await created(customer, 'buy', 'btc');
    const cancelled = await customer.browser.delete(`/api/v1/user/autobuy/${autoBuy?.id}`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const deposit = await bankDeposit(customer, '250.00');
    await runJob();
    expect(await balance(customer, 'GBP')).toBe(25_000n);
    expect(await balance(customer, 'BTC')).toBe(0n);
    const rows = await db()
      .selectFrom('auto_trade_conversions')
      .select('id')
      .where('deposit_id', '=', deposit)
      .execute();
    expect(rows).toEqual([]);
  });

  it('skips a deposit too small to buy the coin, saying why, and leaves the money', async () => {
    await drive('20000');
    const customer = await customerWith();
    await created(customer, 'buy', 'btc');
    const deposit = await bankDeposit(customer, '0.05');
    await runJob();
    const row = await db()
      .selectFrom('auto_trade_conversions')
      .select(['status', 'reason', 'trade_id'])
      .where('deposit_id', '=', deposit)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('skipped');
    expect(row.trade_id).toBeNull();
    expect(row.reason).toMatch(/smallest order|too small/);
    expect(await balance(customer, 'GBP')).toBe(5n);
    expect(await balance(customer, 'BTC')).toBe(0n);
  });

  it('converts a deposit of the coin into GBP for an auto sell', async () => {
    await drive('3000', 'LTC/GBP');
    const customer = await customerWith();
    await created(customer, 'sell', 'ltc');
    // A chain deposit to the customer's LTC address, credited by the crypto module once confirmed.
    const wallets = await customer.browser.get('/api/v1/user/wallet-addresses?coin=ltc');
    expect(wallets.statusCode, wallets.body).toBe(200);
    const address = wallets.json<{ data: { address: string }[] }>().data[0]?.address;
    const sent = await finance.browser.post('/api/admin/crypto/simulated-chain/deposit', {
      asset: 'LTC',
      address,
      amount: '2',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const mined = await finance.browser.post('/api/admin/crypto/simulated-chain/mine', {
      asset: 'LTC',
      blocks: 12,
    });
    expect(mined.statusCode, mined.body).toBe(200);
    const row = await db()
      .selectFrom('crypto_deposits')
      .select('id')
      .where('user_id', '=', customer.id)
      .where('status', '=', 'credited')
      .executeTakeFirstOrThrow();
    expect((await runJob()).converted).toBeGreaterThanOrEqual(1);
    const conversion = await db()
      .selectFrom('auto_trade_conversions')
      .select(['status', 'reason'])
      .where('source', '=', 'crypto')
      .where('deposit_id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(conversion).toEqual({ status: 'converted', reason: null });
    expect(
      (await t.ledger.getBalance(db(), { asset: 'LTC', kind: 'available', ownerUserId: String(customer.id) }))
        .available,
    ).toBe(0n);
    expect(await balance(customer, 'GBP')).toBeGreaterThan(500_000n);
    await sendDueMail(t.app, db());
    expect(await mailSubjects(db(), customer.email)).toContainEqual('You sold LTC — Florin');
    const result = await checkLedger(db(), [tradingDomainCheck, cryptoDomainCheck, autoTradeDomainCheck]);
    expect(result.violations).toEqual([]);
  });
});
