import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CRYPTO_WITHDRAW_TEXTS,
  ERROR_CODES,
  ErrorBodySchema,
  WHITELIST_TEXTS,
  WhitelistedIpSchema,
  WhitelistedWalletSchema,
  ukDateTime,
  type ErrorBody,
} from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { createStorageFromConfig } from '../../adapters/storage/index.js';
import { createEmailedCodes } from '../../security/emailed-codes.js';
import { hashPassword } from '../../security/passwords.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  awayFromTotpStepEdge,
  createBrowser,
  mailTo,
  oathtoolCode,
  type Browser,
} from '../../test/browser.js';
import { cryptoWithdrawalsBlockedUntil } from '../compliance/customer-service.js';
import {
  customerBrowser,
  insertApprovedVerification,
  insertCustomer,
  mailSubjects,
} from '../compliance/customers.test-kit.js';
import { createNotifier } from '../notifications/service.js';
import { createWhitelistRepository } from './repository.js';
import { createWhitelistService } from './service.js';
import { testClock } from '../../test/clock.js';
import { TOO_MANY_ATTEMPTS } from '../../test/rate-limited.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const PASSWORD = 'whitelists-Password-for-tests-2026';

const errorOf = (response: LightMyRequestResponse): ErrorBody => ErrorBodySchema.parse(response.json());

/** Addresses that pass their coin's checksum. */
const ADDRESSES = {
  btc: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  btcLegacy: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  eth: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  ltc: 'LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1',
  bch: 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
  xrp: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
} as const;

/** A fresh, valid ETH address (all lower case carries no checksum and is valid). */
const randomEthAddress = () => `0x${randomBytes(20).toString('hex')}`;

type Customer = {
  id: number;
  email: string;
  reference: string;
  browser: Browser;
  totpSecret: string | null;
};

/** A customer signed in with a browser of their own IP address, with 2FA on unless told otherwise. */
async function newCustomer(options: { twoFactor?: boolean } = {}): Promise<Customer> {
  const row = await insertCustomer(db());
  await db()
    .updateTable('users')
    .set({ status: 1, live_since: new Date(), password_hash: await hashPassword(PASSWORD) })
    .where('id', '=', row.id)
    .execute();
  const browser = await customerBrowser(t.app, db(), row.id);
  const customer: Customer = { ...row, browser, totpSecret: null };
  if (options.twoFactor !== false) customer.totpSecret = await turnOnTwoFactor(customer);
  return customer;
}

async function turnOnTwoFactor(customer: Customer): Promise<string> {
  const generated = await customer.browser.get('/api/v1/two-factor-authentication/generate');
  expect(generated.statusCode, generated.body).toBe(200);
  const secret = generated.json<{ data: { secret: string } }>().data.secret;
  awayFromTotpStepEdge();
  const toggled = await customer.browser.post('/api/v1/two-factor-authentication/toggle', {
    passcode: oathtoolCode(secret),
    disable_2fa: 0,
  });
  expect(toggled.statusCode, toggled.body).toBe(200);
  return secret;
}

/**
 * A code from the customer's authenticator that the server will take. Each
 * 30-second step is usable once, so the test forgets the step last used
 * instead of waiting for the next one.
 */
async function passcode(customer: Customer): Promise<string> {
  if (!customer.totpSecret) throw new Error('this customer has no 2FA');
  await db().updateTable('users').set({ totp_last_step: null }).where('id', '=', customer.id).execute();
  awayFromTotpStepEdge();
  return oathtoolCode(customer.totpSecret);
}

async function addWallet(
  customer: Customer,
  body: { address: string; coin_id: string; label?: string; passcode?: string },
) {
  return customer.browser.post('/api/v1/wallet-address/create', {
    label: 'My wallet',
    ...body,
    type: 99,
    passcode: body.passcode ?? (await passcode(customer)),
  });
}

