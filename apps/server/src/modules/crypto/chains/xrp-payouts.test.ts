import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type Transaction } from 'xrpl';
import { CryptoActivitySchema, pageSchema } from '@florin/contracts';
import { signedInStaff, type SignedInStaff } from '../../../test/admin.js';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { mailedCode, type FiatCustomer as Customer } from '../../fiat/fiat.test-kit.js';
import { payoutInstance, setPayoutLimits, startRecordedNode } from '../auto-payouts.test-kit.js';
import { expectCryptoLedgerToHold } from '../crypto.test-kit.js';
import { ADDRESS, withdrawalSteps } from '../withdrawals.test-kit.js';
import { createXrpHotWallet } from './xrp-hot-wallet.js';
import { startFakeRippled, type FakeRippled } from './xrp-ledger.test-kit.js';

/**
 * XRP payouts (decision 131): the hot wallet's Payment is autofilled on a local server speaking
 * rippled's websocket API, signed by a local signer over HTTP JSON-RPC (`sign` with `{ tx_json }`,
 * holding a key the test made), submitted as the signed blob, and confirmed once validated.
 */

/** The signer's key, fixed so the hot wallet's address is the same each run. */
const signingKey = Wallet.fromEntropy(new Uint8Array(16).fill(7));
const HOT = signingKey.classicAddress;

let t: TestApp;
let finance: SignedInStaff;
let rippled: FakeRippled;
let signer: Awaited<ReturnType<typeof startRecordedNode>>;
let wallet: ReturnType<typeof createXrpHotWallet>;
let service: ReturnType<typeof payoutInstance>;
const { db, fundedCustomer, requested, verify, submit, staffAction } = withdrawalSteps(() => t);

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  rippled = await startFakeRippled({ earliest: 90_000_000 });
  // 500 XRP, of which the 1 XRP reserve never leaves the account.
  rippled.payouts.accounts.set(HOT, { Balance: '500000000', Sequence: 7, OwnerCount: 0 });
  signer = await startRecordedNode((call) => {
    const [{ tx_json }] = call.params as [{ tx_json: Transaction }];
    return call.method === 'sign'
      ? { result: signingKey.sign(tx_json) }
      : { error: { code: -32601, message: 'Method not found' } };
  });
  wallet = createXrpHotWallet({ nodeUrl: rippled.url, signerUrl: signer.url, account: HOT });
  service = payoutInstance(t, { XRP: wallet });
  await setPayoutLimits(finance, 'xrp', {
    auto_payout: true,
    max_per_withdrawal: '50',
    daily_total: '200',
    hot_wallet_ceiling: '1000',
  });
}, 60_000);
afterAll(async () => {
  await service.closeHotWallets();
  await rippled.close();
  await signer.close();
  await t.close();
});

async function approved(customer: Customer, amount: string) {
  const withdrawal = await requested(customer, {
    coin: 'xrp',
    wallet: ADDRESS.xrp,
    xrp_tag: '12345',
    amount,
  });
  const verified = await verify(customer, withdrawal.id, await mailedCode(db(), customer.email));
  expect(verified.statusCode, verified.body).toBe(200);
  expect((await submit(customer, withdrawal.id)).statusCode).toBe(200);
  const approval = await staffAction(finance, withdrawal.id, 'approve');
  expect(approval.statusCode, approval.body).toBe(200);
  return withdrawal;
}

async function statusSeenBy(customer: Customer, id: string) {
  const activity = await customer.browser.get('/api/v1/crypto/transactions?coin=xrp');
  const items = pageSchema(CryptoActivitySchema).parse(activity.json()).data;
  return items.find((item) => item.id === `withdrawal:${id}`);
}

