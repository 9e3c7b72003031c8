import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminCryptoWithdrawalSchema,
  CRYPTO_WITHDRAW_TEXTS,
  CryptoActivitySchema,
  CryptoWithdrawalSchema,
  CryptoWithdrawInfoSchema,
  pageSchema,
  type CryptoWithdrawal,
  waitUntilText,
} from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  freshTotpCode,
  signedInStaff,
  switchOnAuthenticator,
  type SignedInStaff,
  putOnHold,
} from '../../test/admin.js';
import { fund } from '../../test/ledger.js';
import { createEmailedCodes } from '../../security/emailed-codes.js';
import { createRateLimiter } from '../../security/rate-limits.js';
import { createSecondFactor } from '../../security/second-factor.js';
import { awayFromTotpStepEdge, oathtoolCode } from '../../test/browser.js';
import { customerBrowser, mailSubjects } from '../compliance/customers.test-kit.js';
import { createNotifier } from '../notifications/service.js';
import {
  errorOf,
  liveCustomer,
  mailedCode,
  newIdempotencyKey,
  type FiatCustomer as Customer,
} from '../fiat/fiat.test-kit.js';
import { balanceOf, expectCryptoLedgerToHold } from './crypto.test-kit.js';
import { createCryptoWithdrawalRepository } from './withdrawal-repository.js';
import { createCryptoWithdrawalService } from './withdrawals.js';
import { createKycRepository } from '../kyc/repository.js';
import { createVerificationGate } from '../kyc/verification.js';
import { testClock } from '../../test/clock.js';
import { TOO_MANY_ATTEMPTS } from '../../test/rate-limited.js';

let t: TestApp;
let finance: SignedInStaff;
let finance2: SignedInStaff;
let compliance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  finance2 = await signedInStaff(t.app, t.database.db, 'finance');
  compliance = await signedInStaff(t.app, t.database.db, 'compliance');
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

/** Valid mainnet addresses (BIP173, EIP-55, CashAddr and XRP examples). */
const ADDRESS = {
  btc: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  eth: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  ltc: 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea',
  bch: 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
  xrp: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
} as const;

const TRAVEL_SELF = { beneficiary_type: 'self', destination_type: 'private_wallet' } as const;

/** A live customer holding `units` of BTC (satoshi). */
async function fundedCustomer(units = 100_000_000n, asset: 'BTC' | 'XRP' | 'ETH' = 'BTC'): Promise<Customer> {
  const customer = await liveCustomer(t);
  await fund(t.ledger, db(), customer.id, asset, units);
  return customer;
}

function request(customer: Customer, body: Record<string, unknown>, key = newIdempotencyKey()) {
  return customer.browser.post(
    '/api/v1/crypto/send-verify-withdraw',
    { coin: 'btc', wallet: ADDRESS.btc, ...TRAVEL_SELF, ...body },
    { headers: { 'idempotency-key': key } },
  );
}

async function requested(customer: Customer, body: Record<string, unknown> = {}): Promise<CryptoWithdrawal> {
  const response = await request(customer, { amount: '0.5', ...body });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json<{ message: string }>().message).toBe(CRYPTO_WITHDRAW_TEXTS.codeSent);
  return CryptoWithdrawalSchema.parse(response.json<{ data: unknown }>().data);
}

function verify(customer: Customer, id: string, code: string) {
  return customer.browser.post('/api/v1/crypto/verify-withdraw', { withdrawal_id: id, verify_code: code });
}

function submit(customer: Customer, id: string, passcode?: string) {
  return customer.browser.post('/api/v1/crypto/withdraw', { withdrawal_id: id, passcode });
}

