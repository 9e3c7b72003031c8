import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminCryptoWithdrawalSchema,
  CRYPTO_WITHDRAW_TEXTS,
  CryptoActivitySchema,
  CryptoWithdrawInfoSchema,
  pageSchema,
  type CryptoWithdrawal,
} from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signedInStaff, type SignedInStaff, putOnHold } from '../../test/admin.js';
import { createEmailedCodes } from '../../security/emailed-codes.js';
import { createRateLimiter } from '../../security/rate-limits.js';
import { createSecondFactor } from '../../security/second-factor.js';
import { mailSubjects } from '../compliance/customers.test-kit.js';
import { createNotifier } from '../notifications/service.js';
import { errorOf, mailedCode, newIdempotencyKey } from '../fiat/fiat.test-kit.js';
import { balanceOf, expectCryptoLedgerToHold } from './crypto.test-kit.js';
import { createCryptoWithdrawalRepository } from './withdrawal-repository.js';
import { createCryptoWithdrawalService } from './withdrawals.js';
import { createKycRepository } from '../kyc/repository.js';
import { createVerificationGate } from '../kyc/verification.js';
import { testClock } from '../../test/clock.js';
import { ADDRESS, withdrawalSteps } from './withdrawals.test-kit.js';

let t: TestApp;
let finance: SignedInStaff;
let finance2: SignedInStaff;
let compliance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  finance2 = await signedInStaff(t.app, t.database.db, 'finance');
  compliance = await signedInStaff(t.app, t.database.db, 'compliance');
});
afterAll(async () => {
  await t.close();
});

const { db, fundedCustomer, request, requested, verify, submit, queued, staffAction, held } = withdrawalSteps(
  () => t,
);

