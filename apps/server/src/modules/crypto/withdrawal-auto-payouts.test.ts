import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CryptoActivitySchema, pageSchema } from '@florin/contracts';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import type { FiatCustomer as Customer } from '../fiat/fiat.test-kit.js';
import {
  payoutInstance,
  setPayoutLimits,
  startRecordedNode,
  type RpcAnswer,
  type RpcCall,
} from './auto-payouts.test-kit.js';
import { createBitcoinHotWallet } from './chains/hot-wallets.js';
import { expectCryptoLedgerToHold } from './crypto.test-kit.js';
import { PAID_AUTOMATICALLY } from './withdrawals.js';
import { ADDRESS, withdrawalSteps } from './withdrawals.test-kit.js';

/**
 * The payout job against Bitcoin Core's wallet RPC, played by a local server with answers recorded
 * in the shapes Bitcoin Core 25 gives them (walletcreatefundedpsbt, walletprocesspsbt, finalizepsbt,
 * decoderawtransaction, sendrawtransaction, gettransaction, getbalance).
 */

/** The nth payout the node funds: its PSBTs, raw transaction and txid. */
function payout(n: number) {
  const digits = n.toString(16).padStart(4, '0');
  const txid = `${digits}c4e1f3a9b2d5e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b7`.slice(0, 64);
  return {
    psbt: `cHNidP8BAHECAAAAAf${digits}AAAAAAD9////AoCWmAAAAAAAFgAU6PZ0vdxZRfbk9x1k2Vu9`,
    hex: `02000000000101${digits}7f3e2d1c0b0a09080706050403020100ffeeddccbbaa99887766554433221100000000fdffffff0270f1c80100000000160014e8df018c7e326cc253faac7e46cdc51e68542c42`,
    txid,
  };
}

const node = {
  funded: 0,
  balance: 3,
  confirmations: new Map<string, number>(),
  dropNextBroadcast: false,
  broadcast: new Set<string>(),
};

function answer(call: RpcCall): RpcAnswer {
  const [first] = call.params as [string];
  switch (call.method) {
    case 'getbalance':
      return { result: node.balance };
    case 'walletcreatefundedpsbt':
      node.funded += 1;
      return { result: { psbt: payout(node.funded).psbt, fee: 0.00000141, changepos: 1 } };
    case 'walletprocesspsbt':
      return { result: { psbt: `${first}AQhrAkcwRAIg`, complete: true } };
    case 'finalizepsbt': {
      const n = Number.parseInt(first.slice(18, 22), 16);
      return { result: { hex: payout(n).hex, complete: true } };
    }
    case 'decoderawtransaction': {
      const n = Number.parseInt(first.slice(14, 18), 16);
      const { txid } = payout(n);
      return {
        result: {
          txid,
          hash: txid,
          version: 2,
          size: 222,
          vsize: 141,
          weight: 561,
          locktime: 0,
          vin: [],
          vout: [],
        },
      };
    }
    case 'sendrawtransaction': {
      const n = Number.parseInt(first.slice(14, 18), 16);
      node.broadcast.add(payout(n).txid);
      if (node.dropNextBroadcast) {
        // The node took the transaction into its mempool; the answer never reached Florin.
        node.dropNextBroadcast = false;
        return 'drop';
      }
      return { result: payout(n).txid };
    }
    case 'gettransaction': {
      const confirmations = node.confirmations.get(first);
      if (!node.broadcast.has(first))
        return { error: { code: -5, message: 'Invalid or non-wallet transaction id' } };
      return {
        result: {
          amount: -0.2995,
          fee: -0.00000141,
          confirmations: confirmations ?? 0,
          trusted: true,
          txid: first,
          wtxid: first,
          walletconflicts: [],
          time: 1_700_000_000,
          timereceived: 1_700_000_000,
          'bip125-replaceable': 'no',
          details: [],
          hex: '',
        },
      };
    }
    default:
      return { error: { code: -32601, message: 'Method not found' } };
  }
}

