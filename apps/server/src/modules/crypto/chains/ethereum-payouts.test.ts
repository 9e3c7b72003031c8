import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInStaff, type SignedInStaff } from '../../../test/admin.js';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { payoutInstance, setPayoutLimits } from '../auto-payouts.test-kit.js';
import { expectCryptoLedgerToHold } from '../crypto.test-kit.js';
import { ADDRESS, withdrawalSteps } from '../withdrawals.test-kit.js';
import { startAnvil, type Anvil } from './anvil.test-kit.js';
import { createEthereumHotWallet } from './hot-wallets.js';
import { createJsonRpc } from './json-rpc.js';

/**
 * An ETH payout from a hot wallet on a real node: anvil's first account, signed by the node with
 * `eth_signTransaction` and broadcast raw, arrives at the customer's address and is confirmed.
 */

let node: Anvil;
let t: TestApp;
let finance: SignedInStaff;
const { db, fundedCustomer, queued, staffAction } = withdrawalSteps(() => t);

beforeAll(async () => {
  node = await startAnvil();
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
}, 60_000);
afterAll(async () => {
  await t.close();
  await node.stop();
});

describe('automatic ETH payouts on a local anvil node', () => {
  it('sends an approved withdrawal within the limits from the node account, once, and confirms it', async () => {
    const call = createJsonRpc(node.url);
    const [account] = await call<string[]>('eth_accounts');
    const wallet = createEthereumHotWallet({ nodeUrl: node.url, account: account as string });
    const service = payoutInstance(t, { ETH: wallet });
    // anvil's accounts hold 10,000 ETH; the ceiling is above it.
    await setPayoutLimits(finance, 'eth', {
      auto_payout: true,
      max_per_withdrawal: '2',
      daily_total: '5',
      hot_wallet_ceiling: '20000',
    });
    const customer = await fundedCustomer(2_000_000_000_000_000_000n, 'ETH');
    const withdrawal = await queued(customer, { coin: 'eth', wallet: ADDRESS.eth, amount: '1.5' });
    expect((await staffAction(finance, withdrawal.id, 'approve')).statusCode).toBe(200);
    const before = BigInt(await call<string>('eth_getBalance', [ADDRESS.eth, 'latest']));

    expect(await service.payOutOnce()).toMatchObject({ signed: 1, sent: 1 });
    const row = await db()
      .selectFrom('crypto_withdrawals')
      .selectAll()
      .where('id', '=', withdrawal.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
    const receipt = await call<{ status: string; to: string; transactionHash: string }>(
      'eth_getTransactionReceipt',
      [row.txid],
    );
    expect(receipt).toMatchObject({ status: '0x1', transactionHash: row.txid });
    const net = BigInt(row.amount) - BigInt(row.fee);
    const after = BigInt(await call<string>('eth_getBalance', [ADDRESS.eth, 'latest']));
    expect(after - before).toBe(net);

    // Broadcasting the stored transaction again spends nothing more: the node knows it.
    await wallet.broadcast({ txid: row.payout_txid as string, raw: row.payout_raw as string });
    expect(BigInt(await call<string>('eth_getBalance', [ADDRESS.eth, 'latest']))).toBe(after);

    expect(await service.payOutOnce()).toMatchObject({ confirmed: 0 });
    for (let block = 0; block < 5; block += 1) await call('evm_mine', []);
    expect(await service.payOutOnce()).toMatchObject({ confirmed: 1 });
    const confirmed = await db()
      .selectFrom('crypto_withdrawals')
      .select('status')
      .where('id', '=', withdrawal.id)
      .executeTakeFirstOrThrow();
    expect(confirmed.status).toBe('confirmed');
    await expectCryptoLedgerToHold(db());
  }, 60_000);
});
