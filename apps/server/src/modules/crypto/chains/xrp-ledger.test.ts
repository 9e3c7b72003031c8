import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminCryptoDepositSchema, BalancesSchema, pageSchema, type DepositWallet } from '@florin/contracts';
import { loadConfig } from '../../../config.js';
import { signedInStaff, type SignedInStaff } from '../../../test/admin.js';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { TEST_XRP_HOUSE_ADDRESS } from '../addresses/derive.js';
import { expectCryptoLedgerToHold, liveCustomer, otherInstance } from '../crypto.test-kit.js';
import { chainsFromConfig } from '../setup.js';
import { createSimulatedChain } from './simulated.js';
import { withdrawalWalletsFor } from './wallets.js';
import { createXrpLedgerClient, paymentTo, type XrpLedgerClient } from './xrp-ledger.js';
import {
  recordedPayment,
  startFakeRippled,
  streamed,
  streamedProposed,
  type FakeRippled,
} from './xrp-ledger.test-kit.js';

/**
 * The XRP Ledger adapter against a local server speaking rippled's websocket
 * API, replaying transactions recorded in rippled's JSON (API v2, what xrpl.js
 * asks for), then behind the deposit watcher on the test database.
 */

const HOUSE = TEST_XRP_HOUSE_ADDRESS;
/** The oldest ledger the local server holds. */
const EARLIEST = 90_000_000;
/** migration 0012: every coin, XRP too, waits for 6 confirmations (validated ledgers, its own included). */
const CONFIRMATIONS = 6;

let fake: FakeRippled;
const clients: XrpLedgerClient[] = [];

beforeAll(async () => {
  fake = await startFakeRippled({ earliest: EARLIEST });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await fake.close();
});

function newClient(): XrpLedgerClient {
  const client = createXrpLedgerClient(fake.url);
  clients.push(client);
  return client;
}

let hashes = 0;
function nextHash(): string {
  hashes += 1;
  return `${hashes.toString(16).toUpperCase().padStart(8, '0')}${'C0FFEE'.repeat(9)}A0`;
}

describe('reading a payment the XRP Ledger reports', () => {
  const payment = (values: Partial<Parameters<typeof recordedPayment>[0]> = {}) =>
    recordedPayment({
      hash: 'A'.repeat(64),
      ledger: 91_000_000,
      destination: HOUSE,
      tag: 1_000_017,
      drops: '25000000',
      ...values,
    });

  it('takes a validated, successful XRP payment to the house with its tag and the drops delivered', () => {
    expect(paymentTo(HOUSE, payment())).toEqual({
      txid: 'A'.repeat(64),
      output: 0,
      address: HOUSE,
      tag: '1000017',
      amount: 25_000_000n,
      ledgerIndex: 91_000_000,
    });
    expect(paymentTo(HOUSE, payment({ tag: undefined }))?.tag).toBeNull();
  });

  it('credits what a partial payment delivered, never what it named', () => {
    expect(paymentTo(HOUSE, payment({ drops: '1500000', deliverMax: '500000000' }))?.amount).toBe(1_500_000n);
  });

  it('ignores what is not yet final, failed, elsewhere or not XRP', () => {
    expect(paymentTo(HOUSE, { ...payment(), validated: false })).toBeNull();
    expect(paymentTo(HOUSE, streamedProposed(payment()))).toBeNull();
    expect(paymentTo(HOUSE, payment({ result: 'tecPATH_PARTIAL' }))).toBeNull();
    expect(paymentTo(HOUSE, payment({ destination: 'rfdGuuVnq9juqWDV4W3LoLiNcW8g2hAXhN' }))).toBeNull();
    const token = payment();
    token.meta.delivered_amount = {
      currency: 'USD',
      issuer: 'rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq',
      value: '25',
    };
    expect(paymentTo(HOUSE, token)).toBeNull();
    const trustSet = payment();
    trustSet.tx_json.TransactionType = 'TrustSet';
    expect(paymentTo(HOUSE, trustSet)).toBeNull();
  });
});

