import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, WHITELIST_TEXTS, WhitelistedIpSchema, ukDateTime } from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { createEmailedCodes } from '../../security/emailed-codes.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser } from '../../test/browser.js';
import { cryptoWithdrawalsBlockedUntil } from '../compliance/customer-service.js';
import { mailSubjects } from '../compliance/customers.test-kit.js';
import { createNotifier } from '../notifications/service.js';
import { createWhitelistRepository } from './repository.js';
import { createWhitelistService } from './service.js';
import { testClock } from '../../test/clock.js';
import { ADDRESSES, errorOf, PASSWORD, whitelistSteps } from './whitelists.test-kit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const { db, newCustomer, turnOnTwoFactor, passcode, addedWallet, listWallets, signIn } = whitelistSteps(
  () => t,
);

describe('IP whitelisting', () => {
  it('adds the current IP first, then others; lists them with the current IP; removes with a passcode', async () => {
    const customer = await newCustomer();
    const base = `/api/v1/ipaddress/${customer.reference}`;
    const empty = await customer.browser.get(`${base}/fetchwhitelist`);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ data: [], total: 0, current_ip: customer.browser.ip });

    const notCurrent = await customer.browser.post(`${base}/whitelist`, {
      ip_address: '203.0.113.7',
      passcode: await passcode(customer),
    });
    expect(notCurrent.statusCode).toBe(422);
    expect(errorOf(notCurrent).errors).toEqual({ ip_address: [WHITELIST_TEXTS.ipFirstMustBeCurrent] });

    const invalid = await customer.browser.post(`${base}/whitelist`, {
      ip_address: '300.1.1.1',
      passcode: '123456',
    });
    expect(errorOf(invalid).errors).toEqual({ ip_address: [WHITELIST_TEXTS.ipInvalid] });

    const wrong = await customer.browser.post(`${base}/whitelist`, {
      ip_address: customer.browser.ip,
      passcode: '000000',
    });
    expect(errorOf(wrong).errors).toEqual({ passcode: [WHITELIST_TEXTS.wrongPasscode] });

    const added = await customer.browser.post(`${base}/whitelist`, {
      ip_address: customer.browser.ip,
      passcode: await passcode(customer),
      city: 'London',
      country: 'GB',
    });
    expect(added.statusCode, added.body).toBe(200);
    const addedBody = added.json<{ data: unknown; message: string }>();
    expect(addedBody.message).toBe(WHITELIST_TEXTS.ipAdded);
    // The page's city and country are not believed: a private address has no known place.
    expect(WhitelistedIpSchema.parse(addedBody.data)).toMatchObject({
      ip_address: customer.browser.ip,
      city: null,
      country: null,
    });
    const located = await customer.browser.post(`${base}/whitelist`, {
      ip_address: '81.2.69.142',
      passcode: await passcode(customer),
    });
    expect(located.statusCode, located.body).toBe(200);
    expect(located.json<{ data: unknown }>().data).toMatchObject({
      city: 'St Albans',
      country: 'United Kingdom',
    });
    const second = await customer.browser.post(`${base}/whitelist`, {
      ip_address: '2001:DB8:0:0:0:0:0:1',
      passcode: await passcode(customer),
    });
    expect(second.statusCode, second.body).toBe(200);
    const duplicate = await customer.browser.post(`${base}/whitelist`, {
      ip_address: '2001:db8::1',
      passcode: await passcode(customer),
    });
    expect(duplicate.statusCode).toBe(409);
    expect(errorOf(duplicate).message).toBe(WHITELIST_TEXTS.ipExists);

    const list = await customer.browser.get(`${base}/fetchwhitelist?limit=1`);
    const listed = list.json<{ data: unknown[]; total: number; current_ip: string }>();
    expect(listed.total).toBe(3);
    expect(listed.data.map((item) => WhitelistedIpSchema.parse(item).ip_address)).toEqual(['2001:db8::1']);
    expect(listed.current_ip).toBe(customer.browser.ip);
    // A row saved before locations were looked up is located as the list is read.
    await db()
      .updateTable('whitelisted_ips')
      .set({ city: null, country: null })
      .where('ip_address', '=', '81.2.69.142')
      .execute();
    const full = await customer.browser.get(`${base}/fetchwhitelist`);
    const places = full.json<{ data: unknown[] }>().data.map((item) => WhitelistedIpSchema.parse(item));
    expect(places.find((item) => item.ip_address === '81.2.69.142')).toMatchObject({
      city: 'St Albans',
      country: 'United Kingdom',
    });
    // ...once: the place is saved, and a private address's "nothing known" too, so no read looks them up again.
    const saved = await db()
      .selectFrom('whitelisted_ips')
      .select(['ip_address', 'city', 'country'])
      .where('user_id', '=', customer.id)
      .orderBy('ip_address')
      .execute();
    expect(saved).toEqual([
      { ip_address: customer.browser.ip, city: '', country: '' },
      { ip_address: '2001:db8::1', city: '', country: '' },
      { ip_address: '81.2.69.142', city: 'St Albans', country: 'United Kingdom' },
    ]);

    // The address in use cannot go while others stay: the next sign-in from here would be refused.
    const firstId = WhitelistedIpSchema.parse(addedBody.data).id;
    const lockout = await customer.browser.post(`${base}/whitelist/${firstId}/remove`, {
      passcode: await passcode(customer),
    });
    expect(lockout.statusCode).toBe(422);
    expect(errorOf(lockout).message).toBe(WHITELIST_TEXTS.ipRemoveCurrent);
    const typo = await customer.browser.post(`${base}/whitelist/${firstId}/remove`, { passcode: '12a45' });
    expect(errorOf(typo).errors).toEqual({ passcode: [WHITELIST_TEXTS.passcodeFormat] });

    const secondId = WhitelistedIpSchema.parse(second.json<{ data: unknown }>().data).id;
    const wrongRemoval = await customer.browser.post(`${base}/whitelist/${secondId}/remove`, {
      passcode: '000000',
    });
    expect(errorOf(wrongRemoval).errors).toEqual({ passcode: [WHITELIST_TEXTS.wrongPasscode] });
    const removed = await customer.browser.post(`${base}/whitelist/${secondId}/remove`, {
      passcode: await passcode(customer),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: WHITELIST_TEXTS.ipRemoved });
    const after = await customer.browser.get(`${base}/fetchwhitelist`);
    expect(after.json<{ total: number }>().total).toBe(2);
    const subjects = await mailSubjects(db(), customer.email);
    expect(subjects.filter((subject) => subject === 'An IP address was whitelisted — Florin')).toHaveLength(
      3,
    );
    expect(subjects).toContain('An IP address was removed from your whitelist — Florin');
  });

  it('needs 2FA turned on', async () => {
    const customer = await newCustomer({ twoFactor: false });
    const response = await customer.browser.post(`/api/v1/ipaddress/${customer.reference}/whitelist`, {
      ip_address: customer.browser.ip,
      passcode: '123456',
    });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).message).toBe(WHITELIST_TEXTS.twoFactorRequired);
  });
});

