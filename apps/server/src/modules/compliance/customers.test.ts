import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_TEXTS,
  COMPLIANCE_TEXTS,
  CRYPTO_WITHDRAW_TEXTS,
  CustomerProfileSchema,
  CustomerSummarySchema,
  FIAT_TEXTS,
  KYC_TEXTS,
  TEXT_RULE_TEXTS,
  LedgerLineSchema,
  NewApiTokenSchema,
  pageSchema,
  waitUntilText,
} from '@florin/contracts';
import { createKycTestApp, type KycTestApp } from '../kyc/kyc.test-kit.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { bankDeposit, coinDeposit } from '../../test/deposits.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import type { Browser } from '../../test/browser.js';
import { askForBtcWithdrawal } from '../crypto/crypto.test-kit.js';
import { balanceOf, errorOf, liveCustomer, readyBankAccount, withdraw } from '../fiat/fiat.test-kit.js';
import { createStorageFromConfig } from '../../adapters/storage/index.js';
import {
  auditRows,
  customerBrowser,
  customerWithTwoFactor,
  insertApprovedVerification,
  insertCustomer,
  insertDocument,
  mailSubjects,
} from './customers.test-kit.js';
import { isWithdrawalBlockedByTwoFactorReset } from './customer-service.js';
import { testClock } from '../../test/clock.js';

let t: KycTestApp;
let support: SignedInStaff;
let finance: SignedInStaff;

beforeAll(async () => {
  t = await createKycTestApp();
  support = await signedInStaff(t.app, t.database.db, 'support');
  finance = await signedInStaff(t.app, t.database.db, 'finance');
});
afterAll(async () => {
  await t.close();
});

const customersPage = pageSchema(CustomerSummarySchema);

describe('finding a customer', () => {
  it('searches by name, part of the e-mail address or the reference, for support and finance alike', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db, { firstName: 'Searchable', lastName: `Person${Date.now()}` });
    const other = await insertCustomer(db, { firstName: 'Someone', lastName: 'Else' });
    const local = customer.email.split('@')[0] as string;

    for (const q of [
      `searchable person${customer.email.length}`.slice(0, 10),
      local.slice(3, 20).toUpperCase(),
      customer.reference,
      customer.reference.toLowerCase(),
    ]) {
      const response = await support.browser.get(`/api/admin/customers?q=${encodeURIComponent(q)}`);
      expect(response.statusCode).toBe(200);
      const ids = customersPage.parse(response.json()).data.map((row) => row.id);
      expect(ids, q).toContain(customer.id);
      expect(ids, q).not.toContain(other.id);
    }
    const byFinance = await finance.browser.get(`/api/admin/customers?q=${customer.reference}`);
    expect(customersPage.parse(byFinance.json()).data).toEqual([
      expect.objectContaining({
        id: customer.id,
        email: customer.email,
        user_identification: customer.reference,
      }),
    ]);
  });

  it('takes % and _ literally and wants at least two characters', async () => {
    const none = await support.browser.get('/api/admin/customers?q=%25%25');
    expect(customersPage.parse(none.json()).total).toBe(0);
    const short = await support.browser.get('/api/admin/customers?q=a');
    expect(short.statusCode).toBe(422);
    expect(errorOf(short).errors).toEqual({ q: [COMPLIANCE_TEXTS.searchTooShort] });
  });
});