const row = (id: string) =>
  db().selectFrom('crypto_withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Includes what was submitted in the next ledger and validates ledgers until it has XRP's confirmations. */
async function validateSubmitted() {
  const { confirmations } = await db()
    .selectFrom('coins')
    .select('confirmations')
    .where('asset', '=', 'XRP')
    .executeTakeFirstOrThrow();
  const ledger = rippled.state.validated + 1;
  rippled.include(ledger);
  rippled.validate(ledger + confirmations - 1);
}

describe('automatic XRP payouts through a signing service', () => {
  it('signs a withdrawal within the limits outside Florin, submits it and confirms it once validated', async () => {
    const customer = await fundedCustomer(100_000_000n, 'XRP');
    const withdrawal = await approved(customer, '30');
    expect(await service.payOutOnce()).toMatchObject({ signed: 1, sent: 1, confirmed: 0 });

    const sent = await row(withdrawal.id);
    const net = BigInt(sent.amount) - BigInt(sent.fee);
    expect(rippled.payouts.submitted).toHaveLength(1);
    const [payment] = rippled.payouts.submitted;
    expect(payment?.tx_json).toMatchObject({
      TransactionType: 'Payment',
      Account: HOT,
      Destination: ADDRESS.xrp,
      DestinationTag: 12345,
      Amount: net.toString(),
      Fee: '12',
      Sequence: 7,
      LastLedgerSequence: 90_000_020,
    });
    expect(signer.calls.filter((call) => call.method === 'sign')).toHaveLength(1);
    expect(sent).toMatchObject({
      status: 'sent',
      txid: payment?.hash,
      payout_txid: payment?.hash,
      payout_raw: payment?.blob,
      sent_by: null,
    });
    expect(await statusSeenBy(customer, withdrawal.id)).toMatchObject({
      status: 'sent',
      txid: payment?.hash,
    });

    // Submitted, not yet in a validated ledger: still sent.
    expect(await service.payOutOnce()).toMatchObject({ confirmed: 0 });
    await validateSubmitted();
    expect(await service.payOutOnce()).toMatchObject({ confirmed: 1 });
    expect(await row(withdrawal.id)).toMatchObject({ status: 'confirmed', confirmed_by: null });

    // Submitting the stored blob again pays nothing more: its Sequence is used (tefPAST_SEQ), by it.
    await wallet.broadcast({ txid: sent.payout_txid as string, raw: sent.payout_raw as string });
    expect(rippled.payouts.submitted).toHaveLength(1);
    expect(rippled.payouts.accounts.get(HOT)?.Balance).toBe(String(500_000_000n - net - 12n));
    await expectCryptoLedgerToHold(db());
  });

  it('submits the very same blob again when the answer to a submit was lost', async () => {
    const customer = await fundedCustomer(100_000_000n, 'XRP');
    const withdrawal = await approved(customer, '20');
    const received = rippled.payouts.received.length;
    rippled.state.dropAnswers.add('submit');
    await expect(service.payOutOnce()).rejects.toThrow('automatic crypto payouts failed');
    const signed = await row(withdrawal.id);
    expect(signed).toMatchObject({ status: 'approved' });
    expect(signed.payout_raw).not.toBeNull();

    expect(await service.payOutOnce()).toMatchObject({ signed: 0, sent: 1 });
    const blobs = rippled.payouts.received.slice(received);
    expect(blobs).toEqual([signed.payout_raw, signed.payout_raw]);
    expect(rippled.payouts.submitted).toHaveLength(2);
    expect(await row(withdrawal.id)).toMatchObject({ status: 'sent', txid: signed.payout_txid });
    await validateSubmitted();
    expect(await service.payOutOnce()).toMatchObject({ confirmed: 1 });
    await expectCryptoLedgerToHold(db());
  });

  it('leaves a withdrawal above the limits to staff without asking the signer', async () => {
    const customer = await fundedCustomer(100_000_000n, 'XRP');
    const signs = signer.calls.length;
    const withdrawal = await approved(customer, '60');
    expect(await service.payOutOnce()).toMatchObject({ signed: 0, sent: 0, leftToStaff: 1 });
    expect(await row(withdrawal.id)).toMatchObject({
      status: 'approved',
      payout_by_staff: true,
      payout_raw: null,
    });
    expect(signer.calls).toHaveLength(signs);
    expect(rippled.payouts.submitted).toHaveLength(2);
    await expectCryptoLedgerToHold(db());
  });

  it('reports a payout that expired past its LastLedgerSequence without being validated', async () => {
    const customer = await fundedCustomer(100_000_000n, 'XRP');
    const withdrawal = await approved(customer, '25');
    expect(await service.payOutOnce()).toMatchObject({ sent: 1 });
    // The server lost it before any ledger took it: the account's Sequence never moved on.
    const lost = rippled.payouts.submitted.pop();
    const account = rippled.payouts.accounts.get(HOT);
    if (account && lost) {
      account.Sequence = Number(lost.tx_json.Sequence);
      const spent = BigInt(String(lost.tx_json.Amount)) + BigInt(String(lost.tx_json.Fee));
      account.Balance = String(BigInt(account.Balance) + spent);
    }
    rippled.validate(Number(lost?.tx_json.LastLedgerSequence) + 1);
    const expired = `${lost?.hash} expired after ledger ${String(lost?.tx_json.LastLedgerSequence)} without being validated`;
    /** A run's failures, as the job reports them: the run fails as for a failed broadcast. */
    const failuresOfRun = async () => {
      const failure = await service.payOutOnce().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(AggregateError);
      return (failure as AggregateError).errors.map((error: Error) => error.message);
    };
    expect(await failuresOfRun()).toEqual([expired]);

    // A later payout still goes out and is confirmed; the expired one keeps failing the run, for staff to see.
    const next = await approved(await fundedCustomer(100_000_000n, 'XRP'), '20');
    expect(await failuresOfRun()).toEqual([expired]);
    expect((await row(next.id)).status).toBe('sent');
    await validateSubmitted();
    expect(await failuresOfRun()).toEqual([expired]);
    expect((await row(next.id)).status).toBe('confirmed');
    // Nothing was paid for the expired one, and it is not marked confirmed.
    expect((await row(withdrawal.id)).status).toBe('sent');
    await expectCryptoLedgerToHold(db());
  });
});