describe('a crypto withdrawal from request to the chain', () => {
  it('holds the amount, takes the mailed code, queues it, and staff approve, send and confirm it', async () => {
    const customer = await fundedCustomer();
    const info = await customer.browser.get('/api/v1/crypto/withdraw-info?coin=btc');
    expect(CryptoWithdrawInfoSchema.parse(info.json<{ data: unknown }>().data)).toEqual({
      coin_id: 'btc',
      available: '1.00000000',
      minimum: '0.01000000',
      fee: '0.00050000',
      decimals: 8,
      passcode_required: false,
      email_codes: false,
      withdraw_disabled: false,
      blocked_until: null,
    });

    const withdrawal = await requested(customer, { amount: '0.5', fee: '999', amount_receive: '999' });
    expect(withdrawal).toMatchObject({
      status: 'awaiting_code',
      amount: '0.50000000',
      fee: '0.00050000',
      amount_receive: '0.49950000',
      address: ADDRESS.btc,
      can_cancel: true,
    });
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({
      available: 50_000_000n,
      held: 50_000_000n,
    });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your withdrawal code'),
    );

    const wrong = await verify(customer, withdrawal.id, '000000');
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toMatchObject({
      code: 'VERIFICATION_FAILED',
      message: CRYPTO_WITHDRAW_TEXTS.codeWrong,
    });
    const early = await submit(customer, withdrawal.id);
    expect(errorOf(early).message).toBe(CRYPTO_WITHDRAW_TEXTS.notVerified);

    const code = await mailedCode(db(), customer.email);
    const verified = await verify(customer, withdrawal.id, code);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json<{ data: CryptoWithdrawal }>().data.status).toBe('verified');
    const reused = await verify(customer, withdrawal.id, code);
    expect(reused.statusCode).toBe(409);

    const done = await submit(customer, withdrawal.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      data: { status: 'pending', status_label: 'Pending' },
      message: CRYPTO_WITHDRAW_TEXTS.withdrawalRequested,
    });
    const again = await submit(customer, withdrawal.id);
    expect(again.json()).toMatchObject({ data: { status: 'pending' } });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your crypto withdrawal request'),
    );

    const queue = await finance.browser.get('/api/admin/crypto/withdrawals');
    const row = pageSchema(AdminCryptoWithdrawalSchema)
      .parse(queue.json())
      .data.find((item) => item.id === withdrawal.id);
    expect(row).toMatchObject({
      status: 'pending',
      beneficiary_type: 'self',
      destination_type: 'private_wallet',
      wallet: 'simulated',
      whitelisted: false,
      needs_second_approval: false,
    });

    const sendEarly = await staffAction(finance, withdrawal.id, 'send');
    expect(sendEarly.statusCode).toBe(409);
    const approved = await staffAction(finance, withdrawal.id, 'approve');
    expect(approved.json()).toMatchObject({
      data: { status: 'approved' },
      message: CRYPTO_WITHDRAW_TEXTS.approved,
    });
    // A fresh BTC price (£20,000 mid) when the coins leave.
    const driven = await t.app.inject({
      method: 'POST',
      url: '/dev/market/drive',
      payload: { symbol: 'BTC/GBP', mid: '20000' },
    });
    expect(driven.statusCode, driven.body).toBe(200);
    const sent = await staffAction(finance, withdrawal.id, 'send');
    expect(sent.statusCode, sent.body).toBe(200);
    const txid = sent.json<{ data: { txid: string; status: string } }>().data.txid;
    expect(sent.json()).toMatchObject({ data: { status: 'sent' } });

    const onChain = await db()
      .selectFrom('simulated_chain_transactions')
      .select(['address', 'amount'])
      .where('txid', '=', txid)
      .executeTakeFirstOrThrow();
    expect(onChain).toEqual({ address: ADDRESS.btc, amount: '49950000' });
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: 50_000_000n, held: 0n });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your crypto withdrawal was sent'),
    );

    const confirmed = await staffAction(finance, withdrawal.id, 'confirm');
    expect(confirmed.json()).toMatchObject({ data: { status: 'confirmed', status_label: 'Completed' } });

    const activity = await customer.browser.get('/api/v1/crypto/transactions?coin=btc');
    const items = pageSchema(CryptoActivitySchema).parse(activity.json()).data;
    expect(items[0]).toMatchObject({
      type: 'withdrawal',
      amount: '0.50000000',
      status_label: 'Completed',
      txid,
    });
    // The history and its CSV say what the coins were worth in pounds when they left, as for a deposit.
    const journal = await db()
      .selectFrom('journals')
      .select('metadata')
      .where('idempotency_key', '=', `crypto_withdrawal_sent:${withdrawal.id}`)
      .executeTakeFirstOrThrow();
    const value = (journal.metadata as { gbp_value?: string }).gbp_value;
    // The whole 0.5 BTC that left the balance (fee included), at the market's GBP rate after the drive (£19,900).
    expect(value).toBe('9950.00');
    const history = await customer.browser.get('/api/v1/user/transactions?coin=btc');
    expect(history.json<{ data: { gbp_amount: string | null }[] }>().data[0]).toMatchObject({
      gbp_amount: value,
    });
    await expectCryptoLedgerToHold(db());
  });

  it('stores the Travel Rule answers and asks for the name when the wallet is someone else’s', async () => {
    const customer = await fundedCustomer();
    const noName = await request(customer, {
      amount: '0.1',
      beneficiary_type: 'person',
      destination_type: 'exchange',
    });
    expect(noName.statusCode).toBe(422);
    expect(errorOf(noName).errors).toEqual({
      beneficiary_name: [CRYPTO_WITHDRAW_TEXTS.beneficiaryNameRequired],
      exchange_name: [CRYPTO_WITHDRAW_TEXTS.exchangeNameRequired],
    });
    const withdrawal = await requested(customer, {
      amount: '0.1',
      beneficiary_type: 'business',
      beneficiary_name: 'Acme Ltd',
      destination_type: 'exchange',
      exchange_name: 'Kraken',
    });
    expect(withdrawal).toMatchObject({
      beneficiary_type: 'business',
      beneficiary_name: 'Acme Ltd',
      destination_type: 'exchange',
      exchange_name: 'Kraken',
    });
  });
});

describe('races and idempotency', () => {
  it('of 50 concurrent withdrawals of the whole balance, exactly one holds it', async () => {
    const customer = await fundedCustomer(10_000_000n);
    const answers = await Promise.all(Array.from({ length: 50 }, () => request(customer, { amount: '0.1' })));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode >= 500)).toHaveLength(0);
    const holds = await db()
      .selectFrom('crypto_withdrawals')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(Number(holds.count)).toBe(1);
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: 0n, held: 10_000_000n });
    await expectCryptoLedgerToHold(db());
  });

  it('answers a repeated request with the same withdrawal, and refuses the key for another request', async () => {
    const customer = await fundedCustomer();
    const key = newIdempotencyKey();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => request(customer, { amount: '0.2' }, key)),
    );
    const ids = new Set(answers.map((answer) => answer.json<{ data: { id: string } }>().data.id));
    expect(ids.size).toBe(1);
    expect(await held(customer.id)).toBe(20_000_000n);
    const other = await request(customer, { amount: '0.3' }, key);
    expect(other.statusCode).toBe(409);
  });

  it('keeps another customer’s withdrawal out of reach (404)', async () => {
    const owner = await fundedCustomer();
    const stranger = await fundedCustomer();
    const withdrawal = await requested(owner, { amount: '0.1' });
    const code = await mailedCode(db(), owner.email);
    expect((await verify(stranger, withdrawal.id, code)).statusCode).toBe(404);
    expect((await submit(stranger, withdrawal.id)).statusCode).toBe(404);
    expect(
      (await stranger.browser.post(`/api/v1/crypto/withdrawals/${withdrawal.id}/cancel`)).statusCode,
    ).toBe(404);
    expect(
      (await stranger.browser.post(`/api/v1/crypto/withdrawals/${withdrawal.id}/resend-code`)).statusCode,
    ).toBe(404);
    const activity = await stranger.browser.get('/api/v1/crypto/transactions');
    expect(JSON.stringify(activity.json())).not.toContain(`withdrawal:${withdrawal.id}"`);
  });
});