let t: TestApp;
let finance: SignedInStaff;
let recorded: Awaited<ReturnType<typeof startRecordedNode>>;
let service: ReturnType<typeof payoutInstance>;
const { db, fundedCustomer, queued, staffAction } = withdrawalSteps(() => t);

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  recorded = await startRecordedNode(answer);
  service = payoutInstance(t, { BTC: createBitcoinHotWallet(recorded.url, 'BTC') });
  await setPayoutLimits(finance, 'btc', {
    auto_payout: true,
    max_per_withdrawal: '0.5',
    daily_total: '2',
    hot_wallet_ceiling: '10',
  });
}, 60_000);
afterAll(async () => {
  await recorded.close();
  await t.close();
});

async function approved(customer: Customer, amount: string) {
  const withdrawal = await queued(customer, { amount });
  const approval = await staffAction(finance, withdrawal.id, 'approve');
  expect(approval.statusCode, approval.body).toBe(200);
  return withdrawal;
}

async function statusSeenBy(customer: Customer, id: string) {
  const activity = await customer.browser.get('/api/v1/crypto/transactions?coin=btc');
  const items = pageSchema(CryptoActivitySchema).parse(activity.json()).data;
  return items.find((item) => item.id === `withdrawal:${id}`);
}

const row = (id: string) =>
  db().selectFrom('crypto_withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const callsOf = (method: string) => recorded.calls.filter((call) => call.method === method);

describe('the automatic payout limits in the back office', () => {
  it('are bounded, need all three to turn on, and are audited', async () => {
    const put = (payout: Record<string, unknown>) =>
      finance.browser.put('/api/admin/crypto/withdrawal-settings/ltc', {
        daily_limit: '100',
        auto_approve_whitelisted: false,
        payout,
      });
    const none = { max_per_withdrawal: null, daily_total: null, hot_wallet_ceiling: null };
    const halfOn = await put({ ...none, auto_payout: true, daily_total: '5' });
    expect(halfOn.statusCode).toBe(422);
    const tooFine = await put({ ...none, auto_payout: false, max_per_withdrawal: '0.123456789' });
    expect(tooFine.statusCode).toBe(422);
    expect(tooFine.json<{ errors: Record<string, string[]> }>().errors['payout.max_per_withdrawal']).toEqual([
      'Enter the limit with at most the decimals LTC has.',
    ]);

    const saved = await put({
      auto_payout: true,
      max_per_withdrawal: '1',
      daily_total: '5',
      hot_wallet_ceiling: '20',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const payout = {
      hot_wallet: false,
      auto_payout: true,
      max_per_withdrawal: '1.00000000',
      daily_total: '5.00000000',
      hot_wallet_ceiling: '20.00000000',
    };
    expect(saved.json<{ data: { payout: unknown } }>().data.payout).toEqual(payout);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['staff_id', 'after'])
      .where('action', '=', 'crypto.withdrawal_settings_updated')
      .where('target_id', '=', 'ltc')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.staff_id).toBe(finance.id);
    expect(audit[0]?.after).toMatchObject({ payout });
  });
});

describe('automatic crypto payouts through Bitcoin Core', () => {
  it('sends a withdrawal within the limits through the wallet RPC and marks it confirmed', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await approved(customer, '0.3');
    expect(await service.payOutOnce()).toMatchObject({ signed: 1, sent: 1, confirmed: 0 });

    const { txid } = payout(node.funded);
    expect(callsOf('walletcreatefundedpsbt').at(-1)?.params).toEqual([
      [],
      [{ [ADDRESS.btc]: '0.29950000' }],
      0,
      { lockUnspents: true, replaceable: true },
    ]);
    expect(callsOf('sendrawtransaction').at(-1)?.params).toEqual([payout(node.funded).hex]);
    expect(await row(withdrawal.id)).toMatchObject({
      status: 'sent',
      txid,
      payout_txid: txid,
      sent_by: null,
    });
    expect(await statusSeenBy(customer, withdrawal.id)).toMatchObject({ status: 'sent', txid });

    // BTC needs six confirmations, as its deposits do.
    node.confirmations.set(txid, 2);
    expect(await service.payOutOnce()).toMatchObject({ confirmed: 0 });
    expect((await row(withdrawal.id)).status).toBe('sent');
    node.confirmations.set(txid, 6);
    expect(await service.payOutOnce()).toMatchObject({ confirmed: 1 });
    expect(await row(withdrawal.id)).toMatchObject({ status: 'confirmed', confirmed_by: null });
    await expectCryptoLedgerToHold(db());
  });

  it('leaves a withdrawal above the limits to staff, who send it from cold storage as before', async () => {
    const customer = await fundedCustomer();
    const funded = node.funded;
    const withdrawal = await approved(customer, '0.6');
    expect(await service.payOutOnce()).toMatchObject({ signed: 0, sent: 0, leftToStaff: 1 });
    expect(node.funded).toBe(funded);
    expect(await row(withdrawal.id)).toMatchObject({
      status: 'approved',
      payout_by_staff: true,
      payout_raw: null,
    });
    expect(await statusSeenBy(customer, withdrawal.id)).toMatchObject({ status: 'approved' });

    // Raised limits later do not send it: staff may be signing it offline already.
    await setPayoutLimits(finance, 'btc', {
      auto_payout: true,
      max_per_withdrawal: '1',
      daily_total: '2',
      hot_wallet_ceiling: '10',
    });
    expect(await service.payOutOnce()).toMatchObject({ signed: 0 });
    const sent = await staffAction(finance, withdrawal.id, 'send', { txid: 'c0ffee'.padEnd(64, '0') });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await row(withdrawal.id)).toMatchObject({ status: 'sent', sent_by: finance.id });
  });

  it('waits while the hot wallet holds more than its ceiling, and sends once it is back under', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await approved(customer, '0.1');
    node.balance = 11;
    expect(await service.payOutOnce()).toMatchObject({ signed: 0, leftToStaff: 0 });
    expect(await row(withdrawal.id)).toMatchObject({ status: 'approved', payout_by_staff: false });
    node.balance = 3;
    expect(await service.payOutOnce()).toMatchObject({ signed: 1, sent: 1 });
    expect((await row(withdrawal.id)).status).toBe('sent');
  });

  it('retries a broadcast whose answer was lost with the same signed transaction, never a second', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await approved(customer, '0.2');
    const funded = node.funded;
    node.dropNextBroadcast = true;
    await expect(service.payOutOnce()).rejects.toThrow('automatic crypto payouts failed');
    const signed = await row(withdrawal.id);
    expect(signed).toMatchObject({
      status: 'approved',
      payout_txid: payout(funded + 1).txid,
      journal_id: null,
    });
    expect(await statusSeenBy(customer, withdrawal.id)).toMatchObject({ status: 'approved' });
    // Staff cannot pay or refund it meanwhile: the node may have it already (it has).
    const reject = await staffAction(finance, withdrawal.id, 'reject', { reason: 'Changed my mind' });
    expect(reject.statusCode).toBe(409);
    expect(reject.json<{ message: string }>().message).toBe(PAID_AUTOMATICALLY);

    expect(await service.payOutOnce()).toMatchObject({ signed: 0, sent: 1 });
    expect(node.funded).toBe(funded + 1);
    const broadcasts = callsOf('sendrawtransaction').filter((call) => call.params[0] === signed.payout_raw);
    expect(broadcasts).toHaveLength(2);
    expect(await row(withdrawal.id)).toMatchObject({ status: 'sent', txid: signed.payout_txid });
    const journals = await db()
      .selectFrom('journals')
      .select('id')
      .where('idempotency_key', '=', `crypto_withdrawal_sent:${withdrawal.id}`)
      .execute();
    expect(journals).toHaveLength(1);
    await expectCryptoLedgerToHold(db());
  });
});
