import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminFiatDepositSchema, pageSchema } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  answersOtherThanNotFound,
  callEveryAdminRoute,
  signedInStaff,
  type SignedInStaff,
} from '../../test/admin.js';
import { auditRows, mailSubjects } from '../compliance/customers.test-kit.js';
import {
  balanceOf,
  errorOf,
  expectFiatLedgerToHold,
  GBP_ACCOUNT,
  houseBalance,
  liveCustomer,
} from './fiat.test-kit.js';

let t: TestApp;
let finance: SignedInStaff;
let support: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  support = await signedInStaff(t.app, t.database.db, 'support');
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
let transactions = 0;
const transactionId = () => `TX-${Date.now()}-${(transactions += 1)}`;

describe('who may use the fiat back office', () => {
  it('answers 404 to other roles, customers and the anonymous on every fiat route', async () => {
    const fiatOnly = (answers: Awaited<ReturnType<typeof callEveryAdminRoute>>) =>
      answers.filter((answer) => answer.route.includes('/api/admin/fiat'));
    const asSupport = fiatOnly(await callEveryAdminRoute(t.app, support.browser));
    expect(asSupport.length).toBeGreaterThan(10);
    expect(answersOtherThanNotFound(asSupport)).toEqual([]);
    const customer = await liveCustomer(t);
    expect(answersOtherThanNotFound(fiatOnly(await callEveryAdminRoute(t.app, customer.browser)))).toEqual(
      [],
    );
    expect(answersOtherThanNotFound(fiatOnly(await callEveryAdminRoute(t.app)))).toEqual([]);
  });
});