describe('the staff side', () => {
  it('needs two different staff members beyond the daily limit', async () => {
    const customer = await fundedCustomer(300_000_000n);
    const withinLimit = await queued(customer, { amount: '0.6' });
    const beyond = await queued(customer, { amount: '0.6' });
    const rows = pageSchema(AdminCryptoWithdrawalSchema).parse(
      (await finance.browser.get('/api/admin/crypto/withdrawals')).json(),
    ).data;
    expect(rows.find((row) => row.id === withinLimit.id)?.needs_second_approval).toBe(false);
    expect(rows.find((row) => row.id === beyond.id)?.needs_second_approval).toBe(true);

    const first = await staffAction(finance, beyond.id, 'approve');
    expect(first.json()).toMatchObject({
      data: { status: 'pending' },
      message: CRYPTO_WITHDRAW_TEXTS.firstApproval,
    });
    const twice = await staffAction(finance, beyond.id, 'approve');
    expect(errorOf(twice).message).toBe(CRYPTO_WITHDRAW_TEXTS.alreadyApprovedByYou);
    const second = await staffAction(finance2, beyond.id, 'approve');
    expect(second.json()).toMatchObject({ data: { status: 'approved', second_approved_by: finance2.email } });
  });

  it('rejects with a reason: the coins come back and the customer is told', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await queued(customer, { amount: '0.4' });
    const noReason = await staffAction(finance, withdrawal.id, 'reject', { reason: ' ' });
    expect(noReason.statusCode).toBe(422);
    const rejected = await staffAction(finance, withdrawal.id, 'reject', { reason: 'Sanctioned address' });
    expect(rejected.json()).toMatchObject({
      data: { status: 'rejected', reject_reason: 'Sanctioned address' },
    });
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: 100_000_000n, held: 0n });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your crypto withdrawal was not made'),
    );
    expect((await staffAction(finance, withdrawal.id, 'approve')).statusCode).toBe(409);
    await expectCryptoLedgerToHold(db());
  });

  it('neither approves nor sends a withdrawal of a customer on hold; rejecting it stays possible', async () => {
    const customer = await fundedCustomer();
    const pending = await queued(customer, { amount: '0.2' });
    const approved = await queued(customer, { amount: '0.3' });
    const rejectable = await queued(customer, { amount: '0.1' });
    expect((await staffAction(finance, approved.id, 'approve')).statusCode).toBe(200);
    await putOnHold(compliance, customer.id);

    const rows = pageSchema(AdminCryptoWithdrawalSchema).parse(
      (await finance.browser.get('/api/admin/crypto/withdrawals')).json(),
    ).data;
    expect(rows.find((row) => row.id === pending.id)).toMatchObject({ customer_on_hold: true });
    const approve = await staffAction(finance, pending.id, 'approve');
    expect(approve.statusCode).toBe(409);
    expect(errorOf(approve)).toMatchObject({
      code: 'CONFLICT',
      message: CRYPTO_WITHDRAW_TEXTS.customerOnHold,
    });
    const send = await staffAction(finance, approved.id, 'send');
    expect(send.statusCode).toBe(409);
    expect(errorOf(send)).toMatchObject({ code: 'CONFLICT', message: CRYPTO_WITHDRAW_TEXTS.customerOnHold });
    const statuses = await db()
      .selectFrom('crypto_withdrawals')
      .innerJoin('holds', 'holds.id', 'crypto_withdrawals.hold_id')
      .select(['crypto_withdrawals.id', 'crypto_withdrawals.status', 'holds.status as hold_status'])
      .where('crypto_withdrawals.id', 'in', [pending.id, approved.id])
      .execute();
    expect(statuses).toHaveLength(2);
    expect(statuses).toEqual(
      expect.arrayContaining([
        { id: pending.id, status: 'pending', hold_status: 'pending' },
        { id: approved.id, status: 'approved', hold_status: 'pending' },
      ]),
    );
    const rejected = await staffAction(finance, rejectable.id, 'reject', { reason: 'Account under review' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({
      available: 50_000_000n,
      held: 50_000_000n,
    });

    const lifted = await compliance.browser.post(`/api/admin/compliance/cases/${customer.id}/lift-hold`, {
      reason: 'Cleared: a false match.',
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect((await staffAction(finance, pending.id, 'approve')).statusCode).toBe(200);
    const sent = await staffAction(finance, approved.id, 'send');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ data: { status: 'sent', customer_on_hold: false } });
    await expectCryptoLedgerToHold(db());
  });

  it('approves automatically to an address whitelisted over 24 hours ago when staff switch it on', async () => {
    const customer = await fundedCustomer();
    await db()
      .insertInto('whitelisted_wallets')
      .values({
        user_id: customer.id,
        asset: 'BTC',
        address: ADDRESS.btc,
        label: 'Ledger',
        usable_from: sql<Date>`now() - interval '1 hour'`,
      })
      .execute();
    const manual = await queued(customer, { amount: '0.1' });
    expect(manual.status).toBe('pending');
    const switched = await finance.browser.put('/api/admin/crypto/withdrawal-settings/btc', {
      daily_limit: '1',
      auto_approve_whitelisted: true,
    });
    expect(switched.statusCode, switched.body).toBe(200);
    try {
      const automatic = await queued(customer, { amount: '0.1' });
      expect(automatic.status).toBe('approved');
      const typedElsewhere = await queued(customer, {
        amount: '0.1',
        wallet: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      });
      expect(typedElsewhere.status).toBe('pending');
    } finally {
      await finance.browser.put('/api/admin/crypto/withdrawal-settings/btc', {
        daily_limit: '1',
        auto_approve_whitelisted: false,
      });
    }
  });

  it('sends a cold-storage coin only with the txid the signer returns', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await queued(customer, { amount: '0.3' });
    await staffAction(finance, withdrawal.id, 'approve');
    const mailer = createDevMailbox(db());
    const emailedCodes = createEmailedCodes({ db: db(), key: 'test', clock: testClock });
    const limits = createRateLimiter(db());
    const cold = createCryptoWithdrawalService({
      db: db(),
      repository: createCryptoWithdrawalRepository(db()),
      ledger: t.ledger,
      notifier: createNotifier({ db: db(), mailer, log: t.app.log }),
      userEvents: { moneyMoved: () => undefined },
      emailedCodes,
      secondFactor: createSecondFactor({
        emailedCodes,
        limits,
        verifyAuthenticatorCode: () => Promise.resolve(false),
      }),
      limits,
      addresses: { network: 'mainnet', sources: {} },
      gbpRate: () => null,
      savedAddresses: {
        findWallet: () => Promise.resolve(undefined),
        findByAddress: () => Promise.resolve(undefined),
      },
      wallets: {
        BTC: { kind: 'cold_storage' },
        ETH: { kind: 'cold_storage' },
        LTC: { kind: 'cold_storage' },
        BCH: { kind: 'cold_storage' },
        XRP: { kind: 'cold_storage' },
      },
      verification: createVerificationGate({ db: db(), repository: createKycRepository(db()) }),
      clock: testClock,
    });
    const actor = { staffId: finance.id, ip: '127.0.0.1' };
    const signing = await cold.signingRequest(withdrawal.id);
    expect(signing.data).toMatchObject({
      address: ADDRESS.btc,
      amount: '0.29950000',
      amount_units: '29950000',
    });
    await expect(cold.send(actor, withdrawal.id, null)).rejects.toThrow(CRYPTO_WITHDRAW_TEXTS.txidRequired);
    // Put on hold once signed: no new signing request, but the transaction already sent is recorded.
    await putOnHold(compliance, customer.id);
    await expect(cold.signingRequest(withdrawal.id)).rejects.toThrow(CRYPTO_WITHDRAW_TEXTS.customerOnHold);
    const sent = await cold.send(actor, withdrawal.id, 'f'.repeat(64));
    expect(sent.data).toMatchObject({ status: 'sent', txid: 'f'.repeat(64), wallet: 'cold_storage' });
    await expectCryptoLedgerToHold(db());
  });
});

describe('unconfirmed requests', () => {
  it('are cancelled by the customer or expire after 30 minutes, and the coins come back', async () => {
    const customer = await fundedCustomer();
    const cancelled = await requested(customer, { amount: '0.2' });
    const answer = await customer.browser.post(`/api/v1/crypto/withdrawals/${cancelled.id}/cancel`);
    expect(answer.json()).toMatchObject({
      data: { status: 'cancelled' },
      message: CRYPTO_WITHDRAW_TEXTS.cancelled,
    });

    const stale = await requested(customer, { amount: '0.3' });
    expect(await held(customer.id)).toBe(30_000_000n);
    await db()
      .updateTable('crypto_withdrawals')
      .set({ verify_by: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', stale.id)
      .execute();
    const activity = await customer.browser.get('/api/v1/crypto/transactions?coin=btc');
    const items = pageSchema(CryptoActivitySchema).parse(activity.json()).data;
    expect(items.find((item) => item.id === `withdrawal:${stale.id}`)?.status).toBe('expired');
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: 100_000_000n, held: 0n });
    await expectCryptoLedgerToHold(db());
  });
});
