import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BankAccountSchema,
  FIAT_TEXTS,
  FiatActivitySchema,
  FiatWithdrawalSchema,
  pageSchema,
} from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { freshTotpCode } from '../../test/admin.js';
import { bankDeposit } from '../../test/deposits.js';
import { mailSubjects } from '../compliance/customers.test-kit.js';
import {
  balanceOf,
  errorOf,
  expectFiatLedgerToHold,
  GBP_ACCOUNT,
  liveCustomer,
  mailedCode,
  newIdempotencyKey,
  readyBankAccount,
  readyCustomer,
  withdraw,
} from './fiat.test-kit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

describe('bank account registration', () => {
  it('registers a GBP account once, shows it, and checks sort code and account number formats', async () => {
    const customer = await liveCustomer(t);
    const empty = await customer.browser.get('/api/v1/bank-account/details');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ data: null, accounts: [] });

    const bad = await customer.browser.post('/api/v1/bank-account/create', {
      ...GBP_ACCOUNT,
      bank_sort_code: '12345',
      bank_account_number: '1234567X',
    });
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad).errors).toEqual({
      bank_sort_code: [FIAT_TEXTS.sortCodeInvalid],
      bank_account_number: [FIAT_TEXTS.accountNumberInvalid],
    });
    const noName = await customer.browser.post('/api/v1/bank-account/create', {
      ...GBP_ACCOUNT,
      name_of_account: ' ',
    });
    expect(errorOf(noName).errors).toEqual({ name_of_account: [FIAT_TEXTS.nameRequired] });

    const created = await customer.browser.post('/api/v1/bank-account/create', GBP_ACCOUNT);
    expect(created.statusCode).toBe(200);
    const body = created.json<{ data: unknown; message: string }>();
    expect(body.message).toBe(FIAT_TEXTS.bankAccountAdded);
    const account = BankAccountSchema.parse(body.data);
    expect(account).toMatchObject({
      name_of_account: 'Grace Hopper',
      bank_sort_code: '123456',
      bank_account_number: '12345678',
      currency_code: 'GBP',
      international_iban: null,
      currency_symbol_str: '£',
      verified: false,
    });
    expect(account.withdrawals_allowed_from).not.toBeNull();

    const again = await customer.browser.post('/api/v1/bank-account/create', GBP_ACCOUNT);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(FIAT_TEXTS.bankAccountExists);

    const details = await customer.browser.get('/api/v1/bank-account/details');
    expect(details.json<{ data: { id: number } }>().data.id).toBe(account.id);
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('A bank account was added'),
    );
  });

  it('takes EUR with a valid IBAN (mod 97) and BIC, and says which is wrong', async () => {
    const customer = await liveCustomer(t);
    const base = { name_of_account: 'Grace Hopper', currency_code: 'EUR', bank_sort_code: '' };
    const wrongIban = await customer.browser.post('/api/v1/bank-account/create', {
      ...base,
      bank_account_number: 'DEUTDEFF',
      international_iban: 'DE89 3704 0044 0532 0130 01',
    });
    expect(errorOf(wrongIban).errors).toEqual({ international_iban: [FIAT_TEXTS.ibanInvalid] });
    const wrongBic = await customer.browser.post('/api/v1/bank-account/create', {
      ...base,
      bank_account_number: 'DEUT1',
      international_iban: 'DE89 3704 0044 0532 0130 00',
    });
    expect(errorOf(wrongBic).errors).toEqual({ bank_account_number: [FIAT_TEXTS.bicInvalid] });
    const missing = await customer.browser.post('/api/v1/bank-account/create', {
      ...base,
      bank_account_number: 'DEUTDEFF',
    });
    expect(errorOf(missing).errors).toEqual({ international_iban: [FIAT_TEXTS.ibanRequired] });

    const ok = await customer.browser.post('/api/v1/bank-account/create', {
      ...base,
      bank_account_number: 'deutdeff',
      international_iban: 'DE89 3704 0044 0532 0130 00',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ data: unknown }>().data).toMatchObject({
      currency_code: 'EUR',
      bank_account_number: 'DEUTDEFF',
      bank_sort_code: 'DE89370400440532013000',
      international_iban: 'DE89370400440532013000',
      currency_symbol_str: '€',
    });
    const eur = await customer.browser.get('/api/v1/bank-account/details?currency_code=EUR');
    expect(eur.json<{ data: { currency_code: string } }>().data.currency_code).toBe('EUR');
  });

  it('resets verification and starts the 24-hour wait when details change; same details change nothing', async () => {
    const customer = await liveCustomer(t);
    const id = await readyBankAccount(t, customer);
    const same = await customer.browser.put('/api/v1/bank-account/update', { ...GBP_ACCOUNT, id });
    expect(same.statusCode).toBe(200);
    expect(same.json<{ data: { verified: boolean } }>().data.verified).toBe(true);

    const changed = await customer.browser.put('/api/v1/bank-account/update', {
      ...GBP_ACCOUNT,
      id,
      bank_account_number: '87654321',
    });
    expect(changed.statusCode).toBe(200);
    const body = changed.json<{ data: unknown; message: string }>();
    expect(body.message).toBe(FIAT_TEXTS.bankAccountUpdated);
    const account = BankAccountSchema.parse(body.data);
    expect(account.verified).toBe(false);
    expect(new Date(account.withdrawals_allowed_from ?? 0).getTime()).toBeGreaterThan(
      Date.now() + 23 * 3_600_000,
    );
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your bank account was changed'),
    );
  });

  it("never shows or changes another customer's bank account", async () => {
    const owner = await liveCustomer(t);
    const id = await readyBankAccount(t, owner);
    const stranger = await liveCustomer(t);
    const update = await stranger.browser.put('/api/v1/bank-account/update', { ...GBP_ACCOUNT, id });
    expect(update.statusCode).toBe(404);
    const details = await stranger.browser.get('/api/v1/bank-account/details');
    expect(details.json()).toEqual({ data: null, accounts: [] });
  });

  it('shows the deposit details with the customer’s reference', async () => {
    const customer = await liveCustomer(t);
    const response = await customer.browser.get('/api/v1/bank-account/deposit');
    expect(response.statusCode).toBe(200);
    const data = response.json<{ data: Record<string, unknown> }>().data;
    expect(data.reference).toBe(customer.reference);
    expect(Object.keys(data)).toEqual(
      expect.arrayContaining(['Account Name', 'Account Number', 'Sort Code', 'Bank', 'international']),
    );
  });

  it('keeps the deposit details from a customer who may not deposit: not live, or on hold', async () => {
    const pending = await liveCustomer(t, { live: false });
    const held = await liveCustomer(t);
    await t.database.db.updateTable('users').set({ block_status: 2 }).where('id', '=', held.id).execute();
    for (const customer of [pending, held]) {
      const response = await customer.browser.get('/api/v1/bank-account/deposit');
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'ACCOUNT_NOT_LIVE' });
      expect(response.body).not.toContain(customer.reference);
    }
  });

  it('is only for signed-in customers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/bank-account/details' });
    expect(response.statusCode).toBe(401);
  });
});

