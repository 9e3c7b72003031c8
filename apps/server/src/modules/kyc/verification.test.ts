import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, TermDepositCoinSchema, type User } from '@florin/contracts';
import { changedTables, databaseFingerprint } from '../../test/fingerprint.js';
import { signedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { bankDeposit, coinDeposit } from '../../test/deposits.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { askForBtcWithdrawal } from '../crypto/crypto.test-kit.js';
import { insertDocument } from '../compliance/customers.test-kit.js';
import {
  errorOf,
  liveCustomer,
  newIdempotencyKey,
  withdraw,
  type FiatCustomer,
} from '../fiat/fiat.test-kit.js';
import { createKycRepository } from './repository.js';
import { DETAILS, filePart, jpeg, multipart, pdf } from './kyc.test-kit.js';
import { createVerificationGate } from './verification.js';

/**
 * Spec 000 §6: a customer "with incomplete verification … cannot deposit,
 * withdraw, buy or sell". A live customer falls out of a complete
 * verification when a new address supersedes their proof of address or when
 * staff decline a document; every request that moves money then answers 403
 * VERIFICATION_INCOMPLETE and changes nothing, until the step is provided again.
 */

let t: TestApp;

/** Live prices, so a refused trade is refused for the verification, not for stale prices. */
async function livePrices(): Promise<void> {
  const driven = await t.app.inject({
    method: 'POST',
    url: '/dev/market/drive',
    payload: { symbol: 'BTC/GBP', mid: '30000' },
  });
  expect(driven.statusCode, driven.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  await livePrices();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

/** A live trading-platform customer with pounds, bitcoin and ether, verified as the wizard and staff leave them. */
async function fundedCustomer(): Promise<FiatCustomer> {
  const customer = await liveCustomer(t);
  await db().updateTable('users').set({ platform: 2 }).where('id', '=', customer.id).execute();
  await bankDeposit(t, customer, '1000');
  await coinDeposit(t, customer, 'btc', '1');
  await coinDeposit(t, customer, 'eth', '1');
  // Prices go stale after 10 seconds: the deposits took some of them.
  await livePrices();
  return customer;
}

async function userOf(customer: FiatCustomer): Promise<User> {
  const response = await customer.browser.get('/api/v1/user');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: User }>().data;
}

/** Every request that would move money, each with a body its contract accepts. */
async function moneyRequests(customer: FiatCustomer) {
  const coins = await customer.browser.get('/api/v1/term-deposit-coins');
  const option = TermDepositCoinSchema.array()
    .parse(coins.json<{ data: unknown }>().data)
    .find((coin) => coin.coin_id === 'eth')?.options[0];
  if (!option) throw new Error('no ether term deposit is offered');
  const keyed = { headers: { 'idempotency-key': newIdempotencyKey() } };
  const { browser } = customer;
  return {
    'instant buy quote': () =>
      browser.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', quantity: '0.01' }),
    'instant sell quote': () =>
      browser.post('/api/v1/quotes', { side: 'sell', coin_id: 'btc', quantity: '0.01' }),
    'market buy': () => browser.post('/api/v1/crypto/buy', { coin_id: 'btc', crypto_amount: '0.01' }, keyed),
    'market sell': () =>
      browser.post('/api/v1/crypto/sell', { coin_id: 'btc', crypto_amount: '0.01' }, keyed),
    'limit buy': () =>
      browser.post(
        '/api/v1/crypto/limit_order',
        { coin_id: 'btc', order_type: 2, side: 1, order_qty: '0.01', price: '1000' },
        keyed,
      ),
    'fiat withdrawal': () => withdraw(customer, { amount: '50' }),
    'crypto withdrawal': () => askForBtcWithdrawal(browser),
    'a deposit address': () => browser.get('/api/v1/user/generate-deposit-address/xrp'),
    'a term deposit': () =>
      browser.post('/api/v1/crypto/term-deposit', { coin: 'eth', amount: '0.5', day: option.id }, keyed),
    'a referral commission claim': () =>
      browser.post('/api/v1/user/affiliate-withdraw', { withdraw_amount: '1.10' }, keyed),
  };
}

/** Staff declined the passport on file: the customer is asked for a new one. */
async function declinePassport(customer: FiatCustomer): Promise<void> {
  await db()
    .updateTable('kyc_documents')
    .set({ status: 'superseded' })
    .where('user_id', '=', customer.id)
    .where('key', '=', 'passport')
    .execute();
  await insertDocument(db(), customer.id, {
    key: 'passport',
    status: 'declined',
    note: 'The photo is blurred.',
  });
}

async function expectEveryMoneyRequestRefused(customer: FiatCustomer): Promise<void> {
  const requests = await moneyRequests(customer);
  const before = await databaseFingerprint(db());
  const answers: Record<string, string> = {};
  for (const [name, send] of Object.entries(requests)) {
    const response = await send();
    answers[name] =
      `${response.statusCode} ${response.statusCode === 403 ? errorOf(response).code : response.body}`;
  }
  expect(answers).toEqual(
    Object.fromEntries(Object.keys(requests).map((name) => [name, '403 VERIFICATION_INCOMPLETE'])),
  );
  const addresses = await customer.browser.get('/api/v1/user/wallet-addresses?coin=all');
  expect(addresses.json()).toMatchObject({
    data: [],
    unavailable: expect.arrayContaining([
      {
        coin_id: 'btc',
        reason: 'verification_incomplete',
        message: ERROR_CODES.VERIFICATION_INCOMPLETE.message,
      },
    ]) as unknown,
  });
  expect(changedTables(before, await databaseFingerprint(db()))).toEqual([]);
  await expectLedgerToHold(db());
}

describe('money waits for a complete verification', () => {
  it('a new address stops deposits, withdrawals and trades until a new proof of address is uploaded', async () => {
    const customer = await fundedCustomer();
    const verified = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(verified.statusCode, verified.body).toBe(200);

    const user = await userOf(customer);
    const moved = await customer.browser.put('/api/v1/users', {
      address: '9 New Road',
      city: 'Manchester',
      zip: 'M1 1AE',
      country: user.country,
      phone: user.phone,
      birthdate: user.birthdate,
      nationality: user.nationality,
      tax_residence: user.tax_residence,
      tax_id: DETAILS.tax_id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await userOf(customer)).toMatchObject({ status: 1, is_proof_address_submitted: 0 });

    await expectEveryMoneyRequestRefused(customer);
    const refused = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(errorOf(refused).message).toBe(ERROR_CODES.VERIFICATION_INCOMPLETE.message);

    // The new proof goes to review; handed in, the step is submitted again (spec 000 §6 speaks of unsubmitted steps).
    const form = multipart([{ name: 'doc_type', value: 'proof_address' }, filePart(pdf(), 'new-bill.pdf')]);
    const uploaded = await customer.browser.post('/api/v1/user/id-proof', form.payload, {
      headers: form.headers,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const again = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(again.statusCode, again.body).toBe(200);
    const withdrawn = await askForBtcWithdrawal(customer.browser);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    await expectLedgerToHold(db());
  });

  it('a declined document stops them until it is uploaded again', async () => {
    const customer = await fundedCustomer();
    await declinePassport(customer);
    expect(await userOf(customer)).toMatchObject({
      status: 1,
      is_photo_id_submitted: 1,
      denied_documents: 1,
    });

    await expectEveryMoneyRequestRefused(customer);

    const form = multipart([{ name: 'doc_type', value: 'passport' }, filePart(await jpeg(), 'passport.jpg')]);
    const uploaded = await customer.browser.post('/api/v1/user/id-proof', form.payload, {
      headers: form.headers,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(await userOf(customer)).toMatchObject({ denied_documents: 0 });
    const again = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a terminated account still withdraws what it holds, whatever its verification', async () => {
    const customer = await fundedCustomer();
    await declinePassport(customer);
    const compliance = await signedInStaff(t.app, db(), 'compliance');
    const notice = await compliance.browser.post(`/api/admin/customers/${customer.id}/terminate`, {
      reason: 'The passport was forged.',
    });
    expect(notice.statusCode, notice.body).toBe(200);
    // The month's notice has run out.
    await sql`UPDATE users SET termination_notice_at = termination_notice_at - interval '32 days',
      terminated_at = terminated_at - interval '32 days', access_ends_at = access_ends_at - interval '32 days'
      WHERE id = ${customer.id}`.execute(db());
    const withdrawn = await askForBtcWithdrawal(customer.browser);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const bought = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(errorOf(bought).code).toBe('ACCOUNT_TERMINATED');
    await expectLedgerToHold(db());
  });

  it('a customer who is not live still hears that first', async () => {
    const customer = await liveCustomer(t, { live: false });
    const response = await customer.browser.post('/api/v1/quotes', {
      side: 'buy',
      coin_id: 'btc',
      quantity: '0.01',
    });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).code).toBe('ACCOUNT_NOT_LIVE');
  });
});

describe('the fill engine’s reading of many customers at once', () => {
  it('finds, among customers read together, exactly those a one-by-one reading refuses', async () => {
    const gate = createVerificationGate({ db: db(), repository: createKycRepository(db()) });
    const complete = await liveCustomer(t);
    const lapsed = await liveCustomer(t);
    await declinePassport(lapsed);
    const company = await liveCustomer(t, { accountType: 'Corporate' });
    const companyWithLapsedDirector = await liveCustomer(t, { accountType: 'Corporate' });
    const declined = await db()
      .updateTable('kyc_documents')
      .set({ status: 'declined', disapprove_note: 'The bill is older than three months.' })
      .where('user_id', '=', companyWithLapsedDirector.id)
      .where('director_id', 'is not', null)
      .where('key', '=', 'proof_address')
      .executeTakeFirstOrThrow();
    expect(declined.numUpdatedRows).toBe(1n);
    const unfinished = await liveCustomer(t, { verification: false });
    const customers = [complete, lapsed, company, companyWithLapsedDirector, unfinished];

    const refused = await gate.refusedAmong([...customers.map((customer) => customer.id), 2_000_000_000]);
    expect(refused).toEqual(new Set([lapsed.id, companyWithLapsedDirector.id, unfinished.id]));
    for (const customer of customers) {
      const alone = await gate.assertComplete(customer.id).then(
        () => 'complete',
        (error: { code?: string }) => error.code,
      );
      expect([customer.id, alone]).toEqual([
        customer.id,
        refused.has(customer.id) ? 'VERIFICATION_INCOMPLETE' : 'complete',
      ]);
    }
  });
});
