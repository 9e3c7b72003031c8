import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminCryptoDepositSchema,
  CryptoDepositSchema,
  DepositWalletSchema,
  ErrorBodySchema,
  pageSchema,
  type DepositWallet,
} from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  answersOtherThanNotFound,
  callEveryAdminRoute,
  signedInStaff,
  type SignedInStaff,
} from '../../test/admin.js';
import { customerBrowser, mailSubjects } from '../compliance/customers.test-kit.js';
import { TEST_XRP_HOUSE_ADDRESS } from './addresses/derive.js';
import { balanceOf, expectCryptoLedgerToHold, liveCustomer, otherInstance } from './crypto.test-kit.js';

let t: TestApp;
let finance: SignedInStaff;
let support: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  support = await signedInStaff(t.app, t.database.db, 'support');
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
type Customer = Awaited<ReturnType<typeof liveCustomer>>;

async function walletOf(customer: Customer, coin: string): Promise<DepositWallet> {
  const response = await customer.get(`/api/v1/user/wallet-addresses?coin=${coin}`);
  expect(response.statusCode, response.body).toBe(200);
  const wallet = response.json<{ data: DepositWallet[] }>().data[0];
  if (!wallet) throw new Error(`no ${coin} wallet`);
  return DepositWalletSchema.parse(wallet);
}

async function deposit(body: Record<string, unknown>) {
  const response = await finance.browser.post('/api/admin/crypto/simulated-chain/deposit', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { txid: string } }>().data;
}

async function mine(asset: string, blocks: number) {
  const response = await finance.browser.post('/api/admin/crypto/simulated-chain/mine', { asset, blocks });
  expect(response.statusCode, response.body).toBe(200);
}