/** Requested, verified with the mailed code and queued (a customer without 2FA). */
async function queued(customer: Customer, body: Record<string, unknown> = {}): Promise<CryptoWithdrawal> {
  const withdrawal = await requested(customer, body);
  const verified = await verify(customer, withdrawal.id, await mailedCode(db(), customer.email));
  expect(verified.statusCode, verified.body).toBe(200);
  const done = await submit(customer, withdrawal.id);
  expect(done.statusCode, done.body).toBe(200);
  return CryptoWithdrawalSchema.parse(done.json<{ data: unknown }>().data);
}

async function staffAction(
  staff: SignedInStaff,
  id: string,
  action: string,
  body: Record<string, unknown> = {},
) {
  return staff.browser.post(`/api/admin/crypto/withdrawals/${id}/${action}`, body);
}

async function held(customerId: number, asset: 'BTC' | 'XRP' = 'BTC') {
  return (await balanceOf(t, customerId, asset)).held;
}

describe('a crypto withdrawal from request to the chain', () => {
  it('holds the amount, takes the mailed code, queues it, and staff approve, send and confirm it', async () => {
    const customer = await fundedCustomer();
    const info = await customer.browser.get('/api/v1/crypto/withdraw-info?coin=btc');
    expect(CryptoWithdrawInfoSchema.parse(info.json<{ data: unknown }>().data)).toEqual({
      coin_id: 'btc',
      available: '1.00000000',
      minimum: '0.01000000',
      fee: '0.00050000',
      decimals: 8,
      passcode_required: false,
      email_codes: false,
      withdraw_disabled: false,
      blocked_until: null,
    });

    const withdrawal = await requested(customer, { amount: '0.5', fee: '999', amount_receive: '999' });
    expect(withdrawal).toMatchObject({
      status: 'awaiting_code',
      amount: '0.50000000',
      fee: '0.00050000',
      amount_receive: '0.49950000',
      address: ADDRESS.btc,
      can_cancel: true,
    });
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({
      available: 50_000_000n,
      held: 50_000_000n,
    });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your withdrawal code'),
    );

    const wrong = await verify(customer, withdrawal.id, '000000');
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toMatchObject({
      code: 'VERIFICATION_FAILED',
      message: CRYPTO_WITHDRAW_TEXTS.codeWrong,
    });
    const early = await submit(customer, withdrawal.id);
    expect(errorOf(early).message).toBe(CRYPTO_WITHDRAW_TEXTS.notVerified);

    const code = await mailedCode(db(), customer.email);
    const verified = await verify(customer, withdrawal.id, code);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json<{ data: CryptoWithdrawal }>().data.status).toBe('verified');
    const reused = await verify(customer, withdrawal.id, code);
    expect(reused.statusCode).toBe(409);

    const done = await submit(customer, withdrawal.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      data: { status: 'pending', status_label: 'Pending' },
      message: CRYPTO_WITHDRAW_TEXTS.withdrawalRequested,
    });
    const again = await submit(customer, withdrawal.id);
    expect(again.json()).toMatchObject({ data: { status: 'pending' } });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your crypto withdrawal request'),
    );

    const queue = await finance.browser.get('/api/admin/crypto/withdrawals');
    const row = pageSchema(AdminCryptoWithdrawalSchema)
      .parse(queue.json())
      .data.find((item) => item.id === withdrawal.id);
    expect(row).toMatchObject({
      status: 'pending',
      beneficiary_type: 'self',
      destination_type: 'private_wallet',
      wallet: 'simulated',
      whitelisted: false,
      needs_second_approval: false,
    });

    const sendEarly = await staffAction(finance, withdrawal.id, 'send');
    expect(sendEarly.statusCode).toBe(409);
    const approved = await staffAction(finance, withdrawal.id, 'approve');
    expect(approved.json()).toMatchObject({
      data: { status: 'approved' },
      message: CRYPTO_WITHDRAW_TEXTS.approved,
    });
    // A fresh BTC price (£20,000 mid) when the coins leave.
    const driven = await t.app.inject({
      method: 'POST',
      url: '/dev/market/drive',
      payload: { symbol: 'BTC/GBP', mid: '20000' },
    });
    expect(driven.statusCode, driven.body).toBe(200);
    const sent = await staffAction(finance, withdrawal.id, 'send');
    expect(sent.statusCode, sent.body).toBe(200);
    const txid = sent.json<{ data: { txid: string; status: string } }>().data.txid;
    expect(sent.json()).toMatchObject({ data: { status: 'sent' } });

    const onChain = await db()
      .selectFrom('simulated_chain_transactions')
      .select(['address', 'amount'])
      .where('txid', '=', txid)
      .executeTakeFirstOrThrow();
    expect(onChain).toEqual({ address: ADDRESS.btc, amount: '49950000' });
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: 50_000_000n, held: 0n });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your crypto withdrawal was sent'),
    );

    const confirmed = await staffAction(finance, withdrawal.id, 'confirm');
    expect(confirmed.json()).toMatchObject({ data: { status: 'confirmed', status_label: 'Completed' } });

    const activity = await customer.browser.get('/api/v1/crypto/transactions?coin=btc');
    const items = pageSchema(CryptoActivitySchema).parse(activity.json()).data;
    expect(items[0]).toMatchObject({
      type: 'withdrawal',
      amount: '0.50000000',
      status_label: 'Completed',
      txid,
    });
    // The history and its CSV say what the coins were worth in pounds when they left, as for a deposit.
    const journal = await db()
      .selectFrom('journals')
      .select('metadata')
      .where('idempotency_key', '=', `crypto_withdrawal_sent:${withdrawal.id}`)
      .executeTakeFirstOrThrow();
    const value = (journal.metadata as { gbp_value?: string }).gbp_value;
    // The whole 0.5 BTC that left the balance (fee included), at the market's GBP rate after the drive (£19,900).
    expect(value).toBe('9950.00');
    const history = await customer.browser.get('/api/v1/user/transactions?coin=btc');
    expect(history.json<{ data: { gbp_amount: string | null }[] }>().data[0]).toMatchObject({
      gbp_amount: value,
    });
    await expectCryptoLedgerToHold(db());
  });

  it('stores the Travel Rule answers and asks for the name when the wallet is someone else’s', async () => {
    const customer = await fundedCustomer();
    const noName = await request(customer, {
      amount: '0.1',
      beneficiary_type: 'person',
      destination_type: 'exchange',
    });
    expect(noName.statusCode).toBe(422);
    expect(errorOf(noName).errors).toEqual({
      beneficiary_name: [CRYPTO_WITHDRAW_TEXTS.beneficiaryNameRequired],
      exchange_name: [CRYPTO_WITHDRAW_TEXTS.exchangeNameRequired],
    });
    const withdrawal = await requested(customer, {
      amount: '0.1',
      beneficiary_type: 'business',
      beneficiary_name: 'Acme Ltd',
      destination_type: 'exchange',
      exchange_name: 'Kraken',
    });
    expect(withdrawal).toMatchObject({
      beneficiary_type: 'business',
      beneficiary_name: 'Acme Ltd',
      destination_type: 'exchange',
      exchange_name: 'Kraken',
    });
  });
});

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
      await fund(t.ledger, db(), customer.id, asset, 10n ** (asset === 'ETH' ? 18n : 8n));
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
    const stranger = await liveCustomer(t);
    await fund(t.ledger, db(), stranger.id, 'XRP', 10n ** 8n);
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
      await fund(t.ledger, db(), customer.id, asset, 10n ** (asset === 'ETH' ? 18n : 8n));
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