describe('deposit details', () => {
  it('finance edits them per currency; customers see them; the change is audited', async () => {
    const saved = await finance.browser.put('/api/admin/fiat/settings/GBP', {
      account_name: 'Florin Client Money',
      account_number: '00112233',
      sort_code: '04-00-04',
      bank_name: 'ClearBank',
      iban: '',
      bic: '',
      second_approval_from: '5000',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await finance.browser.put('/api/admin/fiat/settings/EUR', {
      account_name: 'Florin Ltd',
      account_number: '',
      sort_code: '',
      bank_name: '',
      iban: 'GB33BUKB20201555555555',
      bic: 'BUKBGB22',
      second_approval_from: '5000',
    });
    const customer = await liveCustomer(t);
    const info = await customer.browser.get('/api/v1/bank-account/deposit');
    expect(info.json()).toEqual({
      data: {
        'Account Name': 'Florin Client Money',
        'Account Number': '00112233',
        'Sort Code': '04-00-04',
        Bank: 'ClearBank',
        reference: customer.reference,
        international: [
          { currency: 'EUR', company_name: 'Florin Ltd', bic: 'BUKBGB22', iban: 'GB33BUKB20201555555555' },
          { currency: 'USD', company_name: '', bic: '', iban: '' },
        ],
      },
    });
    const audit = await auditRows(db(), 'fiat_bank_settings', 'GBP');
    expect(audit.at(-1)).toMatchObject({ action: 'fiat.settings_updated', staff_id: finance.id });
  });
});

describe('incoming bank transfers', () => {
  it('credits a transfer recorded by hand when reference and name match, verifies the account, and mails the customer', async () => {
    const customer = await liveCustomer(t);
    const created = await customer.browser.post('/api/v1/bank-account/create', GBP_ACCOUNT);
    const accountId = created.json<{ data: { id: number } }>().data.id;
    const bankBefore = await houseBalance(t, 'bank');
    const response = await finance.browser.post('/api/admin/fiat/deposits', {
      currency: 'GBP',
      amount: '250.50',
      payer_name: 'MS G HOPPER',
      // From the account the customer registered: the money proves it is theirs (decision 132).
      payer_sort_code: GBP_ACCOUNT.bank_sort_code,
      payer_account_number: GBP_ACCOUNT.bank_account_number,
      reference: `Deposit ${customer.reference.toLowerCase()}`,
      bank_transaction_id: transactionId(),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ data: { outcome: string; deposit: unknown }; message: string }>();
    expect(body.data.outcome).toBe('credited');
    expect(AdminFiatDepositSchema.parse(body.data.deposit)).toMatchObject({
      status: 'credited',
      user_id: customer.id,
    });
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 25_050n, held: 0n, available: 25_050n });
    expect((await houseBalance(t, 'bank')) - bankBefore).toBe(-25_050n);
    const account = await db()
      .selectFrom('bank_accounts')
      .select('verified_by')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(account.verified_by).toBe('deposit');
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your deposit has arrived'),
    );
    const activity = await customer.browser.get('/api/v1/fiat/transactions');
    expect(activity.json<{ data: { type: string; amount: string }[] }>().data[0]).toMatchObject({
      type: 'deposit',
      amount: '250.50',
    });

    // New details are not vouched for by the customer's next deposit: finance verifies them.
    const changed = await customer.browser.put('/api/v1/bank-account/update', {
      ...GBP_ACCOUNT,
      id: accountId,
      bank_account_number: '87654321',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const again = await finance.browser.post('/api/admin/fiat/deposits', {
      currency: 'GBP',
      amount: '10.00',
      payer_name: 'MS G HOPPER',
      payer_sort_code: GBP_ACCOUNT.bank_sort_code,
      payer_account_number: '87654321',
      reference: `Deposit ${customer.reference.toLowerCase()}`,
      bank_transaction_id: transactionId(),
    });
    expect(again.json<{ data: { outcome: string } }>().data.outcome).toBe('credited');
    expect(
      (
        await db()
          .selectFrom('bank_accounts')
          .select('verified_at')
          .where('id', '=', accountId)
          .executeTakeFirstOrThrow()
      ).verified_at,
    ).toBeNull();
    await expectFiatLedgerToHold(db());
  });

  it('imports a statement: matched lines credited, others to suspense; a second import credits nothing again', async () => {
    const alice = await liveCustomer(t, { firstName: 'Alice', lastName: 'Liddell' });
    const bob = await liveCustomer(t, { firstName: 'Bob', lastName: 'Marley' });
    const ids = [transactionId(), transactionId(), transactionId(), transactionId(), transactionId()];
    const csv = [
      'Posted,Value,Description,Counterparty,Bank Ref',
      `2026-11-20,"1,000.00",${alice.reference},Alice Liddell,${ids[0]}`,
      `2026-11-20,42.00,NO SUCH REF 123,Someone Else,${ids[1]}`,
      `2026-11-21,75.00,${bob.reference},Charlie Smith,${ids[2]}`,
      `2026-11-21,-20.00,card payment,Shop,${ids[3]}`,
      `2026-11-22,12.345,${alice.reference},Alice Liddell,${ids[4]}`,
      '',
    ].join('\r\n');
    const mapping = {
      date: 'Posted',
      amount: 'Value',
      reference: 'Description',
      payer: 'Counterparty',
      transaction_id: 'Bank Ref',
    };
    const suspenseBefore = await houseBalance(t, 'suspense');
    const first = await finance.browser.post('/api/admin/fiat/deposits/import', {
      currency: 'GBP',
      csv,
      mapping,
    });
    expect(first.statusCode, first.body).toBe(200);
    const result = first.json<{
      data: { lines: { outcome: string; line: number }[] } & Record<string, number>;
    }>().data;
    expect(result).toMatchObject({ credited: 1, suspense: 2, duplicates: 0, skipped: 1, invalid: 1 });
    expect(result.lines.map((line) => [line.line, line.outcome])).toEqual([
      [2, 'credited'],
      [3, 'suspense'],
      [4, 'suspense'],
      [5, 'skipped'],
      [6, 'invalid'],
    ]);
    expect((await balanceOf(t, alice.id)).available).toBe(100_000n);
    expect((await balanceOf(t, bob.id)).available).toBe(0n);
    expect((await houseBalance(t, 'suspense')) - suspenseBefore).toBe(11_700n);

    const second = await finance.browser.post('/api/admin/fiat/deposits/import', {
      currency: 'GBP',
      csv,
      mapping,
    });
    expect(second.json<{ data: Record<string, number> }>().data).toMatchObject({
      credited: 0,
      suspense: 0,
      duplicates: 3,
    });
    expect((await balanceOf(t, alice.id)).available).toBe(100_000n);
    expect((await houseBalance(t, 'suspense')) - suspenseBefore).toBe(11_700n);

    const suspense = await finance.browser.get('/api/admin/fiat/deposits?status=suspense');
    const page = pageSchema(AdminFiatDepositSchema).parse(suspense.json());
    const mine = page.data.filter((deposit) => ids.includes(deposit.bank_transaction_id));
    expect(mine.map((deposit) => [deposit.suspense_reason, deposit.user_id])).toEqual([
      ['unmatched', null],
      ['name_mismatch', bob.id],
    ]);
    await expectFiatLedgerToHold(db());
  });

  it('names a column the statement does not have', async () => {
    const response = await finance.browser.post('/api/admin/fiat/deposits/import', {
      currency: 'GBP',
      csv: 'date,amount,reference,payer\n2026-11-20,10.00,FLX,Someone\n',
    });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).errors).toEqual({
      'mapping.transaction_id': ['The file has no column named "transaction_id".'],
    });
  });

  it('staff assign a transfer in suspense to a customer, or return it; each once, audited', async () => {
    const customer = await liveCustomer(t);
    const unmatched = async () => {
      const response = await finance.browser.post('/api/admin/fiat/deposits', {
        currency: 'GBP',
        amount: '60',
        payer_name: 'Unknown Payer',
        reference: 'no reference',
        bank_transaction_id: transactionId(),
      });
      expect(response.json<{ data: { outcome: string } }>().data.outcome).toBe('suspense');
      return response.json<{ data: { deposit: { id: string } } }>().data.deposit.id;
    };
    const toAssign = await unmatched();
    const assigned = await finance.browser.post(`/api/admin/fiat/deposits/${toAssign}/assign`, {
      user_id: customer.id,
      reason: 'Customer sent proof of the transfer.',
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json<{ data: { status: string } }>().data.status).toBe('credited');
    expect((await balanceOf(t, customer.id)).available).toBe(6_000n);
    const twice = await finance.browser.post(`/api/admin/fiat/deposits/${toAssign}/assign`, {
      user_id: customer.id,
      reason: 'again',
    });
    expect(twice.statusCode).toBe(409);

    const toReturn = await unmatched();
    const bankBefore = await houseBalance(t, 'bank');
    const returned = await finance.browser.post(`/api/admin/fiat/deposits/${toReturn}/return`, {
      reason: 'Sent back: payer unknown.',
    });
    expect(returned.statusCode).toBe(200);
    expect(returned.json<{ data: { status: string } }>().data.status).toBe('returned');
    expect((await houseBalance(t, 'bank')) - bankBefore).toBe(6_000n);
    expect((await auditRows(db(), 'fiat_deposit', toAssign)).map((row) => row.action)).toEqual([
      'fiat.deposit_recorded',
      'fiat.deposit_assigned',
    ]);
    await expectFiatLedgerToHold(db());
  });
});