describe('sign-in with an IP whitelist', () => {
  it('is refused from another address, with a mail to the customer, and allowed from a whitelisted one', async () => {
    const customer = await newCustomer();
    const elsewhere = createBrowser(t.app);
    const before = await signIn(elsewhere, customer.email);
    expect(before.statusCode, before.body).toBe(200);

    const added = await customer.browser.post(`/api/v1/ipaddress/${customer.reference}/whitelist`, {
      ip_address: customer.browser.ip,
      passcode: await passcode(customer),
    });
    expect(added.statusCode, added.body).toBe(200);

    const refusedFrom = testClock.now();
    const refused = await signIn(elsewhere, customer.email);
    const refusedBy = testClock.now();
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({
      code: 'IP_NOT_WHITELISTED',
      message: ERROR_CODES.IP_NOT_WHITELISTED.message,
    });
    const [mail] = await db()
      .selectFrom('dev_mailbox')
      .select(['subject', 'text'])
      .where('to', '=', customer.email)
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(mail?.subject).toBe('A sign-in from an unknown IP address was refused — Florin');
    expect(mail?.text).toContain(elsewhere.ip);
    // The minute of the refusal, as a UK customer reads it (the request may have crossed into the next).
    const minutes = [ukDateTime(refusedFrom), ukDateTime(refusedBy)];
    expect(minutes.some((minute) => mail?.text.includes(`On ${minute} someone signed in`))).toBe(true);

    const wrongPassword = await elsewhere.post('/api/v1/login', {
      username: customer.email,
      password: 'not the password at all',
      altcha: await elsewhere.captcha(),
    });
    expect(errorOf(wrongPassword).code).toBe('INVALID_CREDENTIALS');

    const allowed = await signIn(customer.browser, customer.email);
    expect(allowed.statusCode, allowed.body).toBe(200);
    const { login_token: loginToken } = allowed.json<{ login_token: string }>();

    // A challenge started from the whitelisted address cannot be finished from another.
    const finishedElsewhere = await elsewhere.post('/api/v1/login-2fa', {
      login_token: loginToken,
      passcode: await passcode(customer),
    });
    expect(finishedElsewhere.statusCode).toBe(403);
    expect(errorOf(finishedElsewhere).code).toBe('IP_NOT_WHITELISTED');
  });

  it('lets the whitelisted address finish the second step and get a session', async () => {
    const customer = await newCustomer();
    await customer.browser.post(`/api/v1/ipaddress/${customer.reference}/whitelist`, {
      ip_address: customer.browser.ip,
      passcode: await passcode(customer),
    });
    const started = await signIn(customer.browser, customer.email);
    expect(started.statusCode, started.body).toBe(200);
    const finished = await customer.browser.post('/api/v1/login-2fa', {
      login_token: started.json<{ login_token: string }>().login_token,
      passcode: await passcode(customer),
    });
    expect(finished.statusCode, finished.body).toBe(200);
  });
});

