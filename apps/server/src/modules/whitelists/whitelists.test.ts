import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CRYPTO_WITHDRAW_TEXTS,
  ERROR_CODES,
  WHITELIST_TEXTS,
  WhitelistedIpSchema,
  WhitelistedWalletSchema,
  ukDateTime,
} from '@florin/contracts';
import { createStorageFromConfig } from '../../adapters/storage/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser, mailTo } from '../../test/browser.js';
import {
  customerBrowser,
  insertApprovedVerification,
  mailSubjects,
} from '../compliance/customers.test-kit.js';
import { TOO_MANY_ATTEMPTS } from '../../test/rate-limited.js';
import { ADDRESSES, errorOf, otherCode, randomEthAddress, whitelistSteps } from './whitelists.test-kit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const { db, newCustomer, passcode, addWallet, addedWallet, listWallets, removalCode } = whitelistSteps(
  () => t,
);

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
