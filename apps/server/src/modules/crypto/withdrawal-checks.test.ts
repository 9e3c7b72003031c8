import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRYPTO_WITHDRAW_TEXTS, type CryptoWithdrawal, waitUntilText } from '@florin/contracts';
import { formatAmount } from '@florin/domain';
import { createTestApp, type TestApp } from '../../test/app.js';
import { freshTotpCode, signedInStaff, switchOnAuthenticator, type SignedInStaff } from '../../test/admin.js';
import { coinDeposit } from '../../test/deposits.js';
import { awayFromTotpStepEdge, oathtoolCode } from '../../test/browser.js';
import { customerBrowser, mailSubjects } from '../compliance/customers.test-kit.js';
import { errorOf, liveCustomer, mailedCode, type FiatCustomer as Customer } from '../fiat/fiat.test-kit.js';
import { balanceOf, expectCryptoLedgerToHold } from './crypto.test-kit.js';
import { TOO_MANY_ATTEMPTS } from '../../test/rate-limited.js';
import { ADDRESS, withdrawalSteps } from './withdrawals.test-kit.js';

let t: TestApp;
let finance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
});
afterAll(async () => {
  await t.close();
});

const { db, fundedCustomer, request, requested, verify, submit, held } = withdrawalSteps(() => t);

