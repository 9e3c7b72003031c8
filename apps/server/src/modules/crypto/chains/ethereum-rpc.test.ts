import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { balanceOf, expectCryptoLedgerToHold, liveCustomer, otherInstance } from '../crypto.test-kit.js';
import { startAnvil, type Anvil } from './anvil.test-kit.js';
import { createEthereumRpcClient } from './ethereum-rpc.js';
import { createJsonRpc } from './json-rpc.js';

/**
 * The Ethereum adapter against a real development node: anvil (Foundry's, from npm)
 * on loopback, with its deterministic funded accounts. A payment to the
 * customer's derived address is credited after the coin's confirmations.
 */

let node: Anvil;
let url: string;
let t: TestApp;

beforeAll(async () => {
  node = await startAnvil();
  url = node.url;
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t.close();
  await node.stop();
});

describe('the Ethereum JSON-RPC adapter on a local anvil node', () => {
  it('credits a real transfer after the configured confirmations, once, and ignores strangers', async () => {
    const call = createJsonRpc(url);
    const [funder] = await call<string[]>('eth_accounts');
    const customer = await liveCustomer(t);
    const wallet = await customer.get('/api/v1/user/generate-deposit-address/eth');
    const address = wallet.json<{ data: { address: string } }>().data.address;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const { service } = otherInstance(t, { chains: { ETH: createEthereumRpcClient(url) } });
    const txid = await call<string>('eth_sendTransaction', [
      { from: funder, to: address, value: `0x${1_250_000_000_000_000_000n.toString(16)}` },
    ]);
    await call('eth_sendTransaction', [
      { from: funder, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' },
    ]);
    // anvil mines each transaction into its own block at once: the payment has two confirmations.
    expect(await service.watchOnce(['ETH'])).toMatchObject({ seen: 1, credited: 0 });
    const pending = await customer.get('/api/v1/user/crypto-deposits?coin=eth');
    expect(pending.json<{ data: unknown[] }>().data).toEqual([
      expect.objectContaining({
        txid,
        status: 'pending',
        confirmations: 2,
        address,
        amount: '1.250000000000000000',
      }),
    ]);

    for (let block = 0; block < 3; block += 1) await call('evm_mine', []);
    expect(await service.watchOnce(['ETH'])).toMatchObject({ credited: 0 });
    await call('evm_mine', []);
    expect(await service.watchOnce(['ETH'])).toMatchObject({ credited: 1 });
    expect(await service.watchOnce(['ETH'])).toMatchObject({ seen: 0, credited: 0 });

    expect((await balanceOf(t, customer.id, 'ETH')).available).toBe(1_250_000_000_000_000_000n);
    const journals = await t.database.db
      .selectFrom('journals')
      .select('id')
      .where('idempotency_key', '=', `crypto_deposit:ETH:${txid}:0`)
      .execute();
    expect(journals).toHaveLength(1);
    await expectCryptoLedgerToHold(t.database.db);
  }, 60_000);
});