describe("a customer's page", () => {
  it('shows the profile with the security settings and verification state', async () => {
    const db = t.database.db;
    const { customer } = await customerWithTwoFactor(t.app, t.database.db);
    await insertDocument(db, customer.id, { key: 'passport', status: 'declined', note: 'Cut off.' });

    const response = await support.browser.get(`/api/admin/customers/${customer.id}`);
    expect(response.statusCode).toBe(200);
    const profile = CustomerProfileSchema.parse(response.json<{ data: unknown }>().data);
    expect(profile).toMatchObject({
      id: customer.id,
      email: customer.email,
      user_identification: customer.reference,
      email_verified: true,
      two_factor_enabled: true,
      recovery_codes_left: 10,
      email_codes: false,
      two_factor_reset_at: null,
      withdrawals_blocked_until: null,
      steps: { is_kyc_submitted: 1, denied_documents: 1 },
      documents: [
        expect.objectContaining({ label: 'Passport', status: 'declined', disapprove_note: 'Cut off.' }),
      ],
    });
    expect((await support.browser.get('/api/admin/customers/2147483000')).statusCode).toBe(404);
  });

  it('shows balances per asset as decimal strings, and the ledger history page by page', async () => {
    const customer = await liveCustomer(t);
    await bankDeposit(t, customer, '1234.56');
    await coinDeposit(t, customer, 'btc', '0.00000001');
    await coinDeposit(t, customer, 'eth', '1.000000000000000001');

    const balances = await finance.browser.get(`/api/admin/customers/${customer.id}/balances`);
    expect(balances.statusCode).toBe(200);
    expect(balances.json<{ data: unknown[] }>().data).toEqual(
      expect.arrayContaining([
        { asset: 'GBP', kind: 'available', posted: '1234.56', held: '0.00', available: '1234.56' },
        {
          asset: 'BTC',
          kind: 'available',
          posted: '0.00000001',
          held: '0.00000000',
          available: '0.00000001',
        },
        {
          asset: 'ETH',
          kind: 'available',
          posted: '1.000000000000000001',
          held: '0.000000000000000000',
          available: '1.000000000000000001',
        },
      ]),
    );

    const history = await finance.browser.get(`/api/admin/customers/${customer.id}/ledger`);
    expect(history.statusCode).toBe(200);
    const page = pageSchema(LedgerLineSchema).parse(history.json());
    expect(page.total).toBe(3);
    expect(page.data.map((line) => [line.asset, line.amount, line.balance_after, line.kind])).toEqual([
      ['ETH', '1.000000000000000001', '1.000000000000000001', 'crypto_deposit'],
      ['BTC', '0.00000001', '0.00000001', 'crypto_deposit'],
      ['GBP', '1234.56', '1234.56', 'fiat_deposit'],
    ]);
    await expectLedgerToHold(t.database.db);
  });

  it('lists the sessions still open, with address, browser and when last seen', async () => {
    const { customer, phone } = await customerWithTwoFactor(t.app, t.database.db);
    const response = await support.browser.get(`/api/admin/customers/${customer.id}/sessions`);
    expect(response.statusCode).toBe(200);
    const sessions = response.json<{ data: { ip: string; user_agent: string }[] }>().data;
    expect(sessions.map((session) => session.user_agent).sort()).toEqual(['Laptop browser', 'Phone browser']);
    expect(sessions.map((session) => session.ip)).toContain(phone.ip);
  });
});

