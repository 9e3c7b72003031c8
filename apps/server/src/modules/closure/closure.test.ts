import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSURE_TEXTS, ERROR_CODES } from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { createLocalStorage } from '../../adapters/storage/local-storage.js';
import { hashPassword } from '../../security/passwords.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser, mailTo } from '../../test/browser.js';
import { bankDeposit, coinDeposit } from '../../test/deposits.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { insertDocument } from '../compliance/customers.test-kit.js';
import { createNotifier } from '../notifications/service.js';
import {
  errorOf,
  GBP_ACCOUNT,
  liveCustomer,
  readyBankAccount,
  withdraw,
  type FiatCustomer as Customer,
} from '../fiat/fiat.test-kit.js';
import { createClosureRepository } from './repository.js';
import { addMonths, createClosureService } from './service.js';

const PASSWORD = 'Orchard-Velvet-Compass-19';
let t: TestApp;
let compliance: SignedInStaff;
let paths: MoneyPaths;

beforeAll(async () => {
  t = await createTestApp();
  compliance = await signedInStaff(t.app, t.database.db, 'compliance');
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await expectLedgerToHold(t.database.db);
});

const db = () => t.database.db;

async function customerWithPassword(options: { verification?: boolean } = {}): Promise<Customer> {
  const customer = await liveCustomer(t, options);
  await db()
    .updateTable('users')
    .set({ password_hash: await hashPassword(PASSWORD) })
    .where('id', '=', customer.id)
    .execute();
  return customer;
}

function signIn(email: string) {
  const browser = createBrowser(t.app);
  return browser
    .captcha()
    .then((altcha) => browser.post('/api/v1/login', { username: email, password: PASSWORD, altcha }));
}

function drive(mid: string) {
  return t.app.inject({ method: 'POST', url: '/dev/market/drive', payload: { symbol: 'BTC/GBP', mid } });
}

/** Moves the customer's termination dates back, as if the notice period had run. */
async function ageTermination(userId: number, days: number) {
  const user = await db()
    .selectFrom('users')
    .select(['termination_notice_at', 'terminated_at', 'access_ends_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const back = (date: Date | null) => (date ? new Date(date.getTime() - days * 86_400_000) : null);
  await db()
    .updateTable('users')
    .set({
      termination_notice_at: back(user.termination_notice_at),
      terminated_at: back(user.terminated_at),
      access_ends_at: back(user.access_ends_at),
    })
    .where('id', '=', userId)
    .execute();
}

describe('closing an account', () => {
  it('a customer who still holds money cannot close; the wrong password changes nothing; an empty account closes and can no longer sign in', async () => {
    const customer = await customerWithPassword();
    await readyBankAccount(t, customer);
    await bankDeposit(t, customer, '25.00');

    const wrong = await customer.browser.post('/api/v1/account/close', { password: 'not-my-password' });
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong).errors).toEqual({ password: ['The password is incorrect.'] });
    const notEmpty = await customer.browser.post('/api/v1/account/close', { password: PASSWORD });
    expect(notEmpty.statusCode).toBe(409);
    expect(errorOf(notEmpty).message).toBe(CLOSURE_TEXTS.closeNotEmpty);
    expect((await customer.browser.get('/api/v1/user')).statusCode).toBe(200);

    // The money goes back out to the bank, and the account is empty.
    await paths.payWithdrawal((await paths.fiatWithdrawal(customer, '25.00')).id);
    const closed = await customer.browser.post('/api/v1/account/close', { password: PASSWORD });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json<{ message: string }>().message).toBe(CLOSURE_TEXTS.closed);
    expect((await customer.browser.get('/api/v1/user')).statusCode).toBe(401);
    const login = await signIn(customer.email);
    expect(login.statusCode).toBe(403);
    expect(errorOf(login)).toMatchObject({
      code: 'ACCOUNT_CLOSED',
      message: ERROR_CODES.ACCOUNT_CLOSED.message,
    });
    expect((await mailTo(db(), customer.email)).map((mail) => mail.subject)).toContain(
      'Your Florin account is closed — Florin',
    );
  });
});

