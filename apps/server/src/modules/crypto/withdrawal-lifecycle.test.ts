import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CRYPTO_WITHDRAW_TEXTS,
  CRYPTO_WITHDRAWAL_TRANSITIONS,
  CryptoActivitySchema,
  CryptoWithdrawalSchema,
  pageSchema,
  type CryptoWithdrawal,
} from '@florin/contracts';
import { formatAmount } from '@florin/domain';
import { statesThatMayBecome, transition } from '../../lifecycle.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { testClock } from '../../test/clock.js';
import { coinDeposit } from '../../test/deposits.js';
import { customerBrowser } from '../compliance/customers.test-kit.js';
import {
  errorOf,
  liveCustomer,
  mailedCode,
  newIdempotencyKey,
  type FiatCustomer as Customer,
} from '../fiat/fiat.test-kit.js';
import { balanceOf, expectCryptoLedgerToHold } from './crypto.test-kit.js';

/**
 * The crypto withdrawal lifecycle (CRYPTO_WITHDRAWAL_TRANSITIONS) is what the customer's steps, the
 * staff queue and the 30-minute expiry go by: a move the map does not declare is refused.
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
const ONE_BTC = 100_000_000n;

async function fundedCustomer(): Promise<Customer> {
  const customer = await liveCustomer(t);
  await coinDeposit(t, customer, 'btc', formatAmount(ONE_BTC, 'BTC'));
  return customer;
}

/** Asked for (awaiting its mailed code). */
async function requested(customer: Customer): Promise<CryptoWithdrawal> {
  const response = await customer.browser.post(
    '/api/v1/crypto/send-verify-withdraw',
    {
      coin: 'btc',
      wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      beneficiary_type: 'self',
      destination_type: 'private_wallet',
      amount: '0.5',
    },
    { headers: { 'idempotency-key': newIdempotencyKey() } },
  );
  expect(response.statusCode, response.body).toBe(200);
  return CryptoWithdrawalSchema.parse(response.json<{ data: unknown }>().data);
}

function verify(customer: Customer, id: string, code: string) {
  return customer.browser.post('/api/v1/crypto/verify-withdraw', { withdrawal_id: id, verify_code: code });
}

/** Asked for, verified with the mailed code and in the staff queue (pending). */
async function queued(customer: Customer): Promise<CryptoWithdrawal> {
  const withdrawal = await requested(customer);
  const verified = await verify(customer, withdrawal.id, await mailedCode(db(), customer.email));
  expect(verified.statusCode, verified.body).toBe(200);
  const submitted = await customer.browser.post('/api/v1/crypto/withdraw', { withdrawal_id: withdrawal.id });
  expect(submitted.statusCode, submitted.body).toBe(200);
  return CryptoWithdrawalSchema.parse(submitted.json<{ data: unknown }>().data);
}

const staffAction = (id: string, action: string, body: Record<string, unknown> = {}) =>
  finance.browser.post(`/api/admin/crypto/withdrawals/${id}/${action}`, body);
const cancel = (customer: Customer, id: string) =>
  customer.browser.post(`/api/v1/crypto/withdrawals/${id}/cancel`);

async function statusSeenBy(customer: Customer, id: string) {
  const activity = await customer.browser.get('/api/v1/crypto/transactions?coin=btc');
  const items = pageSchema(CryptoActivitySchema).parse(activity.json()).data;
  return items.find((item) => item.id === `withdrawal:${id}`)?.status;
}

describe('the crypto withdrawal lifecycle', () => {
  it('lets the customer cancel only until staff approve, expire only what awaits the customer, send only the approved', () => {
    expect(statesThatMayBecome(CRYPTO_WITHDRAWAL_TRANSITIONS, 'cancelled')).toEqual([
      'awaiting_code',
      'verified',
      'pending',
    ]);
    expect(statesThatMayBecome(CRYPTO_WITHDRAWAL_TRANSITIONS, 'expired')).toEqual([
      'awaiting_code',
      'verified',
    ]);
    expect(statesThatMayBecome(CRYPTO_WITHDRAWAL_TRANSITIONS, 'sent')).toEqual(['approved']);
    expect(() => transition(CRYPTO_WITHDRAWAL_TRANSITIONS, 'rejected', 'sent')).toThrow(
      expect.objectContaining({ code: 'CONFLICT', status: 409 }),
    );
  });

  it('refuses the customer’s cancel once approved, and sending once rejected: the coins come back once', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await queued(customer);
    const approved = await staffAction(withdrawal.id, 'approve');
    expect(approved.json()).toMatchObject({ data: { status: 'approved', can_cancel: false } });
    const cancelApproved = await cancel(customer, withdrawal.id);
    expect(cancelApproved.statusCode).toBe(409);
    expect(errorOf(cancelApproved)).toMatchObject({
      code: 'CONFLICT',
      message: CRYPTO_WITHDRAW_TEXTS.notCancellable,
    });

    const rejected = await staffAction(withdrawal.id, 'reject', { reason: 'Address under review' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const sendRejected = await staffAction(withdrawal.id, 'send');
    expect(sendRejected.statusCode).toBe(409);
    expect(errorOf(sendRejected)).toMatchObject({
      code: 'CONFLICT',
      message: CRYPTO_WITHDRAW_TEXTS.notApproved,
    });
    expect((await staffAction(withdrawal.id, 'approve')).statusCode).toBe(409);

    expect(await statusSeenBy(customer, withdrawal.id)).toBe('rejected');
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: ONE_BTC, held: 0n });
    await expectCryptoLedgerToHold(db());
  });

  it('neither verifies nor expires a cancelled request', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await requested(customer);
    const cancelled = await cancel(customer, withdrawal.id);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const verifyCancelled = await verify(customer, withdrawal.id, await mailedCode(db(), customer.email));
    expect(verifyCancelled.statusCode).toBe(409);
    expect(errorOf(verifyCancelled).message).toBe(CRYPTO_WITHDRAW_TEXTS.notAwaitingCode);

    // Past its 30 minutes the expiry sweep, which reading the activity runs, passes it by. The
    // customer signs in again: their session idled out meanwhile.
    testClock.advance(31 * 60_000);
    const later = { ...customer, browser: await customerBrowser(t.app, db(), customer.id) };
    expect(await statusSeenBy(later, withdrawal.id)).toBe('cancelled');
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: ONE_BTC, held: 0n });
    await expectCryptoLedgerToHold(db());
  });
});