async function addedWallet(customer: Customer, body: { address: string; coin_id: string; label?: string }) {
  const response = await addWallet(customer, body);
  expect(response.statusCode, response.body).toBe(200);
  return WhitelistedWalletSchema.parse(response.json<{ data: unknown }>().data);
}

async function listWallets(customer: Customer, query = '') {
  const response = await customer.browser.get(`/api/v1/wallet-address/list${query}`);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ data: unknown[]; total: number }>();
  return { data: body.data.map((item) => WhitelistedWalletSchema.parse(item)), total: body.total };
}

/** The newest removal code mailed to the customer. */
async function removalCode(email: string): Promise<string> {
  const mail = await db()
    .selectFrom('dev_mailbox')
    .select('text')
    .where('to', '=', email)
    .where('subject', 'like', 'Your code to remove a whitelisted address%')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no removal code mailed to ${email}`);
  return code;
}

/** A different 6-digit code than `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function signIn(browser: Browser, email: string) {
  return browser.post('/api/v1/login', {
    username: email,
    password: PASSWORD,
    altcha: await browser.captcha(),
  });
}

describe('wallet whitelisting', () => {
  it('adds an address with 2FA, lists it masked with its 24-hour wait, and mails the customer', async () => {
    const customer = await newCustomer();
    const before = Date.now();
    const response = await addWallet(customer, {
      address: ADDRESSES.btc,
      coin_id: 'btc',
      label: 'Cold storage',
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ data: unknown; message: string }>();
    expect(body.message).toBe(WHITELIST_TEXTS.walletAdded);
    const wallet = WhitelistedWalletSchema.parse(body.data);
    expect(wallet).toMatchObject({
      label: 'Cold storage',
      address: '********f3t4',
      coin_id: 'btc',
      tag: null,
      type: 99,
      usable: false,
    });
    const waitHours = (Date.parse(wallet.usable_from) - before) / 3_600_000;
    expect(waitHours).toBeGreaterThan(23.9);
    expect(waitHours).toBeLessThan(24.1);

    const list = await listWallets(customer);
    expect(list.total).toBe(1);
    expect(list.data).toEqual([wallet]);
    expect(JSON.stringify(list)).not.toContain('w508d6');
    const mail = (await mailTo(db(), customer.email)).find(
      (message) => message.subject === 'A withdrawal address was whitelisted — Florin',
    );
    // When it becomes usable, as a UK customer reads it (the screens say the same).
    expect(mail?.text).toContain(
      `withdrawals to it are possible from ${ukDateTime(new Date(wallet.usable_from))}.`,
    );
  });

  it('shows 5 newest first, then 5 more with View More, and filters by coin', async () => {
    const customer = await newCustomer();
    const added = [];
    for (let index = 0; index < 7; index += 1)
      added.push(
        await addedWallet(customer, { address: randomEthAddress(), coin_id: 'eth', label: `ETH ${index}` }),
      );
    const btc = await addedWallet(customer, { address: ADDRESSES.btcLegacy, coin_id: 'btc' });

    const first = await listWallets(customer);
    expect(first.total).toBe(8);
    expect(first.data.map((wallet) => wallet.id)).toEqual(
      [btc, ...added.reverse()].slice(0, 5).map((wallet) => wallet.id),
    );
    const more = await listWallets(customer, '?limit=10');
    expect(more.data).toHaveLength(8);
    const eth = await listWallets(customer, '?coin=eth&limit=10');
    expect(eth.total).toBe(7);
    expect(eth.data.every((wallet) => wallet.coin_id === 'eth')).toBe(true);
  });

  it("takes xrp's destination tag after a question mark and refuses a bad tag", async () => {
    const customer = await newCustomer();
    const wallet = await addedWallet(customer, { address: `${ADDRESSES.xrp}?12345`, coin_id: 'xrp' });
    expect(wallet).toMatchObject({ coin_id: 'xrp', tag: '12345', address: '********tyTh' });
    const untagged = await addedWallet(customer, { address: ADDRESSES.xrp, coin_id: 'xrp' });
    expect(untagged.tag).toBeNull();

    const badTag = await addWallet(customer, { address: `${ADDRESSES.xrp}?12ab`, coin_id: 'xrp' });
    expect(badTag.statusCode).toBe(422);
    expect(errorOf(badTag).errors).toEqual({ address: [CRYPTO_WITHDRAW_TEXTS.tagInvalid] });
    const again = await addWallet(customer, { address: `${ADDRESSES.xrp}?12345`, coin_id: 'xrp' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(WHITELIST_TEXTS.walletExists);
  });

  it('refuses an address that fails its coin’s checksum, naming it', async () => {
    const customer = await newCustomer();
    const cases = [
      ['btc', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
      ['btc', ADDRESSES.eth],
      ['eth', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'],
      ['ltc', ADDRESSES.btc],
      ['bch', ADDRESSES.btcLegacy],
      ['xrp', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTj'],
      ['eth', `${ADDRESSES.eth}?5`],
    ] as const;
    for (const [coin, address] of cases) {
      const response = await addWallet(customer, { address, coin_id: coin, passcode: '000000' });
      expect(response.statusCode, `${coin} ${address}`).toBe(400);
      const error = errorOf(response);
      expect(error.code).toBe('INVALID_ADDRESS');
      expect(error.data).toEqual({ address });
    }
    for (const [coin, address] of [
      ['eth', ADDRESSES.eth],
      ['ltc', ADDRESSES.ltc],
      ['bch', ADDRESSES.bch],
    ] as const)
      await addedWallet(customer, { address, coin_id: coin });
    expect((await listWallets(customer)).total).toBe(3);
  });

  it('finds a duplicate however the address is spelled', async () => {
    const customer = await newCustomer();
    await addedWallet(customer, { address: ADDRESSES.eth, coin_id: 'eth' });
    const lower = await addWallet(customer, { address: ADDRESSES.eth.toLowerCase(), coin_id: 'eth' });
    expect(lower.statusCode).toBe(409);
    await addedWallet(customer, { address: ADDRESSES.bch, coin_id: 'bch' });
    const noPrefix = await addWallet(customer, {
      address: ADDRESSES.bch.replace('bitcoincash:', '').toUpperCase(),
      coin_id: 'bch',
    });
    expect(noPrefix.statusCode).toBe(409);
    expect(errorOf(noPrefix).message).toBe(WHITELIST_TEXTS.walletExists);
  });

  it('refuses the customer’s own deposit address however it is written, and spends no code on it', async () => {
    const customer = await newCustomer();
    // Deposit addresses are given to a verified customer.
    await insertApprovedVerification(db(), createStorageFromConfig(t.config), customer.id);
    const wallets = (await customer.browser.get('/api/v1/user/wallet-addresses?coin=all')).json<{
      data: { coin_id: string; address: string }[];
    }>().data;
    const own = (coin: string) => wallets.find((wallet) => wallet.coin_id === coin)!.address;
    const xrp = (await customer.browser.get('/api/v1/user/generate-deposit-address/xrp')).json<{
      data: { address: string; tag: string };
    }>().data;
    const attempts: [string, string][] = [
      ['bch', own('bch').replace('bitcoincash:', '')],
      ['eth', own('eth').toLowerCase()],
      ['xrp', `${xrp.address}?${xrp.tag}`],
    ];
    let code = '';
    for (const [coin_id, address] of attempts) {
      code = await passcode(customer);
      const refused = await addWallet(customer, { address, coin_id, passcode: code });
      expect(refused.statusCode, address).toBe(422);
      expect(errorOf(refused).errors, address).toEqual({ address: [WHITELIST_TEXTS.ownDepositAddress] });
    }
    // The shared XRP address without a tag is nobody's, for a customer with or without an XRP address of their own.
    const stranger = await newCustomer();
    for (const owner of [stranger, customer]) {
      code = await passcode(owner);
      const untagged = await addWallet(owner, { address: xrp.address, coin_id: 'xrp', passcode: code });
      expect(untagged.statusCode).toBe(422);
      expect(errorOf(untagged).errors).toEqual({ address: [WHITELIST_TEXTS.houseAddressWithoutTag] });
    }
    // The code was not spent: the same one still adds a real address.
    const other = await addWallet(customer, { address: ADDRESSES.btc, coin_id: 'btc', passcode: code });
    expect(other.statusCode, other.body).toBe(200);
    expect((await listWallets(customer)).data.map((wallet) => wallet.coin_id)).toEqual(['btc']);
  });

  it('needs 2FA turned on and the right, unused passcode', async () => {
    const without = await newCustomer({ twoFactor: false });
    const refused = await addWallet(without, { address: ADDRESSES.btc, coin_id: 'btc', passcode: '123456' });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused).message).toBe(WHITELIST_TEXTS.twoFactorRequired);

    const customer = await newCustomer();
    const wrong = await addWallet(customer, { address: ADDRESSES.btc, coin_id: 'btc', passcode: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong)).toMatchObject({
      code: 'INVALID_PASSCODE',
      errors: { passcode: [WHITELIST_TEXTS.wrongPasscode] },
    });
    const code = await passcode(customer);
    expect(
      (await addWallet(customer, { address: ADDRESSES.btc, coin_id: 'btc', passcode: code })).statusCode,
    ).toBe(200);
    const replayed = await addWallet(customer, { address: ADDRESSES.eth, coin_id: 'eth', passcode: code });
    expect(errorOf(replayed).errors).toEqual({ passcode: [WHITELIST_TEXTS.wrongPasscode] });
    const missing = await customer.browser.post('/api/v1/wallet-address/create', {
      address: ADDRESSES.eth,
      coin_id: 'eth',
      label: 'x',
    });
    expect(errorOf(missing).errors).toEqual({ passcode: [WHITELIST_TEXTS.passcodeRequired] });
    expect((await listWallets(customer)).total).toBe(1);
  });
});

describe('guessing the whitelist passcode', () => {
  it('after five wrong codes from five addresses, refuses the right one (429) and adds nothing', async () => {
    const customer = await newCustomer();
    const addresses = new Set([customer.browser.ip]);
    for (let guess = 0; guess < 5; guess += 1) {
      const thief = { ...customer, browser: await customerBrowser(t.app, db(), customer.id) };
      addresses.add(thief.browser.ip);
      const wrong = await addWallet(thief, { address: ADDRESSES.btc, coin_id: 'btc', passcode: '000000' });
      expect(errorOf(wrong).errors).toEqual({ passcode: [WHITELIST_TEXTS.wrongPasscode] });
    }
    expect(addresses.size).toBe(6);
    const locked = await addWallet(customer, { address: ADDRESSES.btc, coin_id: 'btc' });
    expect(locked.statusCode).toBe(429);
    expect(errorOf(locked)).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(TOO_MANY_ATTEMPTS) as string,
    });
    expect((await listWallets(customer)).total).toBe(0);
  });
});

describe('removing a whitelisted wallet', () => {
  it('takes the e-mailed code once, then removes the wallet and keeps the row for the record', async () => {
    const customer = await newCustomer();
    const wallet = await addedWallet(customer, { address: ADDRESSES.btc, coin_id: 'btc' });

    const early = await customer.browser.delete(`/api/v1/wallet-address/destroy/${wallet.id}`);
    expect(early.statusCode).toBe(400);
    expect(errorOf(early).message).toBe(WHITELIST_TEXTS.removalNotVerified);

    const sent = await customer.browser.post('/api/v1/send-verify-wallet-address', { id: Number(wallet.id) });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ message: WHITELIST_TEXTS.removalCodeSent });
    const code = await removalCode(customer.email);

    const wrong = await customer.browser.post('/api/v1/verify-wallet-address', {
      id: Number(wallet.id),
      verify_code: otherCode(code),
    });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toMatchObject({
      code: 'VERIFICATION_FAILED',
      message: WHITELIST_TEXTS.removalCodeWrong,
    });

    const right = await customer.browser.post('/api/v1/verify-wallet-address', {
      id: Number(wallet.id),
      verify_code: code,
    });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json()).toEqual({ message: WHITELIST_TEXTS.removalVerified });
    const reused = await customer.browser.post('/api/v1/verify-wallet-address', {
      id: Number(wallet.id),
      verify_code: code,
    });
    expect(errorOf(reused).message).toBe(WHITELIST_TEXTS.removalCodeWrong);

    const removed = await customer.browser.delete(`/api/v1/wallet-address/destroy/${wallet.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: WHITELIST_TEXTS.walletRemoved });
    expect((await listWallets(customer)).total).toBe(0);
    const again = await customer.browser.delete(`/api/v1/wallet-address/destroy/${wallet.id}`);
    expect(again.statusCode).toBe(404);
    const kept = await db()
      .selectFrom('whitelisted_wallets')
      .select(['deleted_at', 'address'])
      .where('id', '=', wallet.id)
      .executeTakeFirstOrThrow();
    expect(kept.deleted_at).not.toBeNull();
    expect(kept.address).toBe(ADDRESSES.btc);
    expect(await mailSubjects(db(), customer.email)).toContain(
      'A withdrawal address was removed from your whitelist — Florin',
    );

    // Removed, the address can be whitelisted again.
    await addedWallet(customer, { address: ADDRESSES.btc, coin_id: 'btc' });
  });

  it('calls a code spent by five wrong tries expired, so the client offers Resend, not another try', async () => {
    const customer = await newCustomer();
    const wallet = await addedWallet(customer, { address: ADDRESSES.btc, coin_id: 'btc' });
    await customer.browser.post('/api/v1/send-verify-wallet-address', { id: Number(wallet.id) });
    const code = await removalCode(customer.email);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await customer.browser.post('/api/v1/verify-wallet-address', {
        id: Number(wallet.id),
        verify_code: otherCode(code),
      });
      expect(errorOf(wrong).message).toBe(WHITELIST_TEXTS.removalCodeWrong);
    }
    const spent = await customer.browser.post('/api/v1/verify-wallet-address', {
      id: Number(wallet.id),
      verify_code: code,
    });
    expect(errorOf(spent)).toMatchObject({
      code: 'VERIFICATION_FAILED',
      message: WHITELIST_TEXTS.codeExpired,
    });
  });

  it("refuses another wallet's code, an expired code (so the client offers Resend), and a confirmation that ran out", async () => {
    const customer = await newCustomer();
    const first = await addedWallet(customer, { address: ADDRESSES.btc, coin_id: 'btc' });
    const second = await addedWallet(customer, { address: ADDRESSES.eth, coin_id: 'eth' });
    await customer.browser.post('/api/v1/send-verify-wallet-address', { id: Number(first.id) });
    const firstCode = await removalCode(customer.email);
    const crossed = await customer.browser.post('/api/v1/verify-wallet-address', {
      id: Number(second.id),
      verify_code: firstCode,
    });
    expect(crossed.statusCode).toBe(400);
    expect(errorOf(crossed).message).toBe(WHITELIST_TEXTS.removalCodeWrong);
    expect((await customer.browser.delete(`/api/v1/wallet-address/destroy/${second.id}`)).statusCode).toBe(
      400,
    );

    await db()
      .updateTable('withdrawal_codes')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('user_id', '=', customer.id)
      .execute();
    const expired = await customer.browser.post('/api/v1/verify-wallet-address', {
      id: Number(first.id),
      verify_code: firstCode,
    });
    expect(expired.statusCode).toBe(400);
    expect(errorOf(expired)).toMatchObject({
      code: 'VERIFICATION_FAILED',
      message: WHITELIST_TEXTS.codeExpired,
    });

    await customer.browser.post('/api/v1/send-verify-wallet-address', { id: Number(first.id) });
    const resent = await removalCode(customer.email);
    const verified = await customer.browser.post('/api/v1/verify-wallet-address', {
      id: Number(first.id),
      verify_code: resent,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    await db()
      .updateTable('whitelisted_wallets')
      .set({ removal_verified_until: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', first.id)
      .execute();
    const late = await customer.browser.delete(`/api/v1/wallet-address/destroy/${first.id}`);
    expect(late.statusCode).toBe(400);
    expect(errorOf(late).message).toBe(WHITELIST_TEXTS.removalNotVerified);
    expect((await listWallets(customer)).total).toBe(2);
  });

  it('lets exactly one of 50 concurrent confirmations with one code through', async () => {
    const customer = await newCustomer();
    const wallet = await addedWallet(customer, { address: ADDRESSES.ltc, coin_id: 'ltc' });
    await customer.browser.post('/api/v1/send-verify-wallet-address', { id: Number(wallet.id) });
    const code = await removalCode(customer.email);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        customer.browser.post('/api/v1/verify-wallet-address', { id: Number(wallet.id), verify_code: code }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(49);
  });
});

describe("another customer's whitelists", () => {
  it('are not found: not listed, not removable, no codes sent or taken', async () => {
    const owner = await newCustomer();
    const intruder = await newCustomer();
    const wallet = await addedWallet(owner, { address: ADDRESSES.btc, coin_id: 'btc' });
    await owner.browser.post('/api/v1/send-verify-wallet-address', { id: Number(wallet.id) });
    const code = await removalCode(owner.email);

    expect((await listWallets(intruder)).total).toBe(0);
    const notFound = [
      await intruder.browser.post('/api/v1/send-verify-wallet-address', { id: Number(wallet.id) }),
      await intruder.browser.post('/api/v1/verify-wallet-address', {
        id: Number(wallet.id),
        verify_code: code,
      }),
      await intruder.browser.delete(`/api/v1/wallet-address/destroy/${wallet.id}`),
      await intruder.browser.get(`/api/v1/ipaddress/${owner.reference}/fetchwhitelist`),
      await intruder.browser.post(`/api/v1/ipaddress/${owner.reference}/whitelist`, {
        ip_address: intruder.browser.ip,
        passcode: await passcode(intruder),
      }),
    ];
    for (const response of notFound) {
      expect(response.statusCode, response.body).toBe(404);
      expect(errorOf(response).message).toBe(ERROR_CODES.NOT_FOUND.message);
    }

    const ip = await owner.browser.post(`/api/v1/ipaddress/${owner.reference}/whitelist`, {
      ip_address: owner.browser.ip,
      passcode: await passcode(owner),
    });
    const ipId = WhitelistedIpSchema.parse(ip.json<{ data: unknown }>().data).id;
    const ownPath = await intruder.browser.post(
      `/api/v1/ipaddress/${intruder.reference}/whitelist/${ipId}/remove`,
      {
        passcode: await passcode(intruder),
      },
    );
    expect(ownPath.statusCode).toBe(404);
    const ownerPath = await intruder.browser.post(
      `/api/v1/ipaddress/${owner.reference}/whitelist/${ipId}/remove`,
      {
        passcode: await passcode(intruder),
      },
    );
    expect(ownerPath.statusCode).toBe(404);

    // The owner's code still works for the owner: the intruder's tries did not use it up.
    const verified = await owner.browser.post('/api/v1/verify-wallet-address', {
      id: Number(wallet.id),
      verify_code: code,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await listWallets(owner)).total).toBe(1);
    const ips = await owner.browser.get(`/api/v1/ipaddress/${owner.reference}/fetchwhitelist`);
    expect(ips.json<{ total: number }>().total).toBe(1);
  });

  it('needs a signed-in customer', async () => {
    const anonymous = createBrowser(t.app);
    expect((await anonymous.get('/api/v1/wallet-address/list')).statusCode).toBe(401);
  });
});

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