describe('the 24-hour crypto withdrawal wait after a security change', () => {
  const changedAt = async (userId: number) =>
    (
      await db()
        .selectFrom('users')
        .select(['security_changed_at', 'two_factor_reset_at'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).security_changed_at;

  it('starts when 2FA is turned on or off and when the password changes', async () => {
    const customer = await newCustomer({ twoFactor: false });
    expect(await changedAt(customer.id)).toBeNull();
    const start = Date.now();
    customer.totpSecret = await turnOnTwoFactor(customer);
    const afterOn = await changedAt(customer.id);
    expect(afterOn?.getTime()).toBeGreaterThanOrEqual(start - 1_000);

    await db()
      .updateTable('users')
      .set({ security_changed_at: sql<Date>`now() - interval '2 days'` })
      .where('id', '=', customer.id)
      .execute();
    const off = await customer.browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: await passcode(customer),
      disable_2fa: 1,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await changedAt(customer.id))?.getTime()).toBeGreaterThanOrEqual(start - 1_000);

    await db()
      .updateTable('users')
      .set({ security_changed_at: sql<Date>`now() - interval '2 days'` })
      .where('id', '=', customer.id)
      .execute();
    const changed = await customer.browser.put('/api/v1/settings/change-password', {
      current_password: PASSWORD,
      password: 'another-Password-for-tests-2026',
      password_confirmation: 'another-Password-for-tests-2026',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const afterPassword = await changedAt(customer.id);
    expect(afterPassword?.getTime()).toBeGreaterThanOrEqual(start - 1_000);
    const until = cryptoWithdrawalsBlockedUntil(
      { two_factor_reset_at: null, security_changed_at: afterPassword ?? null },
      testClock.now(),
    );
    expect(until?.getTime()).toBe((afterPassword?.getTime() ?? 0) + 24 * 3_600_000);
  });

  it('runs 24 hours from the later of a staff 2FA reset and the customer’s own change', () => {
    const reset = new Date('2026-11-23T10:00:00Z');
    const changed = new Date('2026-11-23T12:00:00Z');
    expect(
      cryptoWithdrawalsBlockedUntil({ two_factor_reset_at: null, security_changed_at: null }, reset),
    ).toBeNull();
    expect(
      cryptoWithdrawalsBlockedUntil(
        { two_factor_reset_at: reset, security_changed_at: changed },
        new Date('2026-11-24T11:00:00Z'),
      )?.toISOString(),
    ).toBe('2026-11-24T12:00:00.000Z');
    expect(
      cryptoWithdrawalsBlockedUntil(
        { two_factor_reset_at: changed, security_changed_at: reset },
        new Date('2026-11-24T11:59:59Z'),
      )?.toISOString(),
    ).toBe('2026-11-24T12:00:00.000Z');
    expect(
      cryptoWithdrawalsBlockedUntil(
        { two_factor_reset_at: reset, security_changed_at: changed },
        new Date('2026-11-24T12:00:00Z'),
      ),
    ).toBeNull();
  });

  it('ends at once through the dev route, which also makes whitelisted addresses usable', async () => {
    const customer = await newCustomer();
    const wallet = await addedWallet(customer, { address: ADDRESSES.btc, coin_id: 'btc' });
    expect(wallet.usable).toBe(false);
    const passed = await t.app.inject({
      method: 'POST',
      url: '/dev/security/pass-waits',
      payload: { email: customer.email.toUpperCase() },
    });
    expect(passed.statusCode, passed.body).toBe(200);
    expect((await listWallets(customer)).data[0]).toMatchObject({ id: wallet.id, usable: true });
    const row = await db()
      .selectFrom('users')
      .select(['security_changed_at', 'two_factor_reset_at'])
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(cryptoWithdrawalsBlockedUntil(row, testClock.now())).toBeNull();
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/dev/security/pass-waits',
      payload: { email: 'nobody@example.com' },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('what the crypto withdrawal service reads', () => {
  it('finds a live, owned whitelisted wallet by id and by address', async () => {
    const customer = await newCustomer();
    const other = await newCustomer();
    const wallet = await addedWallet(customer, { address: `${ADDRESSES.xrp}?77`, coin_id: 'xrp' });
    const eth = await addedWallet(customer, { address: ADDRESSES.eth, coin_id: 'eth' });
    // The same service the app builds, on the same database.
    const service = createWhitelistService({
      db: db(),
      repository: createWhitelistRepository(db(), testClock),
      notifier: createNotifier({ db: db(), mailer: createDevMailbox(db()), log: t.app.log }),
      emailedCodes: createEmailedCodes({ db: db(), key: 'test-key', clock: testClock }),
      verifyAuthenticatorCode: () => Promise.resolve(false),
      network: 'mainnet',
      // Not read by what this test calls.
      florinDestinationOf: () => Promise.resolve(null),
    });
    expect(await service.findWallet(customer.id, wallet.id)).toMatchObject({
      id: wallet.id,
      asset: 'XRP',
      address: ADDRESSES.xrp,
      tag: '77',
    });
    expect(await service.findWallet(other.id, wallet.id)).toBeUndefined();
    expect(await service.findWallet(customer.id, 'not-a-number')).toBeUndefined();
    expect((await service.findByAddress(customer.id, 'XRP', ADDRESSES.xrp, '77'))?.id).toBe(wallet.id);
    expect(await service.findByAddress(customer.id, 'XRP', ADDRESSES.xrp, null)).toBeUndefined();
    expect((await service.findByAddress(customer.id, 'ETH', ADDRESSES.eth.toLowerCase(), null))?.id).toBe(
      eth.id,
    );
    expect(await service.findByAddress(other.id, 'ETH', ADDRESSES.eth, null)).toBeUndefined();
  });
});