describe('the XRP Ledger adapter', () => {
  it('reads account_tx from the oldest ledger held, page by page, and keeps the cursor where payments are deep enough', async () => {
    const first = 90_000_100;
    fake.record(
      recordedPayment({
        hash: nextHash(),
        ledger: first,
        destination: HOUSE,
        tag: 1_000_018,
        drops: '1000000',
      }),
      recordedPayment({ hash: nextHash(), ledger: first + 1, destination: HOUSE, drops: '2000000' }),
      recordedPayment({
        hash: nextHash(),
        ledger: first + 1,
        destination: HOUSE,
        drops: '3000000',
        index: 9,
      }),
      recordedPayment({ hash: nextHash(), ledger: first + 8, destination: HOUSE, tag: 7, drops: '4000000' }),
      // Not yet in a validated ledger: the server does not list it.
      recordedPayment({ hash: nextHash(), ledger: first + 30, destination: HOUSE, tag: 7, drops: '5000000' }),
    );
    fake.validate(first + 10);
    fake.state.pageSize = 2;
    const client = newClient();
    try {
      const before = fake.requestsOf('account_tx').length;
      const scan = await client.scan({
        asset: 'XRP',
        cursor: null,
        addresses: new Set([HOUSE]),
        confirmations: CONFIRMATIONS,
      });
      expect(scan.height).toBe(first + 10);
      expect(scan.isComplete).toBe(true);
      expect(
        scan.transfers.map((transfer) => [transfer.amount, transfer.confirmations, transfer.tag]),
      ).toEqual([
        [1_000_000n, 11, '1000018'],
        [2_000_000n, 10, null],
        [3_000_000n, 10, null],
        [4_000_000n, 3, '7'],
      ]);
      // The last ledger whose payments all have their 6 confirmations: the next scan starts after it.
      expect(scan.cursor).toBe(String(first + 10 - CONFIRMATIONS + 1));
      const pages = fake.requestsOf('account_tx').slice(before);
      expect(pages).toHaveLength(2);
      expect(pages[0]).toMatchObject({
        account: HOUSE,
        ledger_index_min: -1,
        ledger_index_max: first + 10,
        forward: true,
        api_version: 2,
      });
      expect(pages[1]!.marker).toEqual({ ledger: first + 1, seq: 9 });
      // Then it follows the house account's stream.
      expect(fake.requestsOf('subscribe').at(-1)).toMatchObject({ accounts: [HOUSE] });
    } finally {
      fake.state.pageSize = 200;
    }
  });

  it('tells its listeners of a validated payment to the house on the stream, and of nothing else', async () => {
    const client = newClient();
    await client.scan({
      asset: 'XRP',
      cursor: String(fake.state.validated),
      addresses: new Set([HOUSE]),
      confirmations: 6,
    });
    let told = 0;
    let resolveTold: () => void = () => undefined;
    client.onActivity(() => {
      told += 1;
      resolveTold();
    });
    const told1 = new Promise<void>((resolve) => (resolveTold = resolve));
    const proposed = recordedPayment({
      hash: nextHash(),
      ledger: 90_000_200,
      destination: HOUSE,
      tag: 9,
      drops: '7',
    });
    fake.push(HOUSE, streamedProposed(proposed));
    fake.push(
      HOUSE,
      streamed(
        recordedPayment({
          hash: nextHash(),
          ledger: 90_000_200,
          destination: HOUSE,
          drops: '8',
          result: 'tecNO_DST_INSUF_XRP',
        }),
      ),
    );
    fake.push(HOUSE, streamed(proposed));
    await told1;
    expect(told).toBe(1);
  });

  it('refuses a cursor older than the server holds rather than skipping ledgers', async () => {
    const client = newClient();
    await expect(
      client.scan({
        asset: 'XRP',
        cursor: String(EARLIEST - 500),
        addresses: new Set([HOUSE]),
        confirmations: 6,
      }),
    ).rejects.toThrow(/Ledger indexes invalid/);
  });
});

