import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminCryptoDepositSchema,
  CRYPTO_DEPOSIT_TRANSITIONS,
  CRYPTO_TEXTS,
  CryptoDepositSchema,
  DepositWalletSchema,
  ErrorBodySchema,
  pageSchema,
} from '@florin/contracts';
import { statesThatMayBecome, transition } from '../../lifecycle.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { TEST_XRP_HOUSE_ADDRESS } from './addresses/derive.js';
import { balanceOf, expectCryptoLedgerToHold, liveCustomer } from './crypto.test-kit.js';

/**
 * The crypto deposit lifecycle (CRYPTO_DEPOSIT_TRANSITIONS) is what the watcher and staff's suspense
 * decisions go by: a move the map does not declare is refused, and the coins stay where they are.
 */

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
type Customer = Awaited<ReturnType<typeof liveCustomer>>;

async function pay(body: Record<string, unknown>): Promise<string> {
  const response = await finance.browser.post('/api/admin/crypto/simulated-chain/deposit', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { txid: string } }>().data.txid;
}

async function mine(asset: string, blocks: number) {
  const response = await finance.browser.post('/api/admin/crypto/simulated-chain/mine', { asset, blocks });
  expect(response.statusCode, response.body).toBe(200);
}

async function depositsOf(customer: Customer) {
  const response = await customer.get('/api/v1/user/crypto-deposits');
  return pageSchema(CryptoDepositSchema).parse(response.json()).data;
}

describe('the crypto deposit lifecycle', () => {
  it('drops only a pending deposit, brings back only a dropped one, and lets nothing leave credited or returned', () => {
    expect(statesThatMayBecome(CRYPTO_DEPOSIT_TRANSITIONS, 'dropped')).toEqual(['pending']);
    expect(statesThatMayBecome(CRYPTO_DEPOSIT_TRANSITIONS, 'pending')).toEqual(['dropped']);
    expect(statesThatMayBecome(CRYPTO_DEPOSIT_TRANSITIONS, 'returned')).toEqual(['suspense']);
    expect(() => transition(CRYPTO_DEPOSIT_TRANSITIONS, 'returned', 'credited')).toThrow(
      expect.objectContaining({ code: 'CONFLICT', status: 409 }),
    );
    expect(CRYPTO_DEPOSIT_TRANSITIONS.credited).toEqual([]);
  });

  it('refuses to drop a credited deposit: it stays credited, paid once', async () => {
    const customer = await liveCustomer(t);
    const wallets = await customer.get('/api/v1/user/wallet-addresses?coin=btc');
    const { address } = DepositWalletSchema.parse(wallets.json<{ data: unknown[] }>().data[0]);
    const txid = await pay({ asset: 'BTC', address, amount: '0.25' });
    await mine('BTC', 6);
    expect(await depositsOf(customer)).toMatchObject([{ txid, status: 'credited' }]);

    const dropped = await finance.browser.post('/api/admin/crypto/simulated-chain/drop', {
      asset: 'BTC',
      txid,
    });
    expect(dropped.statusCode).toBe(409);
    expect(ErrorBodySchema.parse(dropped.json()).message).toBe(CRYPTO_TEXTS.notDroppable);
    await mine('BTC', 1);
    expect(await depositsOf(customer)).toMatchObject([{ txid, status: 'credited' }]);
    expect((await balanceOf(t, customer.id, 'BTC')).available).toBe(25_000_000n);
    await expectCryptoLedgerToHold(db());
  });

  it('refuses to assign a deposit returned from suspense: the coins are not paid out twice', async () => {
    const customer = await liveCustomer(t);
    const txid = await pay({ asset: 'XRP', address: TEST_XRP_HOUSE_ADDRESS, amount: '12' });
    await mine('XRP', 6);
    const list = await finance.browser.get('/api/admin/crypto/deposits?status=suspense');
    const inSuspense = pageSchema(AdminCryptoDepositSchema)
      .parse(list.json())
      .data.find((row) => row.txid === txid);
    if (!inSuspense) throw new Error('the untagged payment is not in suspense');

    const returned = await finance.browser.post(`/api/admin/crypto/deposits/${inSuspense.id}/return`, {
      reason: 'Sent back to the sender',
    });
    expect(returned.statusCode, returned.body).toBe(200);
    const assigned = await finance.browser.post(`/api/admin/crypto/deposits/${inSuspense.id}/assign`, {
      user_id: customer.id,
      reason: 'Claimed after it was returned',
    });
    expect(assigned.statusCode).toBe(409);
    expect(ErrorBodySchema.parse(assigned.json())).toMatchObject({
      code: 'CONFLICT',
      message: CRYPTO_TEXTS.depositNotInSuspense,
    });
    const after = await finance.browser.get('/api/admin/crypto/deposits?status=returned');
    expect(pageSchema(AdminCryptoDepositSchema).parse(after.json()).data).toContainEqual(
      expect.objectContaining({ id: inSuspense.id, status: 'returned', user_id: null }),
    );
    expect((await balanceOf(t, customer.id, 'XRP')).available).toBe(0n);
    await expectCryptoLedgerToHold(db());
  });
});
