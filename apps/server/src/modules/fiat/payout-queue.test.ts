import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminFiatWithdrawalSchema, FIAT_TEXTS, pageSchema } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { putOnHold, signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { checkLedger } from '../../ledger/index.js';
import { fiatDomainCheck } from './service.js';
import { auditRows, mailSubjects } from '../compliance/customers.test-kit.js';
import {
  balanceOf,
  errorOf,
  expectFiatLedgerToHold,
  GBP_ACCOUNT,
  houseBalance,
  liveCustomer,
  readyCustomer,
  requestWithdrawal,
} from './fiat.test-kit.js';

let t: TestApp;
let finance: SignedInStaff;
let secondFinance: SignedInStaff;
let compliance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  secondFinance = await signedInStaff(t.app, t.database.db, 'finance');
  compliance = await signedInStaff(t.app, t.database.db, 'compliance');
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

describe('payout queue', () => {
  it('lists open withdrawals oldest first with bank details; paid posts the hold: Dr customer, Cr bank net, Cr fee revenue', async () => {
    const customer = await readyCustomer(t);
    const id = await requestWithdrawal(customer, '100');
    const queue = await finance.browser.get('/api/admin/fiat/withdrawals');
    const page = pageSchema(AdminFiatWithdrawalSchema).parse(queue.json());
    const row = page.data.find((item) => item.id === id);
    expect(row).toMatchObject({
      sort_code: '123456',
      account_number: '12345678',
      amount: '100.00',
      fee: '5.00',
    });
    const createdAt = page.data.map((item) => item.created_at);
    expect([...createdAt].sort()).toEqual(createdAt);

    const exported = await finance.browser.post('/api/admin/fiat/withdrawals/export', { currency: 'GBP' });
    expect(exported.statusCode, exported.body).toBe(200);
    const file = exported.json<{ data: { csv: string; filename: string } }>().data;
    expect(file.filename).toMatch(/^payouts-GBP-.+\.csv$/);
    expect(file.csv).toContain(`${id},Grace Hopper,123456,12345678,95.00,GBP,FLORIN W${id}`);

    const bankBefore = await houseBalance(t, 'bank');
    const feeBefore = await houseBalance(t, 'withdrawal_fee_revenue');
    const paid = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/paid`, {
      payment_reference: 'FP-123',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<{ data: unknown }>().data).toMatchObject({
      status: 'paid',
      payment_reference: 'FP-123',
    });
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 90_000n, held: 0n, available: 90_000n });
    expect((await houseBalance(t, 'bank')) - bankBefore).toBe(9_500n);
    expect((await houseBalance(t, 'withdrawal_fee_revenue')) - feeBefore).toBe(500n);
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your withdrawal was sent'),
    );

    const again = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/paid`, {
      payment_reference: 'FP-124',
    });
    expect(again.statusCode).toBe(409);
    const cancel = await customer.browser.post(`/api/v1/users/withdraw/${id}/cancel`);
    expect(cancel.statusCode).toBe(409);
    expect((await auditRows(db(), 'fiat_withdrawal', id)).map((r) => r.action)).toEqual([
      'fiat.withdrawal_paid',
    ]);
    await expectFiatLedgerToHold(db());
  });

  it('a withdrawal in a payout file can no longer be cancelled by the customer, and no later file lists it again', async () => {
    const customer = await readyCustomer(t);
    const id = await requestWithdrawal(customer, '100');
    const exported = await finance.browser.post('/api/admin/fiat/withdrawals/export', { currency: 'GBP' });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json<{ data: { csv: string } }>().data.csv).toContain(`FLORIN W${id}`);

    const cancel = await customer.browser.post(`/api/v1/users/withdraw/${id}/cancel`);
    expect(cancel.statusCode).toBe(409);
    expect(errorOf(cancel).message).toBe(FIAT_TEXTS.beingPaid);
    expect(await balanceOf(t, customer.id)).toMatchObject({ held: 10_000n });
    const activity = await customer.browser.get('/api/v1/fiat/transactions');
    expect(
      activity
        .json<{ data: { withdrawal: { id: string; can_cancel: boolean } | null }[] }>()
        .data.find((row) => row.withdrawal?.id === id)?.withdrawal?.can_cancel,
    ).toBe(false);
    const queue = pageSchema(AdminFiatWithdrawalSchema).parse(
      (await finance.browser.get('/api/admin/fiat/withdrawals')).json(),
    );
    expect(queue.data.find((row) => row.id === id)?.exported_at).not.toBeNull();

    const later = await requestWithdrawal(customer, '50');
    const next = await finance.browser.post('/api/admin/fiat/withdrawals/export', { currency: 'GBP' });
    const csv = next.json<{ data: { csv: string } }>().data.csv;
    expect(csv).toContain(`FLORIN W${later}`);
    expect(csv).not.toContain(`FLORIN W${id}`);
    const empty = await finance.browser.post('/api/admin/fiat/withdrawals/export', { currency: 'GBP' });
    expect(empty.json()).toMatchObject({ data: { withdrawals: 0 }, message: FIAT_TEXTS.payoutFileEmpty });

    // Finance still decides each: paid posts the hold as before.
    const paid = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/paid`, {
      payment_reference: 'FP-200',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    await expectFiatLedgerToHold(db());
  });

  it('a withdrawal in a payout file is rejected only once the bank has returned it: the money is not given back twice', async () => {
    const customer = await readyCustomer(t);
    const id = await requestWithdrawal(customer, '100');
    await finance.browser.post('/api/admin/fiat/withdrawals/export', { currency: 'GBP' });

    const refused = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/reject`, {
      reason: 'Sent by mistake.',
    });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(FIAT_TEXTS.inPayoutFile);
    expect(await balanceOf(t, customer.id)).toMatchObject({ held: 10_000n });

    const returned = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/reject`, {
      reason: 'Your bank returned the payment.',
      bank_returned: true,
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(await balanceOf(t, customer.id)).toMatchObject({ held: 0n, available: 100_000n });
    await expectFiatLedgerToHold(db());
  });

  it('reject voids the hold, returns the money and tells the customer why', async () => {
    const customer = await readyCustomer(t);
    const id = await requestWithdrawal(customer, '100');
    const rejected = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/reject`, {
      reason: 'The account name does not match.',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json<{ data: unknown }>().data).toMatchObject({
      status: 'rejected',
      reject_reason: 'The account name does not match.',
    });
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 100_000n, held: 0n, available: 100_000n });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your withdrawal was not made'),
    );
    const paid = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/paid`, {
      payment_reference: 'X',
    });
    expect(paid.statusCode).toBe(409);
    const unknown = await finance.browser.post('/api/admin/fiat/withdrawals/999999999/reject', {
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(404);
    await expectFiatLedgerToHold(db());
  });
});

describe('payout queue: holds, second approval and checks', () => {
  it('pays no withdrawal of a customer on hold, nor puts it in a payout file, until the hold is lifted', async () => {
    const customer = await readyCustomer(t);
    const exportFile = async () => {
      const response = await finance.browser.post('/api/admin/fiat/withdrawals/export', { currency: 'GBP' });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { csv: string; withdrawals: number } }>().data;
    };
    // Other tests' withdrawals go in a file of their own first.
    await exportFile();
    const id = await requestWithdrawal(customer, '100');
    await putOnHold(compliance, customer.id);

    const queue = pageSchema(AdminFiatWithdrawalSchema).parse(
      (await finance.browser.get('/api/admin/fiat/withdrawals')).json(),
    );
    expect(queue.data.find((row) => row.id === id)).toMatchObject({ customer_on_hold: true });
    const paid = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/paid`, {
      payment_reference: 'FP-HOLD',
    });
    expect(paid.statusCode).toBe(409);
    expect(errorOf(paid)).toMatchObject({ code: 'CONFLICT', message: FIAT_TEXTS.customerOnHold });
    const file = await exportFile();
    expect(file.withdrawals).toBe(0);
    expect(file.csv).not.toContain(`FLORIN W${id}`);
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 100_000n, held: 10_000n, available: 90_000n });
    const hold = await db()
      .selectFrom('fiat_withdrawals')
      .innerJoin('holds', 'holds.id', 'fiat_withdrawals.hold_id')
      .select(['fiat_withdrawals.status', 'fiat_withdrawals.exported_at', 'holds.status as hold_status'])
      .where('fiat_withdrawals.id', '=', id)
      .executeTakeFirstOrThrow();
    expect(hold).toEqual({ status: 'pending', exported_at: null, hold_status: 'pending' });
    expect(await auditRows(db(), 'fiat_withdrawal', id)).toEqual([]);

    const lifted = await compliance.browser.post(`/api/admin/compliance/cases/${customer.id}/lift-hold`, {
      reason: 'Cleared: a false match.',
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect((await exportFile()).csv).toContain(`FLORIN W${id}`);
    const paidAfter = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/paid`, {
      payment_reference: 'FP-HOLD',
    });
    expect(paidAfter.statusCode, paidAfter.body).toBe(200);
    await expectFiatLedgerToHold(db());
  });

  it('still rejects a withdrawal of a customer on hold: the money goes back to their balance', async () => {
    const customer = await readyCustomer(t);
    const id = await requestWithdrawal(customer, '100');
    await putOnHold(compliance, customer.id);
    const rejected = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/reject`, {
      reason: 'The account is under review.',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ data: { status: 'rejected', customer_on_hold: true } });
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 100_000n, held: 0n, available: 100_000n });
    await expectFiatLedgerToHold(db());
  });

  /** GBP withdrawals from `amount` need a second staff member. */
  async function requireSecondApprovalFrom(amount: string): Promise<void> {
    const settings = await finance.browser.put('/api/admin/fiat/settings/GBP', {
      account_name: 'Florin Client Money',
      account_number: '00112233',
      sort_code: '040004',
      bank_name: 'ClearBank',
      iban: '',
      bic: '',
      second_approval_from: amount,
    });
    expect(settings.statusCode).toBe(200);
  }

  it('records the payment of a withdrawal the bank was already paying when the hold came', async () => {
    const customer = await readyCustomer(t);
    const id = await requestWithdrawal(customer, '100');
    await finance.browser.post('/api/admin/fiat/withdrawals/export', { currency: 'GBP' });
    await putOnHold(compliance, customer.id);
    const paid = await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/paid`, {
      payment_reference: 'FP-FILED',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(t, customer.id)).toMatchObject({ posted: 90_000n, held: 0n });
    await expectFiatLedgerToHold(db());
  });

  it('approves no large withdrawal of a customer on hold', async () => {
    await requireSecondApprovalFrom('500');
    const customer = await readyCustomer(t, 200_000n);
    const large = await requestWithdrawal(customer, '600');
    await putOnHold(compliance, customer.id);
    const approve = await finance.browser.post(`/api/admin/fiat/withdrawals/${large}/approve`, {});
    expect(approve.statusCode).toBe(409);
    expect(errorOf(approve).message).toBe(FIAT_TEXTS.customerOnHold);
    const row = await db()
      .selectFrom('fiat_withdrawals')
      .select('status')
      .where('id', '=', large)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('needs a second staff member above the configured amount: the approver cannot also pay', async () => {
    await requireSecondApprovalFrom('500');
    const customer = await readyCustomer(t, 200_000n);
    const small = await requestWithdrawal(customer, '100');
    const large = await requestWithdrawal(customer, '600');

    const notNeeded = await finance.browser.post(`/api/admin/fiat/withdrawals/${small}/approve`, {});
    expect(errorOf(notNeeded).message).toBe(FIAT_TEXTS.approvalNotNeeded);
    const early = await finance.browser.post(`/api/admin/fiat/withdrawals/${large}/paid`, {
      payment_reference: 'FP-1',
    });
    expect(early.statusCode).toBe(409);
    expect(errorOf(early).message).toBe(FIAT_TEXTS.needsApproval);
    const exported = await finance.browser.post('/api/admin/fiat/withdrawals/export', { currency: 'GBP' });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json<{ data: { csv: string } }>().data.csv).not.toContain(`FLORIN W${large}`);

    const approved = await finance.browser.post(`/api/admin/fiat/withdrawals/${large}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<{ data: unknown }>().data).toMatchObject({
      status: 'approved',
      approved_by: finance.email,
    });
    const byApprover = await finance.browser.post(`/api/admin/fiat/withdrawals/${large}/paid`, {
      payment_reference: 'FP-2',
    });
    expect(byApprover.statusCode).toBe(409);
    expect(errorOf(byApprover).message).toBe(FIAT_TEXTS.approverCannotPay);
    const cancel = await customer.browser.post(`/api/v1/users/withdraw/${large}/cancel`);
    expect(cancel.statusCode).toBe(409);

    const bySecond = await secondFinance.browser.post(`/api/admin/fiat/withdrawals/${large}/paid`, {
      payment_reference: 'FP-3',
    });
    expect(bySecond.statusCode, bySecond.body).toBe(200);
    expect(bySecond.json<{ data: unknown }>().data).toMatchObject({
      status: 'paid',
      paid_by: secondFinance.email,
    });
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 140_000n, held: 10_000n, available: 130_000n });
    expect((await auditRows(db(), 'fiat_withdrawal', large)).map((r) => [r.action, r.staff_id])).toEqual([
      ['fiat.withdrawal_approved', finance.id],
      ['fiat.withdrawal_paid', secondFinance.id],
    ]);
    await expectFiatLedgerToHold(db());
  });

  it('staff verify a bank account by hand, once', async () => {
    const customer = await liveCustomer(t);
    const created = await customer.browser.post('/api/v1/bank-account/create', GBP_ACCOUNT);
    const id = created.json<{ data: { id: number } }>().data.id;
    const listed = await finance.browser.get(`/api/admin/fiat/customers/${customer.id}/bank-accounts`);
    expect(listed.json<{ data: { id: number; verified: boolean }[] }>().data).toEqual([
      expect.objectContaining({ id, verified: false }),
    ]);
    const verified = await finance.browser.post(`/api/admin/fiat/bank-accounts/${id}/verify`, {
      reason: 'Bank statement in the customer’s name seen.',
    });
    expect(verified.statusCode).toBe(200);
    const again = await finance.browser.post(`/api/admin/fiat/bank-accounts/${id}/verify`, {
      reason: 'again',
    });
    expect(again.statusCode).toBe(409);
    const after = await finance.browser.get(`/api/admin/fiat/customers/${customer.id}/bank-accounts`);
    expect(after.json<{ data: unknown[] }>().data).toEqual([
      expect.objectContaining({ id, verified: true, verified_by: 'staff' }),
    ]);
    expect((await auditRows(db(), 'bank_account', id)).map((row) => row.action)).toEqual([
      'fiat.bank_account_verified',
    ]);
  });

  it('the ledger check catches a withdrawal whose status does not match its hold (invariant 8)', async () => {
    const customer = await readyCustomer(t);
    const id = await requestWithdrawal(customer, '50');
    await db().updateTable('fiat_withdrawals').set({ status: 'rejected' }).where('id', '=', id).execute();
    const broken = await checkLedger(db(), [fiatDomainCheck]);
    expect(broken.violations).toEqual([
      { invariant: 8, message: `fiat: withdrawal ${id} is rejected but its hold is pending with 0 journals` },
    ]);
    await db().updateTable('fiat_withdrawals').set({ status: 'pending' }).where('id', '=', id).execute();
    await expectFiatLedgerToHold(db());
  });
});