describe('helping a customer', () => {
  it('resets 2FA after identity checks: no authenticator, no recovery codes, no sessions, withdrawals wait 24 hours', async () => {
    const db = t.database.db;
    const { customer, phone, laptop } = await customerWithTwoFactor(t.app, t.database.db);
    const path = `/api/admin/customers/${customer.id}/reset-2fa`;

    const noReason = await support.browser.post(path, {});
    expect(noReason.statusCode).toBe(422);
    expect(errorOf(noReason).errors).toEqual({ reason: [COMPLIANCE_TEXTS.reasonRequired] });

    const reason = 'Lost phone; identity checked by video call and passport.';
    const before = Date.now();
    const reset = await support.browser.post(path, { reason });
    expect(reset.statusCode).toBe(200);
    const answer = reset.json<{ message: string; data: unknown }>();
    expect(answer.message).toBe(COMPLIANCE_TEXTS.twoFactorReset);
    const profile = CustomerProfileSchema.parse(answer.data);
    expect(profile).toMatchObject({ two_factor_enabled: false, recovery_codes_left: 0 });
    const resetAt = Date.parse(profile.two_factor_reset_at ?? '');
    expect(resetAt).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(profile.withdrawals_blocked_until ?? '')).toBe(resetAt + 24 * 3_600_000);

    const row = await db
      .selectFrom('users')
      .select(['totp_secret_encrypted', 'totp_pending_secret_encrypted', 'two_factor_reset_at'])
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ totp_secret_encrypted: null, totp_pending_secret_encrypted: null });
    expect(isWithdrawalBlockedByTwoFactorReset(row, testClock.now())).toBe(true);
    const codes = await db
      .selectFrom('recovery_codes')
      .select('id')
      .where('user_id', '=', customer.id)
      .execute();
    expect(codes).toEqual([]);
    for (const browser of [phone, laptop]) expect((await browser.get('/api/v1/user')).statusCode).toBe(401);

    expect(await auditRows(db, 'user', customer.id)).toEqual([
      {
        action: 'user.two_factor_reset',
        staff_id: support.id,
        before: { two_factor_enabled: true, recovery_codes_left: 10 },
        after: {
          two_factor_enabled: false,
          recovery_codes_left: 0,
          two_factor_reset_at: row.two_factor_reset_at?.toISOString(),
          sessions_signed_out: 2,
          reason,
        },
        ip: support.browser.ip,
      },
    ]);
    expect(await mailSubjects(db, customer.email)).toEqual([
      'Your two-factor authentication was reset — Florin',
    ]);

    const again = await support.browser.post(path, { reason });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toMatchObject({ code: 'CONFLICT', message: COMPLIANCE_TEXTS.twoFactorNotOn });
  });

  it('switches e-mailed codes on and off; the same setting again changes nothing', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const path = `/api/admin/customers/${customer.id}/email-codes`;
    const reason = 'Customer cannot use an authenticator app (accessibility).';

    const on = await support.browser.post(path, { enabled: true, reason });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ message: COMPLIANCE_TEXTS.emailCodesOn, data: { email_codes: true } });
    const same = await support.browser.post(path, { enabled: true, reason });
    expect(same.json()).toMatchObject({
      message: COMPLIANCE_TEXTS.emailCodesUnchanged,
      data: { email_codes: true },
    });
    const off = await support.browser.post(path, { enabled: false, reason: 'Now uses an app.' });
    expect(off.json()).toMatchObject({
      message: COMPLIANCE_TEXTS.emailCodesOff,
      data: { email_codes: false },
    });

    // Switching off starts the pause too: the audit row records the time the user row now holds.
    const { two_factor_reset_at: pausedFrom } = await db
      .selectFrom('users')
      .select('two_factor_reset_at')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(await auditRows(db, 'user', customer.id)).toEqual([
      expect.objectContaining({
        action: 'user.email_codes_switched',
        before: { platform_2fa_mobile: false },
        after: { platform_2fa_mobile: true, two_factor_reset_at: expect.any(String) as string, reason },
      }),
      expect.objectContaining({
        action: 'user.email_codes_switched',
        before: { platform_2fa_mobile: true },
        after: {
          platform_2fa_mobile: false,
          two_factor_reset_at: pausedFrom?.toISOString(),
          reason: 'Now uses an app.',
        },
      }),
    ]);
    expect(await mailSubjects(db, customer.email)).toEqual([
      'Sign-in codes will come by email — Florin',
      'Sign-in codes by email are off — Florin',
    ]);
    const browser = await customerBrowser(t.app, db, customer.id);
    expect((await browser.get('/api/v1/user')).json()).toMatchObject({ data: { platform_2fa_mobile: 0 } });
  });

  it('makes crypto withdrawals wait 24 hours once e-mailed codes are on, as after a 2FA reset', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    await db
      .updateTable('users')
      .set({ status: 1, live_since: new Date() })
      .where('id', '=', customer.id)
      .execute();
    await insertApprovedVerification(db, createStorageFromConfig(t.config), customer.id);
    const browser = await customerBrowser(t.app, db, customer.id);
    const withdraw = () => askForBtcWithdrawal(browser);
    // Before the switch nothing waits: the request gets as far as the (empty) balance.
    const before = await withdraw();
    expect(before.statusCode, before.body).toBe(422);

    const start = Date.now();
    const on = await support.browser.post(`/api/admin/customers/${customer.id}/email-codes`, {
      enabled: true,
      reason: 'Customer cannot use an authenticator app (accessibility).',
    });
    expect(on.statusCode).toBe(200);
    const paused = await withdraw();
    expect(paused.statusCode, paused.body).toBe(403);

    const profile = CustomerProfileSchema.parse(on.json<{ data: unknown }>().data);
    const resetAt = Date.parse(profile.two_factor_reset_at ?? '');
    expect(resetAt).toBeGreaterThanOrEqual(start - 1_000);
    expect(Date.parse(profile.withdrawals_blocked_until ?? '')).toBe(resetAt + 24 * 3_600_000);
    const until = new Date(resetAt + 24 * 3_600_000).toISOString();
    expect(errorOf(paused)).toMatchObject({
      code: 'FORBIDDEN',
      message: waitUntilText(CRYPTO_WITHDRAW_TEXTS.securityWait, new Date(until)),
    });
  });

  it('makes withdrawals wait 24 hours once e-mailed codes are off too: without an authenticator nothing else guards them', async () => {
    const db = t.database.db;
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await bankDeposit(t, customer, '1000.00');
    const path = `/api/admin/customers/${customer.id}/email-codes`;
    const on = await support.browser.post(path, {
      enabled: true,
      reason: 'Customer cannot use an authenticator app (accessibility).',
    });
    expect(on.statusCode).toBe(200);
    // A day and an hour later: the wait that switching them on started is over.
    await db
      .updateTable('users')
      .set({ two_factor_reset_at: sql<Date>`now() - interval '25 hours'` })
      .where('id', '=', customer.id)
      .execute();
    const later = await support.browser.get(`/api/admin/customers/${customer.id}`);
    expect(
      CustomerProfileSchema.parse(later.json<{ data: unknown }>().data).withdrawals_blocked_until,
    ).toBeNull();

    const start = Date.now();
    const off = await support.browser.post(path, { enabled: false, reason: 'Customer asked by phone.' });
    expect(off.statusCode).toBe(200);

    // No authenticator and no e-mailed codes: no passcode is asked for, only the wait stands in the way.
    const fiat = await withdraw(customer, { amount: '50' });
    expect(fiat.statusCode, fiat.body).toBe(403);
    const profile = CustomerProfileSchema.parse(off.json<{ data: unknown }>().data);
    const resetAt = Date.parse(profile.two_factor_reset_at ?? '');
    expect(resetAt).toBeGreaterThanOrEqual(start - 1_000);
    const until = new Date(resetAt + 24 * 3_600_000).toISOString();
    expect(profile.withdrawals_blocked_until).toBe(until);
    expect(errorOf(fiat)).toMatchObject({
      code: 'FORBIDDEN',
      message: waitUntilText(FIAT_TEXTS.twoFactorResetWait, new Date(until)),
    });
    // The form is told before anything is typed.
    const info = await customer.browser.get('/api/v1/fiat/withdraw-info');
    expect(info.json()).toMatchObject({ data: { blocked_until: until } });
    const crypto = await askForBtcWithdrawal(customer.browser);
    expect(crypto.statusCode, crypto.body).toBe(403);
    expect(errorOf(crypto)).toMatchObject({
      code: 'FORBIDDEN',
      message: waitUntilText(CRYPTO_WITHDRAW_TEXTS.securityWait, new Date(until)),
    });
    expect(await balanceOf(t, customer.id)).toEqual({ posted: 100_000n, held: 0n, available: 100_000n });
  });
});