describe('what a withdrawal request is refused for, in the spec’s words', () => {
  it('refuses a customer who is not live, and amounts that are empty, too small, too precise or too large', async () => {
    const notLive = await liveCustomer(t, { live: false });
    const refused = await request(notLive, { amount: '0.5' });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toBe(CRYPTO_WITHDRAW_TEXTS.accountNotLive);

    const customer = await fundedCustomer(2_000_000n);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: '' }, CRYPTO_WITHDRAW_TEXTS.enterAmount],
      [{ amount: '0.001' }, 'Minimum BTC withdrawal amount is 0.01'],
      [{ amount: '0.123456789' }, CRYPTO_WITHDRAW_TEXTS.amountDecimals],
      [{ amount: '1e3' }, CRYPTO_WITHDRAW_TEXTS.amountFormat],
      [{ amount: '0.03' }, CRYPTO_WITHDRAW_TEXTS.balanceTooLow],
    ];
    for (const [body, message] of cases) {
      const response = await request(customer, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(errorOf(response).errors?.amount, JSON.stringify(body)).toEqual([message]);
    }
    const noWallet = await request(customer, { amount: '0.01', wallet: '' });
    expect(errorOf(noWallet).errors?.wallet).toEqual([CRYPTO_WITHDRAW_TEXTS.emptyAddress]);
    const xrp = await fundedCustomer(100_000_000n, 'XRP');
    const xrpDecimals = await request(xrp, { coin: 'xrp', amount: '25.5', wallet: ADDRESS.xrp });
    expect(errorOf(xrpDecimals).errors?.amount).toEqual([CRYPTO_WITHDRAW_TEXTS.xrpWholeNumbers]);
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ held: 0n });
    await expectCryptoLedgerToHold(db());
  });

  it('refuses the customer’s own deposit address however it is written or saved, but not another customer’s XRP tag', async () => {
    const customer = await liveCustomer(t);
    const other = await liveCustomer(t);
    for (const asset of ['BCH', 'ETH', 'XRP'] as const)
      await coinDeposit(
        t,
        customer,
        asset.toLowerCase(),
        formatAmount(10n ** (asset === 'ETH' ? 18n : 8n), asset),
      );
    const wallets = (await customer.browser.get('/api/v1/user/wallet-addresses?coin=all')).json<{
      data: { coin_id: string; address: string }[];
    }>().data;
    const own = (coin: string) => wallets.find((wallet) => wallet.coin_id === coin)!.address;
    const xrpOf = async (owner: Customer) =>
      (await owner.browser.get('/api/v1/user/generate-deposit-address/xrp')).json<{
        data: { address: string; tag: string };
      }>().data;
    const xrp = await xrpOf(customer);
    // Saved before the whitelist refused such an address (or by staff): a withdrawal still refuses it.
    const saved = await db()
      .insertInto('whitelisted_wallets')
      .values({
        user_id: customer.id,
        asset: 'ETH',
        address: own('eth'),
        label: 'Mine',
        usable_from: sql<Date>`now() - interval '1 hour'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const attempts: Record<string, unknown>[] = [
      { coin: 'bch', wallet: own('bch').replace('bitcoincash:', ''), amount: '0.5' },
      { coin: 'eth', wallet: own('eth').toLowerCase(), amount: '0.5' },
      { coin: 'eth', wallet: null, whitelisted_wallet_id: Number(saved.id), amount: '0.5' },
      { coin: 'xrp', wallet: xrp.address, xrp_tag: xrp.tag, amount: '30' },
      { coin: 'xrp', wallet: xrp.address, xrp_tag: `00${xrp.tag}`, amount: '30' },
    ];
    for (const body of attempts) {
      const response = await request(customer, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(errorOf(response).errors, JSON.stringify(body)).toEqual({
        wallet: [CRYPTO_WITHDRAW_TEXTS.sendToOwnAddress],
      });
    }
    // The shared XRP address without a tag is nobody's, whether or not the customer has an XRP address of
    // their own: the coins would wait in suspense.
    // The stranger holds no XRP: coins paid in would give them an XRP address, and the address is
    // checked before the balance (withdrawal-requests.ts), so the refusal is the address's either way.
    const stranger = await liveCustomer(t);
    // A tag nobody has is no better: a mistyped tag fails its check digit and would wait in suspense too.
    for (const [sender, tag] of [
      [customer, null],
      [stranger, null],
      [stranger, '4294967295'],
    ] as const) {
      const body = { coin: 'xrp', wallet: xrp.address, amount: '30', ...(tag ? { xrp_tag: tag } : {}) };
      const untagged = await request(sender, body);
      expect(untagged.statusCode, JSON.stringify(body)).toBe(422);
      expect(errorOf(untagged).errors).toEqual({ wallet: [CRYPTO_WITHDRAW_TEXTS.houseAddressWithoutTag] });
    }
    for (const asset of ['BCH', 'ETH', 'XRP'] as const)
      expect((await balanceOf(t, customer.id, asset)).held, asset).toBe(0n);
    expect((await balanceOf(t, stranger.id, 'XRP')).held).toBe(0n);
    // The shared XRP address with someone else's tag is a payment to them.
    const theirs = await xrpOf(other);
    const toOther = await requested(customer, {
      coin: 'xrp',
      wallet: theirs.address,
      xrp_tag: theirs.tag,
      amount: '30',
    });
    expect(toOther).toMatchObject({ address: theirs.address, tag: theirs.tag });
  });

  it('refuses a mistyped address for every coin before anything is held', async () => {
    const customer = await liveCustomer(t);
    for (const asset of ['BTC', 'ETH', 'XRP'] as const)
      await coinDeposit(
        t,
        customer,
        asset.toLowerCase(),
        formatAmount(10n ** (asset === 'ETH' ? 18n : 8n), asset),
      );
    const typos: [string, string][] = [
      ['btc', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx'],
      ['btc', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3'],
      ['eth', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'],
      ['ltc', 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfeb'],
      ['bch', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b'],
      ['xrp', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi'],
      ['btc', ADDRESS.eth],
    ];
    for (const [coin, wallet] of typos) {
      const response = await request(customer, { coin, wallet, amount: coin === 'xrp' ? '30' : '0.05' });
      expect(response.statusCode, `${coin} ${wallet}`).toBe(400);
      expect(errorOf(response)).toMatchObject({ code: 'INVALID_ADDRESS', data: { address: wallet } });
    }
    for (const asset of ['BTC', 'ETH', 'XRP'] as const)
      expect((await balanceOf(t, customer.id, asset)).held).toBe(0n);
  });

  it('refuses crypto withdrawals for 24 hours after a password or 2FA change, and says until when', async () => {
    const customer = await fundedCustomer();
    await db()
      .updateTable('users')
      .set({ security_changed_at: new Date() })
      .where('id', '=', customer.id)
      .execute();
    const info = await customer.browser.get('/api/v1/crypto/withdraw-info?coin=btc');
    const until = info.json<{ data: { blocked_until: string | null } }>().data.blocked_until;
    expect(until).not.toBeNull();
    const response = await request(customer, { amount: '0.5' });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).message).toBe(
      waitUntilText(CRYPTO_WITHDRAW_TEXTS.securityWait, new Date(until ?? '')),
    );
    await db()
      .updateTable('users')
      .set({ security_changed_at: sql<Date>`now() - interval '25 hours'` })
      .where('id', '=', customer.id)
      .execute();
    expect((await request(customer, { amount: '0.5' })).statusCode).toBe(200);
  });
});

describe('the e-mailed code', () => {
  it('works only for its own withdrawal, and an expired one offers a new one', async () => {
    const customer = await fundedCustomer();
    const first = await requested(customer, { amount: '0.1' });
    const firstCode = await mailedCode(db(), customer.email);
    const second = await requested(customer, { amount: '0.2' });
    const secondCode = await mailedCode(db(), customer.email);

    const crossed = await verify(customer, second.id, firstCode);
    expect(crossed.statusCode).toBe(400);
    expect(errorOf(crossed).message).toBe(CRYPTO_WITHDRAW_TEXTS.codeWrong);
    expect((await verify(customer, first.id, firstCode)).statusCode).toBe(200);

    await db()
      .updateTable('withdrawal_codes')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('purpose', '=', `crypto_withdrawal:${second.id}`)
      .execute();
    const expired = await verify(customer, second.id, secondCode);
    expect(expired.statusCode).toBe(400);
    expect(errorOf(expired).message).toBe(CRYPTO_WITHDRAW_TEXTS.codeExpired);
    const resent = await customer.browser.post(`/api/v1/crypto/withdrawals/${second.id}/resend-code`);
    expect(resent.json()).toEqual({ message: CRYPTO_WITHDRAW_TEXTS.codeResent });
    const newCode = await mailedCode(db(), customer.email);
    expect((await verify(customer, second.id, newCode)).statusCode).toBe(200);
  });

  it('stops working after five wrong tries', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await requested(customer, { amount: '0.1' });
    const code = await mailedCode(db(), customer.email);
    const wrong = code === '111111' ? '222222' : '111111';
    for (let attempt = 0; attempt < 5; attempt += 1) await verify(customer, withdrawal.id, wrong);
    const late = await verify(customer, withdrawal.id, code);
    expect(errorOf(late).message).toBe(CRYPTO_WITHDRAW_TEXTS.codeExpired);
  });

  it('is mailed anew at most five times for one withdrawal, then the resend is refused (429)', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await requested(customer, { amount: '0.1' });
    const resend = () => customer.browser.post(`/api/v1/crypto/withdrawals/${withdrawal.id}/resend-code`);
    for (let resent = 0; resent < 5; resent += 1) {
      const answer = await resend();
      expect(answer.statusCode, answer.body).toBe(200);
    }
    const refused = await resend();
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({
      code: 'RATE_LIMITED',
      message: CRYPTO_WITHDRAW_TEXTS.tooManyResends,
    });
    const codesMailed = (await mailSubjects(db(), customer.email)).filter((subject) =>
      subject.startsWith('Your withdrawal code'),
    );
    expect(codesMailed).toHaveLength(6);
    // The cap is the withdrawal's: the last code still confirms it, and another withdrawal has its own.
    expect((await verify(customer, withdrawal.id, await mailedCode(db(), customer.email))).statusCode).toBe(
      200,
    );
    const other = await requested(customer, { amount: '0.1' });
    const resentOther = await customer.browser.post(`/api/v1/crypto/withdrawals/${other.id}/resend-code`);
    expect(resentOther.statusCode, resentOther.body).toBe(200);
  });

  it('of 50 concurrent verify calls with one code, exactly one succeeds', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await requested(customer, { amount: '0.1' });
    const code = await mailedCode(db(), customer.email);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => verify(customer, withdrawal.id, code)),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode >= 500)).toHaveLength(0);
  });
});

describe('second factor', () => {
  it('needs the authenticator code of a customer with 2FA, once', async () => {
    const customer = await fundedCustomer();
    const secret = await switchOnAuthenticator(customer.browser);
    const blocked = await request(customer, { amount: '0.1' });
    expect(blocked.statusCode, 'turning 2FA on starts the 24-hour pause').toBe(403);
    await db()
      .updateTable('users')
      .set({ security_changed_at: sql<Date>`now() - interval '25 hours'` })
      .where('id', '=', customer.id)
      .execute();

    const withdrawal = await requested(customer, { amount: '0.1' });
    expect((await verify(customer, withdrawal.id, await mailedCode(db(), customer.email))).statusCode).toBe(
      200,
    );
    const missing = await submit(customer, withdrawal.id);
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).data).toEqual({ passcode: CRYPTO_WITHDRAW_TEXTS.passcodeRequired });
    const wrong = await submit(customer, withdrawal.id, '000000');
    expect(errorOf(wrong).data).toEqual({ passcode: CRYPTO_WITHDRAW_TEXTS.wrongPasscode });
    const ok = await submit(customer, withdrawal.id, freshTotpCode(secret));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ data: { status: 'pending' } });
  });
});

describe('guessing the second factor', () => {
  /** The same customer signed in on another browser, from an address of its own. */
  async function elsewhere(customer: Customer): Promise<Customer> {
    return { ...customer, browser: await customerBrowser(t.app, db(), customer.id) };
  }

  /** 2FA on, past the 24-hour pause it starts; the authenticator's secret. */
  async function withAuthenticator(customer: Customer): Promise<string> {
    const secret = await switchOnAuthenticator(customer.browser);
    await db()
      .updateTable('users')
      .set({ security_changed_at: sql<Date>`now() - interval '25 hours'` })
      .where('id', '=', customer.id)
      .execute();
    return secret;
  }

  /** The authenticator's current code, its step forgotten so the server takes it (no wait for the next one). */
  async function rightCode(customer: Customer, secret: string): Promise<string> {
    await db().updateTable('users').set({ totp_last_step: null }).where('id', '=', customer.id).execute();
    awayFromTotpStepEdge();
    return oathtoolCode(secret);
  }

  async function verified(customer: Customer): Promise<CryptoWithdrawal> {
    const withdrawal = await requested(customer, { amount: '0.1' });
    const answer = await verify(customer, withdrawal.id, await mailedCode(db(), customer.email));
    expect(answer.statusCode, answer.body).toBe(200);
    return withdrawal;
  }

  async function statusOf(id: string) {
    const row = await db()
      .selectFrom('crypto_withdrawals')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.status;
  }

  it('after five wrong codes from five addresses, refuses the right one (429) and queues nothing', async () => {
    const customer = await fundedCustomer();
    const secret = await withAuthenticator(customer);
    const withdrawal = await verified(customer);
    const addresses = new Set([customer.browser.ip]);
    for (let guess = 0; guess < 5; guess += 1) {
      const thief = await elsewhere(customer);
      addresses.add(thief.browser.ip);
      const wrong = await submit(thief, withdrawal.id, '000000');
      expect(wrong.statusCode).toBe(400);
      expect(errorOf(wrong).data).toEqual({ passcode: CRYPTO_WITHDRAW_TEXTS.wrongPasscode });
    }
    expect(addresses.size).toBe(6);

    const locked = await submit(customer, withdrawal.id, await rightCode(customer, secret));
    expect(locked.statusCode).toBe(429);
    expect(errorOf(locked)).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(TOO_MANY_ATTEMPTS) as string,
    });
    expect(await statusOf(withdrawal.id)).toBe('verified');
    expect(await held(customer.id)).toBe(10_000_000n);

    // Fifteen minutes on, the owner's right code goes through and forgets the earlier failures.
    await db()
      .updateTable('rate_limit_hits')
      .set({ at: sql<Date>`now() - interval '16 minutes'` })
      .where('key', '=', `second-factor:user:${customer.id}`)
      .execute();
    for (let guess = 0; guess < 4; guess += 1)
      expect((await submit(await elsewhere(customer), withdrawal.id, '000000')).statusCode).toBe(400);
    const ok = await submit(customer, withdrawal.id, await rightCode(customer, secret));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ data: { status: 'pending' } });
    const hits = await db()
      .selectFrom('rate_limit_hits')
      .select('key')
      .where('key', '=', `second-factor:user:${customer.id}`)
      .execute();
    expect(hits).toEqual([]);
  });
});

describe('a saved XRP address and its destination tag', () => {
  /** A saved XRP address at an exchange (tag 77: the customer's account there), usable for an hour. */
  async function savedExchangeAddress(customer: Customer): Promise<number> {
    const row = await db()
      .insertInto('whitelisted_wallets')
      .values({
        user_id: customer.id,
        asset: 'XRP',
        address: ADDRESS.xrp,
        tag: '77',
        label: 'Exchange',
        usable_from: sql<Date>`now() - interval '1 hour'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  const toSaved = (id: number, body: Record<string, unknown> = {}) => ({
    coin: 'xrp',
    wallet: null,
    whitelisted_wallet_id: id,
    amount: '25',
    ...body,
  });

  it('refuses another tag with a saved address and changes nothing; no tag or its own tag sends with its tag', async () => {
    const customer = await fundedCustomer(100_000_000n, 'XRP');
    const saved = await savedExchangeAddress(customer);

    for (const tag of ['78', '0']) {
      const otherTag = await request(customer, toSaved(saved, { xrp_tag: tag }));
      expect(otherTag.statusCode, tag).toBe(422);
      expect(errorOf(otherTag)).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: CRYPTO_WITHDRAW_TEXTS.savedAddressOtherTag,
        errors: { xrp_tag: [CRYPTO_WITHDRAW_TEXTS.savedAddressOtherTag] },
      });
    }
    const badTag = await request(customer, toSaved(saved, { xrp_tag: '99999999999' }));
    expect(badTag.statusCode).toBe(422);
    expect(errorOf(badTag).errors).toEqual({ xrp_tag: [CRYPTO_WITHDRAW_TEXTS.tagInvalid] });
    const nothing = await db()
      .selectFrom('crypto_withdrawals')
      .select('id')
      .where('user_id', '=', customer.id)
      .execute();
    expect(nothing).toEqual([]);
    expect(await balanceOf(t, customer.id, 'XRP')).toMatchObject({ available: 100_000_000n, held: 0n });

    for (const body of [{}, { xrp_tag: '77' }, { xrp_tag: null }]) {
      const withdrawal = await requested(customer, toSaved(saved, body));
      expect(withdrawal, JSON.stringify(body)).toMatchObject({ address: ADDRESS.xrp, tag: '77' });
    }
    const rows = await db()
      .selectFrom('crypto_withdrawals')
      .select(['tag', 'whitelisted_wallet_id'])
      .where('user_id', '=', customer.id)
      .execute();
    expect(rows).toEqual(
      Array.from({ length: 3 }, () => ({ tag: '77', whitelisted_wallet_id: String(saved) })),
    );
  });

  it('approves automatically only a withdrawal whose tag is the saved one', async () => {
    const customer = await fundedCustomer(100_000_000n, 'XRP');
    const saved = await savedExchangeAddress(customer);
    const settings = await finance.browser.get('/api/admin/crypto/withdrawal-settings');
    const before = settings
      .json<{ data: { coin_id: string; daily_limit: string | null; auto_approve_whitelisted: boolean }[] }>()
      .data.find((coin) => coin.coin_id === 'xrp');
    const switched = await finance.browser.put('/api/admin/crypto/withdrawal-settings/xrp', {
      daily_limit: '1000',
      auto_approve_whitelisted: true,
    });
    expect(switched.statusCode, switched.body).toBe(200);
    try {
      const verifiedTo = async (tag: string | null) => {
        const withdrawal = await requested(customer, toSaved(saved));
        const answer = await verify(customer, withdrawal.id, await mailedCode(db(), customer.email));
        expect(answer.statusCode, answer.body).toBe(200);
        // What a request taken before the saved-address check could have stored: the row's own tag.
        await db().updateTable('crypto_withdrawals').set({ tag }).where('id', '=', withdrawal.id).execute();
        return withdrawal.id;
      };
      const ownTag = await submit(customer, await verifiedTo('77'));
      expect(ownTag.json()).toMatchObject({ data: { status: 'approved' } });
      for (const tag of ['78', null]) {
        const otherTag = await submit(customer, await verifiedTo(tag));
        expect(otherTag.statusCode, otherTag.body).toBe(200);
        expect(otherTag.json(), String(tag)).toMatchObject({ data: { status: 'pending' } });
      }
    } finally {
      await finance.browser.put('/api/admin/crypto/withdrawal-settings/xrp', {
        daily_limit: before?.daily_limit ?? '1000000',
        auto_approve_whitelisted: before?.auto_approve_whitelisted ?? false,
      });
    }
  });
});