describe('termination by the firm', () => {
  it("gives a month's notice by e-mail; then the customer may only read and withdraw, for 60 days; then nobody signs in", async () => {
    const customer = await customerWithPassword();
    await readyBankAccount(t, customer);
    await bankDeposit(t, customer, '10000.00');
    expect((await drive('50000')).statusCode).toBe(200);

    const before = Date.now();
    const answer = await compliance.browser.post(`/api/admin/customers/${customer.id}/terminate`, {
      reason: 'Repeated breaches of the terms.',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const { terminated_at: terminatedAt, access_ends_at: accessEndsAt } = answer.json<{
      data: { terminated_at: string; access_ends_at: string };
    }>().data;
    const { termination_notice_at: noticeAt } = await db()
      .selectFrom('users')
      .select('termination_notice_at')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(noticeAt!.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(terminatedAt)).toBe(addMonths(noticeAt!, 1).getTime());
    expect(Date.parse(accessEndsAt) - Date.parse(terminatedAt)).toBe(60 * 86_400_000);
    const mails = await mailTo(db(), customer.email);
    expect(mails.map((mail) => mail.subject)).toContain('Notice that your Florin account will end — Florin');
    const again = await compliance.browser.post(`/api/admin/customers/${customer.id}/terminate`, {
      reason: 'Twice.',
    });
    expect(again.statusCode).toBe(409);
    const audit = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', String(customer.id))
      .where('action', '=', 'user.terminated')
      .execute();
    expect(audit).toHaveLength(1);

    // During the notice the account works as before.
    const quote = () =>
      customer.browser.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', quantity: '0.01' });
    expect((await quote()).statusCode).toBe(200);
    const user = await customer.browser.get('/api/v1/user');
    expect(user.json<{ data: { terminated_at: string } }>().data.terminated_at).toBe(terminatedAt);

    // After the notice: reading and withdrawing only.
    await ageTermination(customer.id, 31);
    const refused = await quote();
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('ACCOUNT_TERMINATED');
    const bank = await customer.browser.put('/api/v1/bank-account/update', GBP_ACCOUNT);
    expect(errorOf(bank).code).toBe('ACCOUNT_TERMINATED');
    expect((await customer.browser.get('/api/v1/balance')).statusCode).toBe(200);
    // Withdrawing is what remains: the money leaves to the bank account registered before.
    const withdrawal = await withdraw(customer, { amount: '100' });
    expect(withdrawal.statusCode, withdrawal.body).toBe(200);

    // 60 days on: the session no longer works and sign-in is refused.
    await ageTermination(customer.id, 61);
    expect((await customer.browser.get('/api/v1/user')).statusCode).toBe(401);
    expect(errorOf(await signIn(customer.email)).code).toBe('ACCOUNT_CLOSED');
  });

  it('ends a term deposit that would outlast the notice when the account becomes withdraw-only, with the interest for the time held', async () => {
    const customer = await customerWithPassword();
    await coinDeposit(t, customer, 'eth', '1');
    const coins = await customer.browser.get('/api/v1/term-deposit-coins');
    const options = coins
      .json<{ data: { coin_id: string; options: { id: number; no_days: number }[] }[] }>()
      .data.find((coin) => coin.coin_id === 'eth')?.options;
    const lock = async (days: number) => {
      const response = await customer.browser.post(
        '/api/v1/crypto/term-deposit',
        { coin: 'eth', amount: '0.1', day: options?.find((option) => option.no_days === days)?.id },
        { headers: { 'idempotency-key': `lock-${days}-${customer.id}` } },
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { id: string } }>().data.id;
    };
    const [long, short] = [await lock(180), await lock(30)];
    // The short one ends well before the notice does.
    const soon = new Date(Date.now() + 86_400_000);
    await db().updateTable('term_deposits').set({ matures_at: soon }).where('id', '=', short).execute();
    const deposit = (id: string) =>
      db()
        .selectFrom('term_deposits')
        .select(['starts_at', 'matures_at', 'interest', 'status'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const before = await deposit(long);

    const answer = await compliance.browser.post(`/api/admin/customers/${customer.id}/terminate`, {
      reason: 'Repeated breaches of the terms.',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const terminatedAt = new Date(answer.json<{ data: { terminated_at: string } }>().data.terminated_at);

    const after = await deposit(long);
    expect(after.matures_at.getTime()).toBe(terminatedAt.getTime());
    // 0.00225 ETH for 180 days; for the month held, in proportion, floored to 8 decimals.
    const held = BigInt(terminatedAt.getTime() - before.starts_at.getTime());
    const term = BigInt(before.matures_at.getTime() - before.starts_at.getTime());
    const prorated = (BigInt(before.interest) * held) / term;
    expect(BigInt(after.interest)).toBe(prorated - (prorated % 10_000_000_000n));
    expect(BigInt(after.interest)).toBeLessThan(BigInt(before.interest));
    expect(after.status).toBe('live');
    expect((await deposit(short)).matures_at.getTime()).toBe(soon.getTime());
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('target_type', '=', 'term_deposit')
      .where('target_id', '=', long)
      .execute();
    expect(audit).toEqual([
      {
        action: 'term_deposit.ended_by_termination',
        after: { matures_at: terminatedAt.toISOString(), interest: after.interest },
      },
    ]);
  });

  it('only compliance terminates; another role or a customer finds no such route', async () => {
    const customer = await liveCustomer(t);
    const support = await signedInStaff(t.app, db(), 'support');
    const url = `/api/admin/customers/${customer.id}/terminate`;
    expect((await support.browser.post(url, { reason: 'No reason' })).statusCode).toBe(404);
    expect((await customer.browser.post(url, { reason: 'No reason' })).statusCode).toBe(404);
    expect(
      (await compliance.browser.post('/api/admin/customers/2147483000/terminate', { reason: 'Nobody' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('the retention job', () => {
  it('erases personal data five years after access ended, keeps the money records, and spares a customer on legal hold', async () => {
    // Each with one document, in this test's storage.
    const gone = await customerWithPassword({ verification: false });
    const held = await customerWithPassword({ verification: false });
    const recent = await customerWithPassword({ verification: false });
    const storage = createLocalStorage(mkdtempSync(path.join(os.tmpdir(), 'florin-retention-')));
    const keys = new Map<number, string>();
    for (const customer of [gone, held, recent]) {
      const key = await storage.put(Buffer.from('passport scan'), 'image/png');
      keys.set(customer.id, key);
      await insertDocument(db(), customer.id, { key: 'passport', storageKey: key });
      expect((await customer.browser.post('/api/v1/account/close', { password: PASSWORD })).statusCode).toBe(
        200,
      );
    }
    const hold = await compliance.browser.post(`/api/admin/customers/${held.id}/legal-hold`, {
      reason: 'Court order 2031/77.',
    });
    expect(hold.statusCode, hold.body).toBe(200);
    expect(hold.json<{ message: string }>().message).toBe(CLOSURE_TEXTS.legalHoldSet);
    // Five years and a day ago for two of them; the third closed today.
    for (const customer of [gone, held]) await ageTermination(customer.id, 5 * 366 + 1);

    const closure = createClosureService({
      db: db(),
      repository: createClosureRepository(db()),
      // Erasure only: nothing is terminated here.
      termDeposits: { endByTermination: () => Promise.resolve(0) },
      notifier: createNotifier({ db: db(), mailer: createDevMailbox(db()), log: t.app.log }),
      storage,
      log: t.app.log,
    });
    expect(await closure.eraseExpired()).toBe(1);
    const rows = await db()
      .selectFrom('users')
      .select(['id', 'first_name', 'email', 'birthdate', 'personal_data_erased_at'])
      .where('id', 'in', [gone.id, held.id, recent.id])
      .orderBy('seq')
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(gone.id)).toMatchObject({
      first_name: 'Erased',
      email: `erased-${gone.id}@erased.invalid`,
      birthdate: null,
    });
    expect(byId.get(gone.id)!.personal_data_erased_at).not.toBeNull();
    expect(byId.get(held.id)).toMatchObject({ email: held.email, personal_data_erased_at: null });
    expect(byId.get(recent.id)).toMatchObject({ email: recent.email, personal_data_erased_at: null });
    const documents = await db()
      .selectFrom('kyc_documents')
      .select('user_id')
      .where('user_id', 'in', [gone.id, held.id])
      .execute();
    expect(documents.map((row) => row.user_id)).toEqual([held.id]);
    expect(await storage.get(keys.get(gone.id)!)).toBeNull();
    expect(await storage.get(keys.get(held.id)!)).not.toBeNull();
    // The mails they were sent (each keeps its address) go with the rest; the held customer's stay.
    const mails = await db()
      .selectFrom('mail_outbox')
      .select('user_id')
      .distinct()
      .where('user_id', 'in', [gone.id, held.id])
      .execute();
    expect(mails.map((row) => row.user_id)).toEqual([held.id]);
    // Run again: nothing more to do. Lifting the hold lets the next pass erase the held one too.
    expect(await closure.eraseExpired()).toBe(0);
    expect(
      (await compliance.browser.post(`/api/admin/customers/${held.id}/legal-hold`, { reason: null }))
        .statusCode,
    ).toBe(200);
    expect(await closure.eraseExpired()).toBe(1);
  });
});
