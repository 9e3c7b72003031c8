import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { balanceOf, expectCryptoLedgerToHold, liveCustomer, otherInstance } from '../crypto.test-kit.js';
import { createBitcoinRpcClient } from './bitcoin-rpc.js';

/**
 * The Bitcoin Core adapter against recorded JSON-RPC answers (the shapes of
 * Bitcoin Core 25's `getblockcount` and `listsinceblock` for a watch-only
 * descriptor wallet) served by a tiny local HTTP server.
 */

type Recorded = { height: number; transactions: Record<string, unknown>[]; lastblock: string };

let server: http.Server;
let url: string;
let recorded: Recorded = { height: 0, transactions: [], lastblock: '' };
const calls: { method: string; params: unknown[]; authorization?: string }[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const body = JSON.parse(text) as { id: number; method: string; params: unknown[] };
      calls.push({ method: body.method, params: body.params, authorization: request.headers.authorization });
      const result =
        body.method === 'getblockcount'
          ? recorded.height
          : body.method === 'listsinceblock'
            ? { transactions: recorded.transactions, removed: [], lastblock: recorded.lastblock }
            : undefined;
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify(
          result === undefined
            ? { result: null, error: { code: -32601, message: 'Method not found' }, id: body.id }
            : { result, error: null, id: body.id },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://florin:s3cret@127.0.0.1:${(server.address() as AddressInfo).port}/wallet/deposits`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** One `listsinceblock` entry as Bitcoin Core writes it. */
function entry(values: {
  address: string;
  amount: number;
  vout: number;
  confirmations: number;
  txid: string;
  category?: string;
}) {
  return {
    involvesWatchonly: true,
    address: values.address,
    parent_descs: [
      'wpkh([73c5da0a/84h/0h/0h]xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/0/*)#d4p4ss3v',
    ],
    category: values.category ?? 'receive',
    amount: values.amount,
    label: '',
    vout: values.vout,
    confirmations: values.confirmations,
    ...(values.confirmations > 0
      ? {
          blockhash: '00000000000000000002a7c4c1e48d76c5a37902165a270156b7a8d72728a054',
          blockheight: 820_000,
          blockindex: 7,
          blocktime: 1_700_000_000,
        }
      : {}),
    txid: values.txid,
    wtxid: values.txid,
    walletconflicts: [],
    time: 1_700_000_000,
    timereceived: 1_700_000_000,
    'bip125-replaceable': 'no',
  };
}

describe('the Bitcoin Core JSON-RPC adapter', () => {
  it('lists receipts to our addresses with their confirmations, leaving out conflicts, sends and strangers', async () => {
    const client = createBitcoinRpcClient(url);
    recorded = {
      height: 820_002,
      lastblock: '0000000000000000000150a1cbd7bfdef77e7e0ac4d1a3fbd1a2c3eab6d6a1f3',
      transactions: [
        entry({ address: 'bc1qours', amount: 0.1, vout: 1, confirmations: 3, txid: 'a'.repeat(64) }),
        entry({ address: 'bc1qours', amount: 0.00000001, vout: 4, confirmations: 0, txid: 'b'.repeat(64) }),
        entry({ address: 'bc1qours', amount: 2.5, vout: 0, confirmations: -2, txid: 'c'.repeat(64) }),
        entry({
          address: 'bc1qours',
          amount: -0.3,
          vout: 0,
          confirmations: 5,
          txid: 'd'.repeat(64),
          category: 'send',
        }),
        entry({ address: 'bc1qstranger', amount: 1, vout: 0, confirmations: 5, txid: 'e'.repeat(64) }),
      ],
    };
    const scan = await client.scan({
      asset: 'BTC',
      cursor: 'cafe',
      addresses: new Set(['bc1qours']),
      confirmations: 6,
    });
    expect(scan).toEqual({
      height: 820_002,
      cursor: recorded.lastblock,
      isComplete: true,
      transfers: [
        {
          txid: 'a'.repeat(64),
          output: 1,
          address: 'bc1qours',
          tag: null,
          amount: 10_000_000n,
          confirmations: 3,
        },
        { txid: 'b'.repeat(64), output: 4, address: 'bc1qours', tag: null, amount: 1n, confirmations: 0 },
      ],
    });
    const listed = calls.findLast((call) => call.method === 'listsinceblock')!;
    // From the cursor, one block deeper than the confirmations, watch-only, with removed transactions.
    expect(listed.params).toEqual(['cafe', 7, true, true]);
    expect(listed.authorization).toBe(`Basic ${Buffer.from('florin:s3cret').toString('base64')}`);
  });

  it('reports a node error as an error', async () => {
    const call = createBitcoinRpcClient(url.replace(/:\d+\//, ':1/'));
    await expect(
      call.scan({ asset: 'BTC', cursor: null, addresses: new Set(), confirmations: 6 }),
    ).rejects.toThrow(/did not answer/);
  });

  describe('behind the deposit watcher', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('credits a deposit once the node reports enough confirmations, and only once', async () => {
      const customer = await liveCustomer(t);
      const wallet = await customer.get('/api/v1/user/generate-deposit-address/btc');
      const address = wallet.json<{ data: { address: string } }>().data.address;
      const { service } = otherInstance(t, { chains: { BTC: createBitcoinRpcClient(url) } });
      const txid = 'f'.repeat(64);
      recorded = {
        height: 900,
        lastblock: 'block-895',
        transactions: [entry({ address, amount: 0.75, vout: 2, confirmations: 2, txid })],
      };
      expect(await service.watchOnce(['BTC'])).toMatchObject({ seen: 1, credited: 0 });
      const cursor = await t.database.db
        .selectFrom('chain_cursors')
        .selectAll()
        .where('asset', '=', 'BTC')
        .executeTakeFirstOrThrow();
      expect(cursor).toMatchObject({ cursor: 'block-895', height: 900 });

      recorded = {
        height: 904,
        lastblock: 'block-899',
        transactions: [entry({ address, amount: 0.75, vout: 2, confirmations: 6, txid })],
      };
      expect(await service.watchOnce(['BTC'])).toMatchObject({ credited: 1 });
      expect(calls.findLast((call) => call.method === 'listsinceblock')!.params[0]).toBe('block-895');
      expect(await service.watchOnce(['BTC'])).toMatchObject({ credited: 0 });
      expect((await balanceOf(t, customer.id, 'BTC')).available).toBe(75_000_000n);
      await expectCryptoLedgerToHold(t.database.db);
    });
  });
});