describe('races and idempotency', () => {
  it('of 50 concurrent withdrawals of the whole balance, exactly one holds it', async () => {
    const customer = await fundedCustomer(10_000_000n);
    const answers = await Promise.all(Array.from({ length: 50 }, () => request(customer, { amount: '0.1' })));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode >= 500)).toHaveLength(0);
    const holds = await db()
      .selectFrom('crypto_withdrawals')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(Number(holds.count)).toBe(1);
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: 0n, held: 10_000_000n });
    await expectCryptoLedgerToHold(db());
  });

  it('answers a repeated request with the same withdrawal, and refuses the key for another request', async () => {
    const customer = await fundedCustomer();
    const key = newIdempotencyKey();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => request(customer, { amount: '0.2' }, key)),
    );
    const ids = new Set(answers.map((answer) => answer.json<{ data: { id: string } }>().data.id));
    expect(ids.size).toBe(1);
    expect(await held(customer.id)).toBe(20_000_000n);
    const other = await request(customer, { amount: '0.3' }, key);
    expect(other.statusCode).toBe(409);
  });

  it('keeps another customer’s withdrawal out of reach (404)', async () => {
    const owner = await fundedCustomer();
    const stranger = await fundedCustomer();
    const withdrawal = await requested(owner, { amount: '0.1' });
    const code = await mailedCode(db(), owner.email);
    expect((await verify(stranger, withdrawal.id, code)).statusCode).toBe(404);
    expect((await submit(stranger, withdrawal.id)).statusCode).toBe(404);
    expect(
      (await stranger.browser.post(`/api/v1/crypto/withdrawals/${withdrawal.id}/cancel`)).statusCode,
    ).toBe(404);
    expect(
      (await stranger.browser.post(`/api/v1/crypto/withdrawals/${withdrawal.id}/resend-code`)).statusCode,
    ).toBe(404);
    const activity = await stranger.browser.get('/api/v1/crypto/transactions');
    expect(JSON.stringify(activity.json())).not.toContain(`withdrawal:${withdrawal.id}"`);
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

  /** The newest withdrawal code mailed (mailedCode would read the 6 decimals of an XRP amount). */
  async function xrpMailedCode(email: string): Promise<string> {
    const mail = await db()
      .selectFrom('dev_mailbox')
      .select('text')
      .where('to', '=', email)
      .where('subject', 'like', 'Your withdrawal code%')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const code = /\bis (\d{6})\. It works once/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no withdrawal code mailed to ${email}`);
    return code;
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
        const answer = await verify(customer, withdrawal.id, await xrpMailedCode(customer.email));
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

describe('the staff side', () => {
  it('needs two different staff members beyond the daily limit', async () => {
    const customer = await fundedCustomer(300_000_000n);
    const withinLimit = await queued(customer, { amount: '0.6' });
    const beyond = await queued(customer, { amount: '0.6' });
    const rows = pageSchema(AdminCryptoWithdrawalSchema).parse(
      (await finance.browser.get('/api/admin/crypto/withdrawals')).json(),
    ).data;
    expect(rows.find((row) => row.id === withinLimit.id)?.needs_second_approval).toBe(false);
    expect(rows.find((row) => row.id === beyond.id)?.needs_second_approval).toBe(true);

    const first = await staffAction(finance, beyond.id, 'approve');
    expect(first.json()).toMatchObject({
      data: { status: 'pending' },
      message: CRYPTO_WITHDRAW_TEXTS.firstApproval,
    });
    const twice = await staffAction(finance, beyond.id, 'approve');
    expect(errorOf(twice).message).toBe(CRYPTO_WITHDRAW_TEXTS.alreadyApprovedByYou);
    const second = await staffAction(finance2, beyond.id, 'approve');
    expect(second.json()).toMatchObject({ data: { status: 'approved', second_approved_by: finance2.email } });
  });

  it('rejects with a reason: the coins come back and the customer is told', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await queued(customer, { amount: '0.4' });
    const noReason = await staffAction(finance, withdrawal.id, 'reject', { reason: ' ' });
    expect(noReason.statusCode).toBe(422);
    const rejected = await staffAction(finance, withdrawal.id, 'reject', { reason: 'Sanctioned address' });
    expect(rejected.json()).toMatchObject({
      data: { status: 'rejected', reject_reason: 'Sanctioned address' },
    });
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: 100_000_000n, held: 0n });
    expect(await mailSubjects(db(), customer.email)).toContainEqual(
      expect.stringContaining('Your crypto withdrawal was not made'),
    );
    expect((await staffAction(finance, withdrawal.id, 'approve')).statusCode).toBe(409);
    await expectCryptoLedgerToHold(db());
  });

  it('neither approves nor sends a withdrawal of a customer on hold; rejecting it stays possible', async () => {
    const customer = await fundedCustomer();
    const pending = await queued(customer, { amount: '0.2' });
    const approved = await queued(customer, { amount: '0.3' });
    const rejectable = await queued(customer, { amount: '0.1' });
    expect((await staffAction(finance, approved.id, 'approve')).statusCode).toBe(200);
    await putOnHold(compliance, customer.id);

    const rows = pageSchema(AdminCryptoWithdrawalSchema).parse(
      (await finance.browser.get('/api/admin/crypto/withdrawals')).json(),
    ).data;
    expect(rows.find((row) => row.id === pending.id)).toMatchObject({ customer_on_hold: true });
    const approve = await staffAction(finance, pending.id, 'approve');
    expect(approve.statusCode).toBe(409);
    expect(errorOf(approve)).toMatchObject({
      code: 'CONFLICT',
      message: CRYPTO_WITHDRAW_TEXTS.customerOnHold,
    });
    const send = await staffAction(finance, approved.id, 'send');
    expect(send.statusCode).toBe(409);
    expect(errorOf(send)).toMatchObject({ code: 'CONFLICT', message: CRYPTO_WITHDRAW_TEXTS.customerOnHold });
    const statuses = await db()
      .selectFrom('crypto_withdrawals')
      .innerJoin('holds', 'holds.id', 'crypto_withdrawals.hold_id')
      .select(['crypto_withdrawals.id', 'crypto_withdrawals.status', 'holds.status as hold_status'])
      .where('crypto_withdrawals.id', 'in', [pending.id, approved.id])
      .execute();
    expect(statuses).toHaveLength(2);
    expect(statuses).toEqual(
      expect.arrayContaining([
        { id: pending.id, status: 'pending', hold_status: 'pending' },
        { id: approved.id, status: 'approved', hold_status: 'pending' },
      ]),
    );
    const rejected = await staffAction(finance, rejectable.id, 'reject', { reason: 'Account under review' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({
      available: 50_000_000n,
      held: 50_000_000n,
    });

    const lifted = await compliance.browser.post(`/api/admin/compliance/cases/${customer.id}/lift-hold`, {
      reason: 'Cleared: a false match.',
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect((await staffAction(finance, pending.id, 'approve')).statusCode).toBe(200);
    const sent = await staffAction(finance, approved.id, 'send');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ data: { status: 'sent', customer_on_hold: false } });
    await expectCryptoLedgerToHold(db());
  });

  it('approves automatically to an address whitelisted over 24 hours ago when staff switch it on', async () => {
    const customer = await fundedCustomer();
    await db()
      .insertInto('whitelisted_wallets')
      .values({
        user_id: customer.id,
        asset: 'BTC',
        address: ADDRESS.btc,
        label: 'Ledger',
        usable_from: sql<Date>`now() - interval '1 hour'`,
      })
      .execute();
    const manual = await queued(customer, { amount: '0.1' });
    expect(manual.status).toBe('pending');
    const switched = await finance.browser.put('/api/admin/crypto/withdrawal-settings/btc', {
      daily_limit: '1',
      auto_approve_whitelisted: true,
    });
    expect(switched.statusCode, switched.body).toBe(200);
    try {
      const automatic = await queued(customer, { amount: '0.1' });
      expect(automatic.status).toBe('approved');
      const typedElsewhere = await queued(customer, {
        amount: '0.1',
        wallet: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      });
      expect(typedElsewhere.status).toBe('pending');
    } finally {
      await finance.browser.put('/api/admin/crypto/withdrawal-settings/btc', {
        daily_limit: '1',
        auto_approve_whitelisted: false,
      });
    }
  });

  it('sends a cold-storage coin only with the txid the signer returns', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await queued(customer, { amount: '0.3' });
    await staffAction(finance, withdrawal.id, 'approve');
    const mailer = createDevMailbox(db());
    const emailedCodes = createEmailedCodes({ db: db(), key: 'test', clock: testClock });
    const limits = createRateLimiter(db());
    const cold = createCryptoWithdrawalService({
      db: db(),
      repository: createCryptoWithdrawalRepository(db()),
      ledger: t.ledger,
      notifier: createNotifier({ db: db(), mailer, log: t.app.log }),
      userEvents: { moneyMoved: () => undefined },
      emailedCodes,
      secondFactor: createSecondFactor({
        emailedCodes,
        limits,
        verifyAuthenticatorCode: () => Promise.resolve(false),
      }),
      limits,
      addresses: { network: 'mainnet', sources: {} },
      gbpRate: () => null,
      savedAddresses: {
        findWallet: () => Promise.resolve(undefined),
        findByAddress: () => Promise.resolve(undefined),
      },
      wallets: {
        BTC: { kind: 'cold_storage' },
        ETH: { kind: 'cold_storage' },
        LTC: { kind: 'cold_storage' },
        BCH: { kind: 'cold_storage' },
        XRP: { kind: 'cold_storage' },
      },
      verification: createVerificationGate({ db: db(), repository: createKycRepository(db()) }),
      clock: testClock,
    });
    const actor = { staffId: finance.id, ip: '127.0.0.1' };
    const signing = await cold.signingRequest(withdrawal.id);
    expect(signing.data).toMatchObject({
      address: ADDRESS.btc,
      amount: '0.29950000',
      amount_units: '29950000',
    });
    await expect(cold.send(actor, withdrawal.id, null)).rejects.toThrow(CRYPTO_WITHDRAW_TEXTS.txidRequired);
    // Put on hold once signed: no new signing request, but the transaction already sent is recorded.
    await putOnHold(compliance, customer.id);
    await expect(cold.signingRequest(withdrawal.id)).rejects.toThrow(CRYPTO_WITHDRAW_TEXTS.customerOnHold);
    const sent = await cold.send(actor, withdrawal.id, 'f'.repeat(64));
    expect(sent.data).toMatchObject({ status: 'sent', txid: 'f'.repeat(64), wallet: 'cold_storage' });
    await expectCryptoLedgerToHold(db());
  });
});

describe('unconfirmed requests', () => {
  it('are cancelled by the customer or expire after 30 minutes, and the coins come back', async () => {
    const customer = await fundedCustomer();
    const cancelled = await requested(customer, { amount: '0.2' });
    const answer = await customer.browser.post(`/api/v1/crypto/withdrawals/${cancelled.id}/cancel`);
    expect(answer.json()).toMatchObject({
      data: { status: 'cancelled' },
      message: CRYPTO_WITHDRAW_TEXTS.cancelled,
    });

    const stale = await requested(customer, { amount: '0.3' });
    expect(await held(customer.id)).toBe(30_000_000n);
    await db()
      .updateTable('crypto_withdrawals')
      .set({ verify_by: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', stale.id)
      .execute();
    const activity = await customer.browser.get('/api/v1/crypto/transactions?coin=btc');
    const items = pageSchema(CryptoActivitySchema).parse(activity.json()).data;
    expect(items.find((item) => item.id === `withdrawal:${stale.id}`)?.status).toBe('expired');
    expect(await balanceOf(t, customer.id, 'BTC')).toMatchObject({ available: 100_000_000n, held: 0n });
    await expectCryptoLedgerToHold(db());
  });
});