describe('behind the deposit watcher', () => {
  let t: TestApp;
  let finance: SignedInStaff;
  beforeAll(async () => {
    t = await createTestApp();
    finance = await signedInStaff(t.app, t.database.db, 'finance');
  });
  afterAll(async () => {
    await t.close();
  });
  // Each test's instances stop following the stream, so the next test's payments wake only its own.
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  type Customer = Awaited<ReturnType<typeof liveCustomer>>;

  async function customerWithTag(): Promise<{ customer: Customer; tag: number }> {
    const customer = await liveCustomer(t);
    const response = await customer.get('/api/v1/user/generate-deposit-address/xrp');
    expect(response.statusCode, response.body).toBe(200);
    const wallet = response.json<{ data: DepositWallet }>().data;
    expect(wallet.address).toBe(HOUSE);
    return { customer, tag: Number(wallet.tag) };
  }

  async function xrpBalance(customer: Customer): Promise<string> {
    const response = await customer.get('/api/v1/balance');
    expect(response.statusCode, response.body).toBe(200);
    return BalancesSchema.parse(response.json()).data[0].balances.xrp?.available ?? '0.000000';
  }

  async function parkedForStaff(txid: string) {
    const response = await finance.browser.get('/api/admin/crypto/deposits?status=suspense');
    expect(response.statusCode, response.body).toBe(200);
    return pageSchema(AdminCryptoDepositSchema)
      .parse(response.json())
      .data.find((row) => row.txid === txid);
  }

  async function storedCursor() {
    return t.database.db
      .selectFrom('chain_cursors')
      .select(['cursor', 'height'])
      .where('asset', '=', 'XRP')
      .executeTakeFirst();
  }

  /** A new instance of the app's crypto service whose XRP is watched on the local server. */
  function instance() {
    const client = newClient();
    return { client, ...otherInstance(t, { chains: { XRP: client } }) };
  }

  it('watches XRP on the node XRP_NODE_URL names, a websocket address, and sends XRP from cold storage then', () => {
    const simulated = createSimulatedChain(t.database.db);
    const chains = chainsFromConfig(
      loadConfig({ XRP_NODE_URL: 'wss://xrpl.example:51233' }),
      simulated.client,
    );
    expect(chains.XRP.name).toBe('xrp-ledger');
    expect(chains.BTC).toBe(simulated.client);
    expect(withdrawalWalletsFor(chains, simulated, { isProduction: false }).XRP.kind).toBe('cold_storage');
    expect(chainsFromConfig(loadConfig({}), simulated.client).XRP).toBe(simulated.client);
    expect(() => loadConfig({ XRP_NODE_URL: 'https://xrpl.example:51234' })).toThrow(
      /XRP_NODE_URL: must be a wss:\/\/ \(or ws:\/\/\) address/,
    );
  });

  /** The next ledgers the tests record into, each test past the last. */
  let ledger = 91_000_000;

  it('credits a validated payment to its tag’s owner once, and only once it is validated', async () => {
    const { customer, tag } = await customerWithTag();
    const { service } = instance();
    ledger += 100;
    fake.validate(ledger);
    await service.watchOnce(['XRP']);

    const hash = nextHash();
    fake.record(recordedPayment({ hash, ledger: ledger + 1, destination: HOUSE, tag, drops: '25000000' }));
    // Not yet validated: nothing to see.
    expect(await service.watchOnce(['XRP'])).toMatchObject({ seen: 0, credited: 0 });
    fake.validate(ledger + 2);
    expect(await service.watchOnce(['XRP'])).toMatchObject({ seen: 1, credited: 0 });
    expect(await xrpBalance(customer)).toBe('0.000000');
    fake.validate(ledger + CONFIRMATIONS);
    expect(await service.watchOnce(['XRP'])).toMatchObject({ credited: 1 });
    expect(await service.watchOnce(['XRP'])).toMatchObject({ seen: 0, credited: 0 });
    expect(await xrpBalance(customer)).toBe('25.000000');
    const journals = await t.database.db
      .selectFrom('journals')
      .select('id')
      .where('idempotency_key', '=', `crypto_deposit:XRP:${hash}:0`)
      .execute();
    expect(journals).toHaveLength(1);
    expect(await storedCursor()).toEqual({ cursor: String(ledger + 1), height: ledger + CONFIRMATIONS });
    await expectCryptoLedgerToHold(t.database.db);
  });

  it('after a restart, resumes after the stored ledger and credits nothing twice', async () => {
    const { customer, tag } = await customerWithTag();
    const before = instance();
    ledger += 100;
    fake.validate(ledger);
    await before.service.watchOnce(['XRP']);
    const hash = nextHash();
    fake.record(recordedPayment({ hash, ledger: ledger + 1, destination: HOUSE, tag, drops: '3000000' }));
    fake.validate(ledger + CONFIRMATIONS);
    expect(await before.service.watchOnce(['XRP'])).toMatchObject({ credited: 1 });
    const stored = await storedCursor();
    await before.client.close();

    // A new process: a new adapter and service on the same database.
    const after = instance();
    const asked = fake.requestsOf('account_tx').length;
    const later = nextHash();
    fake.record(
      recordedPayment({ hash: later, ledger: ledger + 7, destination: HOUSE, tag, drops: '4000000' }),
    );
    fake.validate(ledger + 7 + CONFIRMATIONS - 1);
    expect(await after.service.watchOnce(['XRP'])).toMatchObject({ credited: 1 });
    expect(fake.requestsOf('account_tx')[asked]).toMatchObject({
      ledger_index_min: Number(stored!.cursor) + 1,
    });

    // Even a replay from far back (the cursor lost) books each payment once: the key is the tx hash.
    await t.database.db
      .updateTable('chain_cursors')
      .set({ cursor: String(ledger - 1) })
      .where('asset', '=', 'XRP')
      .execute();
    expect(await after.service.watchOnce(['XRP'])).toMatchObject({ credited: 0 });
    expect(await xrpBalance(customer)).toBe('7.000000');
    await expectCryptoLedgerToHold(t.database.db);
  });

  it('parks a payment with a missing or unknown tag for staff', async () => {
    const { service } = instance();
    ledger += 100;
    fake.validate(ledger);
    await service.watchOnce(['XRP']);
    const untagged = nextHash();
    const strangers = nextHash();
    fake.record(
      recordedPayment({ hash: untagged, ledger: ledger + 1, destination: HOUSE, drops: '40000000' }),
      recordedPayment({
        hash: strangers,
        ledger: ledger + 1,
        destination: HOUSE,
        tag: 1_000_008,
        drops: '7000000',
        index: 5,
      }),
    );
    fake.validate(ledger + CONFIRMATIONS);
    expect(await service.watchOnce(['XRP'])).toMatchObject({ suspense: 2, credited: 0 });
    expect(await parkedForStaff(untagged)).toMatchObject({
      status: 'suspense',
      tag: null,
      amount: '40.000000',
    });
    expect(await parkedForStaff(strangers)).toMatchObject({
      status: 'suspense',
      tag: '1000008',
      amount: '7.000000',
    });
    await expectCryptoLedgerToHold(t.database.db);
  });

  it('credits what a partial payment delivered', async () => {
    const { customer, tag } = await customerWithTag();
    const { service } = instance();
    ledger += 100;
    fake.validate(ledger);
    await service.watchOnce(['XRP']);
    fake.record(
      recordedPayment({
        hash: nextHash(),
        ledger: ledger + 1,
        destination: HOUSE,
        tag,
        drops: '1500000',
        deliverMax: '900000000',
      }),
    );
    fake.validate(ledger + CONFIRMATIONS);
    expect(await service.watchOnce(['XRP'])).toMatchObject({ credited: 1 });
    expect(await xrpBalance(customer)).toBe('1.500000');
    await expectCryptoLedgerToHold(t.database.db);
  });

  it('after the connection drops, catches up on what came meanwhile and follows the stream again', async () => {
    const { customer, tag } = await customerWithTag();
    const { client, service } = instance();
    ledger += 100;
    fake.validate(ledger);
    await service.watchOnce(['XRP']);
    const subscribed = fake.requestsOf('subscribe').length;
    // xrpl.js reconnects by itself; the service is told, as this listener after it.
    const told = new Promise<void>((resolve) => client.onActivity(resolve));
    fake.dropConnections();
    // Meanwhile a payment is validated, and no stream tells of it.
    fake.record(
      recordedPayment({ hash: nextHash(), ledger: ledger + 1, destination: HOUSE, tag, drops: '2000000' }),
    );
    fake.validate(ledger + CONFIRMATIONS);
    await told;
    await service.followedScans();
    expect(await xrpBalance(customer)).toBe('2.000000');
    expect(fake.requestsOf('subscribe')).toHaveLength(subscribed + 1);
    await expectCryptoLedgerToHold(t.database.db);
  });

  it('scans as soon as the stream reports a validated payment, without waiting for the interval', async () => {
    const { customer, tag } = await customerWithTag();
    const { client, service } = instance();
    ledger += 100;
    fake.validate(ledger);
    await service.watchOnce(['XRP']);
    const payment = recordedPayment({
      hash: nextHash(),
      ledger: ledger + 1,
      destination: HOUSE,
      tag,
      drops: '9000000',
    });
    fake.record(payment);
    fake.validate(ledger + CONFIRMATIONS);
    // The service listens first; this resolves once it has been told and started its scan.
    const told = new Promise<void>((resolve) => client.onActivity(resolve));
    fake.push(HOUSE, streamed(payment));
    await told;
    await service.followedScans();
    expect(await xrpBalance(customer)).toBe('9.000000');
    await expectCryptoLedgerToHold(t.database.db);
  });
});