async function depositsOf(customer: Customer, query = '') {
  const response = await customer.get(`/api/v1/user/crypto-deposits${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return pageSchema(CryptoDepositSchema).parse(response.json()).data;
}

async function journalsWithKey(key: string) {
  return db().selectFrom('journals').select(['id', 'metadata']).where('idempotency_key', '=', key).execute();
}

describe('deposit addresses', () => {
  it('assigns BTC, LTC, BCH and ETH on first view, the same ones ever after; XRP waits for Generate Address', async () => {
    const customer = await liveCustomer(t);
    const first = await customer.get('/api/v1/user/wallet-addresses?coin=all');
    expect(first.statusCode, first.body).toBe(200);
    const { data, unavailable } = first.json<{ data: DepositWallet[]; unavailable: unknown[] }>();
    expect(unavailable).toEqual([]);
    expect(data.map((wallet) => wallet.coin_id)).toEqual(['btc', 'eth', 'ltc', 'bch']);
    const byCoin = Object.fromEntries(data.map((wallet) => [wallet.coin_id, wallet]));
    expect(byCoin.btc).toMatchObject({ tag: null, confirmations: 6 });
    expect(byCoin.btc?.address).toMatch(/^bc1q/);
    expect(byCoin.ltc?.address).toMatch(/^ltc1q/);
    expect(byCoin.bch?.address).toMatch(/^bitcoincash:q/);
    expect(byCoin.eth?.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const again = await customer.get('/api/v1/user/wallet-addresses');
    expect(again.json<{ data: DepositWallet[] }>().data).toEqual(data);

    const generated = await customer.get('/api/v1/user/generate-deposit-address/xrp');
    expect(generated.statusCode, generated.body).toBe(200);
    const xrp = generated.json<{ data: DepositWallet }>().data;
    expect(xrp).toMatchObject({ coin_id: 'xrp', address: TEST_XRP_HOUSE_ADDRESS });
    expect(xrp.tag).toMatch(/^\d{7,}$/);
    const twice = await customer.get('/api/v1/user/generate-deposit-address/xrp');
    expect(twice.json<{ data: DepositWallet }>().data).toEqual(xrp);
    expect(await walletOf(customer, 'xrp')).toEqual(xrp);
    const btc = await customer.get('/api/v1/user/generate-deposit-address/btc');
    expect(btc.json<{ data: DepositWallet }>().data).toEqual(byCoin.btc);
  });

  it('gives concurrent customers distinct indexes and addresses, and one customer one address however often they ask', async () => {
    const customers = await Promise.all(Array.from({ length: 24 }, () => liveCustomer(t)));
    const answers = await Promise.all(
      customers.flatMap((customer) => [
        customer.get('/api/v1/user/generate-deposit-address/btc'),
        customer.get('/api/v1/user/generate-deposit-address/btc'),
        customer.get('/api/v1/user/generate-deposit-address/xrp'),
        customer.get('/api/v1/user/wallet-addresses?coin=btc'),
      ]),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const rows = await db()
      .selectFrom('deposit_addresses')
      .select(['user_id', 'asset', 'derivation_index', 'address', 'tag'])
      .where(
        'user_id',
        'in',
        customers.map((customer) => customer.id),
      )
      .execute();
    const btc = rows.filter((row) => row.asset === 'BTC');
    const xrp = rows.filter((row) => row.asset === 'XRP');
    expect(btc).toHaveLength(customers.length);
    expect(new Set(btc.map((row) => row.derivation_index)).size).toBe(customers.length);
    expect(new Set(btc.map((row) => row.address)).size).toBe(customers.length);
    expect(new Set(xrp.map((row) => row.tag)).size).toBe(customers.length);
    for (const [index, customer] of customers.entries()) {
      const own = btc.find((row) => row.user_id === customer.id)!;
      expect(answers[index * 4]!.json<{ data: DepositWallet }>().data.address).toBe(own.address);
      expect(answers[index * 4 + 1]!.json<{ data: DepositWallet }>().data.address).toBe(own.address);
    }
    // No index was skipped or used twice across the whole table.
    const all = await db()
      .selectFrom('deposit_addresses')
      .select('derivation_index')
      .where('asset', '=', 'BTC')
      .execute();
    const indexes = all.map((row) => row.derivation_index).sort((a, b) => a - b);
    expect(indexes).toEqual(indexes.map((_, index) => index));
  });

  it('shows only the customer’s own addresses and deposits', async () => {
    const alice = await liveCustomer(t);
    const bob = await liveCustomer(t);
    const aliceBtc = await walletOf(alice, 'btc');
    const bobBtc = await walletOf(bob, 'btc');
    expect(aliceBtc.address).not.toBe(bobBtc.address);
    await deposit({ asset: 'BTC', address: aliceBtc.address, amount: '0.01' });
    expect(await depositsOf(alice)).toHaveLength(1);
    expect(await depositsOf(bob)).toEqual([]);
    const bobAll = (await bob.get('/api/v1/user/wallet-addresses')).json<{ data: DepositWallet[] }>().data;
    expect(bobAll.map((wallet) => wallet.address)).not.toContain(aliceBtc.address);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/user/wallet-addresses' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers the spec’s contact-support text when deposits are off or the account is not live', async () => {
    const pending = await liveCustomer(t, { live: false });
    const list = await pending.get('/api/v1/user/wallet-addresses?coin=btc');
    expect(list.json()).toEqual({
      data: [],
      unavailable: [
        {
          coin_id: 'btc',
          reason: 'account_not_live',
          message: 'Please contact support to have a unique wallet assigned to your account',
        },
      ],
    });
    const refused = await pending.get('/api/v1/user/generate-deposit-address/btc');
    expect(refused.statusCode).toBe(403);
    expect(ErrorBodySchema.parse(refused.json()).code).toBe('ACCOUNT_NOT_LIVE');

    await db().updateTable('coins').set({ disable_deposit: true }).where('coin_id', '=', 'ltc').execute();
    try {
      const customer = await liveCustomer(t);
      const all = (await customer.get('/api/v1/user/wallet-addresses')).json<{
        data: DepositWallet[];
        unavailable: { coin_id: string; reason: string; message: string }[];
      }>();
      expect(all.data.map((wallet) => wallet.coin_id)).not.toContain('ltc');
      expect(all.unavailable).toEqual([
        {
          coin_id: 'ltc',
          reason: 'deposits_disabled',
          message: 'Please contact support to have a unique wallet assigned to your account',
        },
      ]);
      const generate = await customer.get('/api/v1/user/generate-deposit-address/ltc');
      expect(generate.statusCode).toBe(409);
      expect(ErrorBodySchema.parse(generate.json())).toMatchObject({
        code: 'DEPOSIT_UNAVAILABLE',
        message: 'Please contact support to have a unique wallet assigned to your account',
      });
      expect((await customer.get('/api/v1/user/generate-deposit-address/doge')).statusCode).toBe(422);
    } finally {
      await db().updateTable('coins').set({ disable_deposit: false }).where('coin_id', '=', 'ltc').execute();
    }
  });
});

describe('deposits on the simulated chain', () => {
  it('is pending with its confirmations, then credited once after 6 blocks: balance, history, e-mail', async () => {
    const customer = await liveCustomer(t);
    const { address } = await walletOf(customer, 'btc');
    const { txid } = await deposit({ asset: 'BTC', address, amount: '0.25' });
    let [seen] = await depositsOf(customer, '?coin=btc&status=pending');
    expect(seen).toMatchObject({
      txid,
      status: 'pending',
      confirmations: 0,
      required_confirmations: 6,
      amount: '0.25000000',
    });
    await mine('BTC', 1);
    [seen] = await depositsOf(customer);
    expect(seen).toMatchObject({ status: 'pending', confirmations: 1 });
    await mine('BTC', 4);
    [seen] = await depositsOf(customer);
    expect(seen).toMatchObject({ status: 'pending', confirmations: 5 });
    expect((await balanceOf(t, customer.id, 'BTC')).available).toBe(0n);

    await mine('BTC', 1);
    [seen] = await depositsOf(customer);
    expect(seen).toMatchObject({ status: 'credited', status_label: 'Completed', confirmations: 6 });
    expect((await balanceOf(t, customer.id, 'BTC')).available).toBe(25_000_000n);
    await mine('BTC', 3);
    expect((await balanceOf(t, customer.id, 'BTC')).available).toBe(25_000_000n);
    expect(await journalsWithKey(`crypto_deposit:BTC:${txid}:0`)).toHaveLength(1);

    const history = await customer.get('/api/v1/user/transactions?coin=btc');
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json<{ data: unknown[] }>().data).toEqual([
      expect.objectContaining({
        transaction_type: 3,
        coin_symbol: 'BTC',
        amount: '0.25000000',
        direction: 'in',
      }),
    ]);
    const email = (await customer.user()).email;
    expect(await mailSubjects(db(), email)).toEqual([expect.stringMatching(/^Your deposit has arrived/)]);
    await expectCryptoLedgerToHold(db());
  });

  it('credits exactly once when several watchers run at the same time, with the GBP value from the market', async () => {
    const customer = await liveCustomer(t);
    const { address } = await walletOf(customer, 'eth');
    const { txid } = await deposit({ asset: 'ETH', address: address.toLowerCase(), amount: '1.5' });
    const a = otherInstance(t, { gbpRate: () => '2000.123' });
    const b = otherInstance(t, { gbpRate: () => '2000.123' });
    await a.simulated.mine('ETH', 6);
    const runs = await Promise.all([
      a.service.watchOnce(),
      b.service.watchOnce(),
      a.service.watchOnce(),
      b.service.watchOnce(),
    ]);
    expect(runs.reduce((sum, run) => sum + run.credited, 0)).toBe(1);
    expect((await balanceOf(t, customer.id, 'ETH')).available).toBe(1_500_000_000_000_000_000n);
    const journals = await journalsWithKey(`crypto_deposit:ETH:${txid}:0`);
    expect(journals).toHaveLength(1);
    expect(journals[0]!.metadata).toMatchObject({ gbp_value: '3000.18', to: 'customer' });
    expect([...a.moved, ...b.moved].flat()).toContain(customer.id);
    await expectCryptoLedgerToHold(db());
  });

  it('forgets a deposit reorganised away before it was credited', async () => {
    const customer = await liveCustomer(t);
    const { address } = await walletOf(customer, 'ltc');
    const { txid } = await deposit({ asset: 'LTC', address, amount: '3' });
    await mine('LTC', 2);
    expect(await depositsOf(customer)).toMatchObject([{ txid, status: 'pending', confirmations: 2 }]);
    const dropped = await finance.browser.post('/api/admin/crypto/simulated-chain/drop', {
      asset: 'LTC',
      txid,
    });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(await depositsOf(customer)).toEqual([]);
    await mine('LTC', 10);
    expect(await depositsOf(customer)).toEqual([]);
    expect((await balanceOf(t, customer.id, 'LTC')).available).toBe(0n);
    expect(await journalsWithKey(`crypto_deposit:LTC:${txid}:0`)).toEqual([]);
    const row = await db()
      .selectFrom('crypto_deposits')
      .select('status')
      .where('txid', '=', txid)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('dropped');
    await expectCryptoLedgerToHold(db());
  });

  it('drops a pending deposit only when no watcher has seen it since the scan began', async () => {
    const customer = await liveCustomer(t);
    const { address } = await walletOf(customer, 'bch');
    // Instance A scans a node that has not heard of the payment yet, and answers slowly.
    let answer: () => void = () => undefined;
    const slowAndBlind = otherInstance(t, {
      chains: {
        BCH: {
          name: 'lagging node',
          scan: async () => {
            await new Promise<void>((resolve) => (answer = resolve));
            return { height: 0, transfers: [], cursor: null, isComplete: true };
          },
        },
      },
    });
    const scanning = slowAndBlind.service.watchOnce(['BCH']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Meanwhile the payment arrives and instance B (the app) sees it.
    const { txid } = await deposit({ asset: 'BCH', address, amount: '0.5' });
    answer();
    expect((await scanning).dropped).toBe(0);
    expect(await depositsOf(customer)).toMatchObject([{ txid, status: 'pending' }]);
    await mine('BCH', 6);
    expect(await depositsOf(customer)).toMatchObject([{ txid, status: 'credited' }]);
    await expectCryptoLedgerToHold(db());
  });

  it('credits an XRP payment to the tag’s owner; an untagged one goes to suspense, where finance assigns or returns it', async () => {
    const owner = await liveCustomer(t);
    const { tag } = (await owner.get('/api/v1/user/generate-deposit-address/xrp')).json<{
      data: DepositWallet;
    }>().data;
    await deposit({ asset: 'XRP', address: TEST_XRP_HOUSE_ADDRESS, tag, amount: '25' });
    const untagged = await deposit({ asset: 'XRP', address: TEST_XRP_HOUSE_ADDRESS, amount: '40' });
    const unknownTag = await deposit({
      asset: 'XRP',
      address: TEST_XRP_HOUSE_ADDRESS,
      tag: '1000008',
      amount: '7',
    });
    await mine('XRP', 6);
    expect((await balanceOf(t, owner.id, 'XRP')).available).toBe(25_000_000n);
    const suspenseBefore = (await t.ledger.getBalance(db(), { asset: 'XRP', kind: 'suspense' })).posted;

    const list = await finance.browser.get('/api/admin/crypto/deposits?status=suspense');
    expect(list.statusCode, list.body).toBe(200);
    const suspense = pageSchema(AdminCryptoDepositSchema).parse(list.json()).data;
    const mine1 = suspense.find((row) => row.txid === untagged.txid)!;
    const mine2 = suspense.find((row) => row.txid === unknownTag.txid)!;
    expect(mine1).toMatchObject({ status: 'suspense', user_id: null, amount: '40.000000', tag: null });
    expect(mine2).toMatchObject({ status: 'suspense', tag: '1000008' });

    const assigned = await finance.browser.post(`/api/admin/crypto/deposits/${mine1.id}/assign`, {
      user_id: owner.id,
      reason: 'Customer sent proof of the payment without the tag',
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json<{ data: { status: string } }>().data.status).toBe('credited');
    expect((await balanceOf(t, owner.id, 'XRP')).available).toBe(65_000_000n);
    const again = await finance.browser.post(`/api/admin/crypto/deposits/${mine1.id}/assign`, {
      user_id: owner.id,
      reason: 'twice',
    });
    expect(again.statusCode).toBe(409);

    const returned = await finance.browser.post(`/api/admin/crypto/deposits/${mine2.id}/return`, {
      reason: 'Sent back to the sender',
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json<{ data: { status: string } }>().data.status).toBe('returned');
    const suspenseAfter = (await t.ledger.getBalance(db(), { asset: 'XRP', kind: 'suspense' })).posted;
    expect(suspenseAfter - suspenseBefore).toBe(-47_000_000n);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'staff_id'])
      .where('target_type', '=', 'crypto_deposit')
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'crypto.deposit_assigned', staff_id: finance.id },
        { action: 'crypto.deposit_returned', staff_id: finance.id },
      ]),
    );
    await expectCryptoLedgerToHold(db());
  });

  it('refuses a payment to a mistyped address on the simulated chain', async () => {
    const response = await finance.browser.post('/api/admin/crypto/simulated-chain/deposit', {
      asset: 'BTC',
      address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv',
      amount: '1',
    });
    expect(response.statusCode).toBe(422);
  });
});

describe('the dev routes the e2e fixtures use', () => {
  it('broadcast and mine without a staff sign-in (never registered in production)', async () => {
    const customer = await liveCustomer(t);
    const { address } = await walletOf(customer, 'btc');
    const sent = await t.app.inject({
      method: 'POST',
      url: '/dev/crypto/simulated-chain/deposit',
      payload: { asset: 'BTC', address, amount: '0.002' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const mined = await t.app.inject({
      method: 'POST',
      url: '/dev/crypto/simulated-chain/mine',
      payload: { asset: 'BTC', blocks: 6 },
    });
    expect(mined.statusCode, mined.body).toBe(200);
    expect((await balanceOf(t, customer.id, 'BTC')).available).toBe(200_000n);
    await expectCryptoLedgerToHold(db());
  });
});

describe('who may use the crypto back office', () => {
  it('answers 404 to other roles, customers and the anonymous on every crypto route', async () => {
    const cryptoOnly = (answers: Awaited<ReturnType<typeof callEveryAdminRoute>>) =>
      answers.filter((answer) => answer.route.includes('/api/admin/crypto'));
    const asSupport = cryptoOnly(await callEveryAdminRoute(t.app, support.browser));
    expect(asSupport.length).toBeGreaterThanOrEqual(6);
    expect(answersOtherThanNotFound(asSupport)).toEqual([]);
    const customer = await liveCustomer(t);
    const browser = await customerBrowser(t.app, db(), customer.id);
    expect(answersOtherThanNotFound(cryptoOnly(await callEveryAdminRoute(t.app, browser)))).toEqual([]);
    expect(answersOtherThanNotFound(cryptoOnly(await callEveryAdminRoute(t.app)))).toEqual([]);
  });
});
