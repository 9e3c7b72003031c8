import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIAT_TEXTS, FIAT_WITHDRAWAL_TRANSITIONS } from '@florin/contracts';
import { statesThatMayBecome, transition } from '../../lifecycle.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { bankDeposit } from '../../test/deposits.js';
import {
  balanceOf,
  errorOf,
  expectFiatLedgerToHold,
  liveCustomer,
  readyBankAccount,
  withdraw,
} from './fiat.test-kit.js';

/**
 * The fiat withdrawal lifecycle (FIAT_WITHDRAWAL_TRANSITIONS) is what the payout queue and the
 * customer's cancel go by: a move the map does not declare is refused, and the money stays put.
 */

let t: TestApp;
let finance: SignedInStaff;
let secondFinance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  secondFinance = await signedInStaff(t.app, t.database.db, 'finance');
  // From £50 a withdrawal takes two staff members: approved, then paid by the other.
  const settings = await finance.browser.put('/api/admin/fiat/settings/GBP', {
    account_name: 'Florin Client Money',
    account_number: '00112233',
    sort_code: '04-00-04',
    bank_name: 'ClearBank',
    iban: '',
    bic: '',
    second_approval_from: '50',
  });
  expect(settings.statusCode, settings.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('the fiat withdrawal lifecycle', () => {
  it('lets only an open withdrawal be decided, and nothing leave paid, rejected or cancelled', () => {
    expect(statesThatMayBecome(FIAT_WITHDRAWAL_TRANSITIONS, 'cancelled')).toEqual(['pending']);
    expect(statesThatMayBecome(FIAT_WITHDRAWAL_TRANSITIONS, 'paid')).toEqual(['pending', 'approved']);
    expect(statesThatMayBecome(FIAT_WITHDRAWAL_TRANSITIONS, 'rejected')).toEqual(['pending', 'approved']);
    expect(() => transition(FIAT_WITHDRAWAL_TRANSITIONS, 'approved', 'cancelled')).toThrow(
      expect.objectContaining({ code: 'CONFLICT', status: 409 }),
    );
    for (const final of ['paid', 'rejected', 'cancelled'] as const)
      expect(FIAT_WITHDRAWAL_TRANSITIONS[final]).toEqual([]);
  });

  it('refuses to cancel an approved withdrawal, and to reject or cancel it once paid: the money leaves once', async () => {
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await bankDeposit(t, customer, '1000.00');
    const created = await withdraw(customer, { amount: '100' });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json<{ data: { id: string } }>().data.id;
    const cancel = () => customer.browser.post(`/api/v1/users/withdraw/${id}/cancel`);

    const approved = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    const cancelApproved = await cancel();
    expect(cancelApproved.statusCode).toBe(409);
    expect(errorOf(cancelApproved)).toMatchObject({ code: 'CONFLICT', message: FIAT_TEXTS.notPending });

    const paid = await secondFinance.browser.post(`/api/admin/fiat/withdrawals/${id}/paid`, {
      payment_reference: 'FP-1',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const rejectPaid = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/reject`, {
      reason: 'Too late.',
    });
    expect(rejectPaid.statusCode).toBe(409);
    expect(errorOf(rejectPaid)).toMatchObject({ code: 'CONFLICT', message: FIAT_TEXTS.notOpen });
    expect((await cancel()).statusCode).toBe(409);

    const queue = await finance.browser.get('/api/admin/fiat/withdrawals?status=paid');
    expect(queue.json<{ data: { id: string; status: string }[] }>().data).toContainEqual(
      expect.objectContaining({ id, status: 'paid' }),
    );
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 90_000n, held: 0n, available: 90_000n });
    await expectFiatLedgerToHold(t.database.db);
  });
});