describe('helping a customer: tokens, identity and sign-out', () => {
  it('ends the customer’s API tokens with the sessions, when staff sign them out or reset 2FA', async () => {
    const mintToken = async (browser: Browser) => {
      const response = await browser.post('/api/v1/settings/api-token');
      expect(response.statusCode, response.body).toBe(200);
      return NewApiTokenSchema.parse(response.json()).data.token;
    };
    const withToken = (token: string) =>
      t.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${token}` } });

    const signedOut = await customerWithTwoFactor(t.app, t.database.db);
    const first = await mintToken(signedOut.phone);
    expect((await withToken(first)).statusCode).toBe(200);
    const signOut = await support.browser.post(`/api/admin/customers/${signedOut.customer.id}/sign-out`, {
      reason: 'Customer reports a stolen laptop with a script holding a token.',
    });
    expect(signOut.statusCode).toBe(200);
    const refused = await withToken(first);
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused).code).toBe('UNAUTHENTICATED');

    const reset = await customerWithTwoFactor(t.app, t.database.db);
    const second = await mintToken(reset.laptop);
    expect((await withToken(second)).statusCode).toBe(200);
    const resetResponse = await support.browser.post(`/api/admin/customers/${reset.customer.id}/reset-2fa`, {
      reason: 'Lost phone; identity checked by video call and passport.',
    });
    expect(resetResponse.statusCode).toBe(200);
    expect((await withToken(second)).statusCode).toBe(401);

    const rows = await t.database.db
      .selectFrom('api_tokens')
      .select(['user_id', 'deleted_at'])
      .where('user_id', 'in', [signedOut.customer.id, reset.customer.id])
      .orderBy('user_id')
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.deleted_at).toEqual(expect.any(Date));
  });

  it('edits the name or date of birth with a reason, checking the date as the wizard does', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db, { firstName: 'Marry', lastName: 'Smith' });
    const path = `/api/admin/customers/${customer.id}/identity`;

    const invalid = await support.browser.put(path, { birthdate: '2020-01-01', reason: 'Typo at sign-up.' });
    expect(invalid.statusCode).toBe(422);
    expect(errorOf(invalid).errors).toEqual({ birthdate: [KYC_TEXTS.underAge] });
    const withoutReason = await support.browser.put(path, { first_name: 'Mary' });
    expect(errorOf(withoutReason).errors).toEqual({ reason: [COMPLIANCE_TEXTS.reasonRequired] });
    const nothing = await support.browser.put(path, { reason: 'Nothing.' });
    expect(nothing.statusCode).toBe(422);
    const reversed = await support.browser.put(path, { first_name: 'Urgent\u202Ecod.exe', reason: 'Asked.' });
    expect(reversed.statusCode).toBe(422);
    expect(errorOf(reversed).errors).toEqual({ first_name: [AUTH_TEXTS.nameInvalid] });
    const invisible = await support.browser.put(path, { last_name: '\u200B\u200D', reason: 'Asked.' });
    expect(invisible.statusCode).toBe(422);
    expect(errorOf(invisible).errors).toEqual({ last_name: ['The last name field is required.'] });
    const hiddenReason = await support.browser.put(path, { first_name: 'Mary', reason: 'Checked\u202E.' });
    expect(errorOf(hiddenReason).errors).toEqual({ reason: [TEXT_RULE_TEXTS.textInvalid] });
    const unchanged = await support.browser.put(path, { first_name: 'Marry', reason: 'Same.' });
    expect(unchanged.statusCode).toBe(409);
    expect(errorOf(unchanged).message).toBe(COMPLIANCE_TEXTS.detailsUnchanged);

    const reason = 'Marriage certificate checked; ticket 4411.';
    const edited = await support.browser.put(path, {
      first_name: 'Mary',
      last_name: 'Jones',
      birthdate: '1980-05-18',
      reason,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      message: COMPLIANCE_TEXTS.detailsUpdated,
      data: { first_name: 'Mary', last_name: 'Jones', birthdate: '1980-05-18' },
    });
    expect(await auditRows(db, 'user', customer.id)).toEqual([
      expect.objectContaining({
        action: 'user.identity_edited',
        before: { first_name: 'Marry', last_name: 'Smith', birthdate: '1980-05-17' },
        after: { first_name: 'Mary', last_name: 'Jones', birthdate: '1980-05-18', reason },
      }),
    ]);
    const [mail] = await db
      .selectFrom('dev_mailbox')
      .select(['subject', 'text'])
      .where('to', '=', customer.email)
      .execute();
    expect(mail?.subject).toBe('Your personal details were changed — Florin');
    expect(mail?.text).toContain('changed your name and date of birth');
  });

  it('signs the customer out everywhere', async () => {
    const db = t.database.db;
    const { customer, phone, laptop } = await customerWithTwoFactor(t.app, t.database.db);
    const response = await support.browser.post(`/api/admin/customers/${customer.id}/sign-out`, {
      reason: 'Customer reports a lost laptop.',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: COMPLIANCE_TEXTS.signedOut });
    for (const browser of [phone, laptop]) {
      const me = await browser.get('/api/v1/user');
      expect(me.statusCode).toBe(401);
      expect(errorOf(me).code).toBe('UNAUTHENTICATED');
    }
    expect((await support.browser.get(`/api/admin/customers/${customer.id}/sessions`)).json()).toEqual({
      data: [],
    });
    expect(await auditRows(db, 'user', customer.id)).toEqual([
      expect.objectContaining({
        action: 'user.signed_out',
        before: { active_sessions: 2 },
        after: { active_sessions: 0, reason: 'Customer reports a lost laptop.' },
      }),
    ]);
    expect(await mailSubjects(db, customer.email)).toEqual(['You were signed out of Florin — Florin']);
  });

  it('lets finance read but not act: every action is 404 to them, as to customers', async () => {
    const db = t.database.db;
    const { customer, phone } = await customerWithTwoFactor(t.app, t.database.db);
    for (const browser of [finance.browser, phone]) {
      for (const response of [
        await browser.post(`/api/admin/customers/${customer.id}/reset-2fa`, { reason: 'x' }),
        await browser.post(`/api/admin/customers/${customer.id}/email-codes`, { enabled: true, reason: 'x' }),
        await browser.put(`/api/admin/customers/${customer.id}/identity`, { first_name: 'X', reason: 'x' }),
        await browser.post(`/api/admin/customers/${customer.id}/sign-out`, { reason: 'x' }),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(errorOf(response)).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
      }
    }
    expect((await phone.get(`/api/admin/customers/${customer.id}`)).statusCode).toBe(404);
    expect(await auditRows(db, 'user', customer.id)).toEqual([]);
    expect((await phone.get('/api/v1/user')).statusCode).toBe(200);
  });
});