describe('fiat withdraw: every check with the spec’s text', () => {
  it('refuses a customer who is not live', async () => {
    const customer = await liveCustomer(t, { live: false });
    const response = await withdraw(customer, { amount: '50' });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response)).toMatchObject({
      code: 'ACCOUNT_NOT_LIVE',
      message: 'Your account is not live!',
    });
  });

  it('refuses a customer on hold', async () => {
    const customer = await readyCustomer(t);
    await db().updateTable('users').set({ block_status: 2 }).where('id', '=', customer.id).execute();
    const response = await withdraw(customer, { amount: '50' });
    expect(errorOf(response).message).toBe(FIAT_TEXTS.accountNotLive);
  });

  it('refuses without a bank account, with an unverified one, and within 24 hours of a change', async () => {
    const customer = await liveCustomer(t);
    await bankDeposit(t, customer, '1000.00');
    const none = await withdraw(customer, { amount: '50' });
    expect(none.statusCode).toBe(422);
    expect(errorOf(none)).toMatchObject({
      code: 'BANK_ACCOUNT_NOT_SET',
      message: FIAT_TEXTS.bankAccountNotSet,
    });

    const created = await customer.browser.post('/api/v1/bank-account/create', GBP_ACCOUNT);
    const id = created.json<{ data: { id: number } }>().data.id;
    const unverified = await withdraw(customer, { amount: '50' });
    expect(unverified.statusCode).toBe(422);
    expect(errorOf(unverified).message).toBe(FIAT_TEXTS.bankAccountUnverified);

    await db()
      .updateTable('bank_accounts')
      .set({ verified_at: new Date(), verified_by: 'staff' })
      .where('id', '=', id)
      .execute();
    const waiting = await withdraw(customer, { amount: '50' });
    expect(waiting.statusCode).toBe(422);
    expect(errorOf(waiting).message).toContain(FIAT_TEXTS.bankDetailsChanged);
    // When, as a UK customer reads it: "… from 30 November 2026, 10:00 GMT.", not a timestamp.
    expect(errorOf(waiting).message).toMatch(/ from \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} (GMT|BST)\.$/);

    await db()
      .updateTable('bank_accounts')
      .set({ details_changed_at: sql<Date>`now() - interval '25 hours'` })
      .where('id', '=', id)
      .execute();
    const mismatch = await withdraw(customer, {
      amount: '50',
      bank_account_number: '11112222',
      bank_sort_code: '123456',
    });
    expect(errorOf(mismatch).message).toBe(FIAT_TEXTS.bankDetailsMismatch);
    const ok = await withdraw(customer, { amount: '50', ...GBP_ACCOUNT });
    expect(ok.statusCode, ok.body).toBe(200);
    await expectFiatLedgerToHold(db());
  });

  it('refuses empty, malformed, negative, zero amounts and too many decimals', async () => {
    const customer = await readyCustomer(t);
    const cases: [unknown, string][] = [
      ['', FIAT_TEXTS.enterAmount],
      ['   ', FIAT_TEXTS.enterAmount],
      ['10.123', FIAT_TEXTS.amountDecimals],
      ['-5', FIAT_TEXTS.amountPositive],
      ['-0.01', FIAT_TEXTS.amountPositive],
      ['0', FIAT_TEXTS.amountPositive],
      ['0.00', FIAT_TEXTS.amountPositive],
      ['1e3', FIAT_TEXTS.amountFormat],
      ['ten', FIAT_TEXTS.amountFormat],
    ];
    for (const [amount, message] of cases) {
      const response = await withdraw(customer, { amount });
      expect(response.statusCode, `${String(amount)}: ${response.body}`).toBe(422);
      expect(errorOf(response).errors).toEqual({ amount: [message] });
    }
    const absent = await withdraw(customer, {});
    expect(errorOf(absent).errors).toEqual({ amount: [FIAT_TEXTS.enterAmount] });
    expect((await balanceOf(t, customer.id)).held).toBe(0n);
  });

  it('refuses below the configured minimum and above the balance', async () => {
    const customer = await readyCustomer(t, 5_000n);
    const small = await withdraw(customer, { amount: '24.99' });
    expect(small.statusCode).toBe(400);
    expect(errorOf(small)).toMatchObject({
      code: 'WITHDRAWAL_REFUSED',
      message: 'Minimum GBP withdrawal amount is 25.00',
      data: { amount: 'Minimum GBP withdrawal amount is 25.00' },
    });
    const big = await withdraw(customer, { amount: '50.01' });
    expect(big.statusCode).toBe(400);
    expect(errorOf(big)).toMatchObject({
      message: FIAT_TEXTS.balanceTooLow,
      data: { amount: FIAT_TEXTS.balanceTooLow },
    });
  });

  it('needs an Idempotency-Key header', async () => {
    const customer = await readyCustomer(t);
    const response = await customer.browser.post('/api/v1/users/withdraw', { amount: '50' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(errorOf(response).errors ?? {})).toEqual(['Idempotency-Key']);
  });

  it('charges 5 below 10,000 and nothing from 10,000, holds the whole amount, and says Transaction Successful', async () => {
    const customer = await readyCustomer(t, 2_000_000n);
    const small = await withdraw(customer, { amount: '100' });
    expect(small.statusCode, small.body).toBe(200);
    const body = small.json<{ data: unknown; message: string }>();
    expect(body.message).toBe('Transaction Successful');
    expect(FiatWithdrawalSchema.parse(body.data)).toMatchObject({
      amount: '100.00',
      fee: '5.00',
      amount_receive: '95.00',
      status: 'pending',
      can_cancel: true,
      account_ending: '5678',
    });
    const large = await withdraw(customer, { amount: '10000' });
    expect(large.json<{ data: unknown }>().data).toMatchObject({ fee: '0.00', amount_receive: '10000.00' });
    const balance = await balanceOf(t, customer.id);
    expect(balance).toEqual({ posted: 2_000_000n, held: 1_010_000n, available: 990_000n });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your withdrawal request'),
    );
    await expectFiatLedgerToHold(db());
  });

  it('is idempotent: the same key returns the first withdrawal; with other details it is a 409', async () => {
    const customer = await readyCustomer(t);
    const key = newIdempotencyKey();
    const first = await withdraw(customer, { amount: '30' }, key);
    const second = await withdraw(customer, { amount: '30' }, key);
    expect(second.statusCode).toBe(200);
    expect(second.json<{ data: { id: string } }>().data.id).toBe(
      first.json<{ data: { id: string } }>().data.id,
    );
    const other = await withdraw(customer, { amount: '31' }, key);
    expect(other.statusCode).toBe(409);
    expect(errorOf(other).code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await balanceOf(t, customer.id)).held).toBe(3_000n);
    await expectFiatLedgerToHold(db());
  });

  it('makes exactly one of 50 concurrent withdrawals of the whole balance', async () => {
    const customer = await readyCustomer(t, 10_000n);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => withdraw(customer, { amount: '100' })),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(49);
    for (const response of responses.filter((r) => r.statusCode === 400))
      expect(errorOf(response).message).toBe(FIAT_TEXTS.balanceTooLow);
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 10_000n, held: 10_000n, available: 0n });
    const rows = await db()
      .selectFrom('fiat_withdrawals')
      .select('id')
      .where('user_id', '=', customer.id)
      .execute();
    expect(rows).toHaveLength(1);
    await expectFiatLedgerToHold(db());
  });

  it('lets the customer cancel a pending withdrawal (the hold is voided), once, and nobody else', async () => {
    const customer = await readyCustomer(t);
    const created = await withdraw(customer, { amount: '40' });
    const id = created.json<{ data: { id: string } }>().data.id;
    const stranger = await readyCustomer(t);
    const foreign = await stranger.browser.post(`/api/v1/users/withdraw/${id}/cancel`);
    expect(foreign.statusCode).toBe(404);

    const cancelled = await customer.browser.post(`/api/v1/users/withdraw/${id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<{ data: { status: string; can_cancel: boolean } }>().data).toMatchObject({
      status: 'cancelled',
      can_cancel: false,
    });
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 100_000n, held: 0n, available: 100_000n });
    const again = await customer.browser.post(`/api/v1/users/withdraw/${id}/cancel`);
    expect(again.statusCode).toBe(409);
    const unknown = await customer.browser.post('/api/v1/users/withdraw/999999999/cancel');
    expect(unknown.statusCode).toBe(404);
    await expectFiatLedgerToHold(db());
  });

  it('lists the customer’s own fiat activity, newest first', async () => {
    const customer = await readyCustomer(t);
    await withdraw(customer, { amount: '25' });
    await withdraw(customer, { amount: '26' });
    const other = await readyCustomer(t);
    await withdraw(other, { amount: '27' });
    const response = await customer.browser.get('/api/v1/fiat/transactions');
    expect(response.statusCode).toBe(200);
    const page = pageSchema(FiatActivitySchema).parse(response.json());
    // Oldest: the £1,000 bank transfer that funded the customer (readyCustomer).
    expect(page.data.map((item) => item.amount)).toEqual(['26.00', '25.00', '1000.00']);
    expect(page.data[0]).toMatchObject({ type: 'withdrawal', status_label: 'Pending' });
    expect(page.data[2]).toMatchObject({ type: 'deposit' });
  });

  it('shows the minimum, fee and available balance for the form', async () => {
    const customer = await readyCustomer(t, 12_345n);
    const response = await customer.browser.get('/api/v1/fiat/withdraw-info');
    expect(response.json()).toEqual({
      data: {
        currency: 'GBP',
        currency_symbol: '£',
        minimum: '25.00',
        fee: '5.00',
        fee_free_from: '10000.00',
        available: '123.45',
        passcode_required: false,
        email_codes: false,
        blocked_until: null,
      },
    });
  });
});

describe('fiat withdraw: the second factor', () => {
  it('mails a one-time code to a customer with e-mailed codes; it is needed, works once and only the newest', async () => {
    const customer = await readyCustomer(t);
    await db()
      .updateTable('users')
      .set({ platform_2fa_mobile: true })
      .where('id', '=', customer.id)
      .execute();

    const missing = await withdraw(customer, { amount: '30' });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing)).toMatchObject({
      message: 'Please provide 2FA Code.',
      data: { passcode: 'Please provide 2FA Code.' },
    });

    const sent = await customer.browser.post('/api/v1/mobile/request-2fa', { purpose: 'Fiat Withdraw(2fa)' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ message: '2fa passcode sent please check email!' });
    const oldCode = await mailedCode(db(), customer.email);
    await customer.browser.post('/api/v1/mobile/request-2fa', { purpose: 'Fiat Withdraw(2fa)' });
    const code = await mailedCode(db(), customer.email);

    if (oldCode !== code) {
      const old = await withdraw(customer, { amount: '30', passcode: oldCode });
      expect(errorOf(old).data).toEqual({ passcode: FIAT_TEXTS.wrongPasscode });
    }
    const ok = await withdraw(customer, { amount: '30', passcode: code });
    expect(ok.statusCode, ok.body).toBe(200);
    const reused = await withdraw(customer, { amount: '30', passcode: code });
    expect(reused.statusCode).toBe(400);
    expect(errorOf(reused).data).toEqual({ passcode: FIAT_TEXTS.wrongPasscode });
    await expectFiatLedgerToHold(db());
  });

  it('refuses an expired e-mailed code with the spec’s text', async () => {
    const customer = await readyCustomer(t);
    await db()
      .updateTable('users')
      .set({ platform_2fa_mobile: true })
      .where('id', '=', customer.id)
      .execute();
    await customer.browser.post('/api/v1/mobile/request-2fa', { purpose: 'Fiat Withdraw(2fa)' });
    const code = await mailedCode(db(), customer.email);
    await db()
      .updateTable('withdrawal_codes')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('user_id', '=', customer.id)
      .execute();
    const response = await withdraw(customer, { amount: '30', passcode: code });
    expect(errorOf(response).data).toEqual({ passcode: FIAT_TEXTS.codeExpired });
  });

  it('mails no code to a customer without e-mailed codes', async () => {
    const customer = await readyCustomer(t, 0n);
    const response = await customer.browser.post('/api/v1/mobile/request-2fa', {
      purpose: 'Fiat Withdraw(2fa)',
    });
    expect(response.statusCode).toBe(409);
    expect(errorOf(response).message).toBe(FIAT_TEXTS.emailCodesOff);
  });

  it('takes the authenticator code of a customer with 2FA, once', async () => {
    const customer = await readyCustomer(t);
    const generated = await customer.browser.get('/api/v1/two-factor-authentication/generate');
    expect(generated.statusCode, generated.body).toBe(200);
    const secret = generated.json<{ data: { secret: string } }>().data.secret;
    const toggled = await customer.browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: freshTotpCode(secret),
      disable_2fa: 0,
    });
    expect(toggled.statusCode, toggled.body).toBe(200);

    const missing = await withdraw(customer, { amount: '30' });
    expect(errorOf(missing).message).toBe(FIAT_TEXTS.passcodeRequired);
    const wrong = await withdraw(customer, { amount: '30', passcode: '000000' });
    expect(errorOf(wrong).data).toEqual({ passcode: FIAT_TEXTS.wrongPasscode });
    const code = freshTotpCode(secret);
    const ok = await withdraw(customer, { amount: '30', passcode: code });
    expect(ok.statusCode, ok.body).toBe(200);
    const replayedCode = await withdraw(customer, { amount: '30', passcode: code });
    expect(errorOf(replayedCode).data).toEqual({ passcode: FIAT_TEXTS.wrongPasscode });
    await expectFiatLedgerToHold(db());
  });
});
