import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminTermDepositOptionSchema,
  TERM_DEPOSIT_TEXTS,
  TermDepositTransactionSchema,
  termDepositAfterTerminationText,
} from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { signedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { coinDeposit } from '../../test/deposits.js';
import { errorOf, liveCustomer, newIdempotencyKey } from '../fiat/fiat.test-kit.js';
import { giveNotice, termDepositKit } from './term-deposits.test-kit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const { expectLedgerToHold, customerWith, coins, shortestOption, lock, available, history } = termDepositKit(
  () => t,
);

// The Done-when: the checker passes after every test, not only those that say so.
afterEach(async () => {
  await expectLedgerToHold();
});

describe('locking coins in a term deposit', () => {
  it('offers each coin with its balance and the default terms, shortest first', async () => {
    const customer = await customerWith('1');
    const eth = (await coins(customer)).find((coin) => coin.coin_id === 'eth');
    expect(eth).toMatchObject({ name: 'Ethereum', balance: '1.000000000000000000', scale: 18 });
    expect(eth?.options.map((option) => [option.no_days, option.interest_rate])).toEqual([
      [30, '0.25'],
      [90, '1'],
      [180, '2.25'],
    ]);
    expect(eth?.options[0]?.days_id).toBe(eth?.options[0]?.id);
  });

  it('moves the amount from available into the deposit at the rate and term it fixes, once per key', async () => {
    const customer = await customerWith('1');
    const option = await shortestOption(customer);
    const key = newIdempotencyKey();
    const before = Date.now();
    const response = await lock(customer, { coin: 'eth', amount: '0.5', day: option.id, rate: '0.25' }, key);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ data: unknown; message: string }>();
    expect(body.message).toBe(TERM_DEPOSIT_TEXTS.success);
    const deposit = TermDepositTransactionSchema.parse(body.data);
    expect(deposit).toMatchObject({
      coin_id: 'eth',
      amount: '0.500000000000000000',
      rate: '0.25',
      deposit_return: '0.001250000000000000',
      total_balance_amount: '0.501250000000000000',
      term_days: 30,
      is_active: true,
      status: 'live',
    });
    const days = (Date.parse(deposit.end_day) - Date.parse(deposit.start_day)) / 86_400_000;
    expect(days).toBe(30);
    expect(Date.parse(deposit.start_day)).toBeGreaterThanOrEqual(before - 1000);
    expect(await available(customer)).toBe(parseAmount('0.5', 'ETH'));

    // The dashboard's balance shows it as a term deposit, not as spendable.
    const balance = await customer.browser.get('/api/v1/balance?percentage=true');
    expect(balance.statusCode, balance.body).toBe(200);
    const first = balance.json<{
      data: {
        balances: Record<string, { available: string; term_deposit: string }>;
        term_deposit_balances: unknown;
      }[];
    }>().data[0];
    expect(first?.balances.eth).toMatchObject({
      available: '0.500000000000000000',
      term_deposit: '0.500000000000000000',
    });
    expect(first?.term_deposit_balances).toEqual({ eth: { balance: '0.500000000000000000' } });

    // The same request again is the same deposit; other details under the key are refused.
    const again = await lock(customer, { coin: 'eth', amount: '0.5', day: option.id, rate: '0.25' }, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(TermDepositTransactionSchema.parse(again.json<{ data: unknown }>().data).id).toBe(deposit.id);
    const other = await lock(customer, { coin: 'eth', amount: '0.4', day: option.id }, key);
    expect(other.statusCode).toBe(409);
    expect(errorOf(other).code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await available(customer)).toBe(parseAmount('0.5', 'ETH'));
    expect((await history(customer)).total).toBe(1);
    await expectLedgerToHold();
  });

  it('makes one deposit when the same request arrives twice at once', async () => {
    const customer = await customerWith('1');
    const option = await shortestOption(customer);
    const key = newIdempotencyKey();
    const body = { coin: 'eth', amount: '0.3', day: option.id };
    const answers = await Promise.all([lock(customer, body, key), lock(customer, body, key)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const ids = answers.map(
      (answer) => TermDepositTransactionSchema.parse(answer.json<{ data: unknown }>().data).id,
    );
    expect(ids[0]).toBe(ids[1]);
    expect(await available(customer)).toBe(parseAmount('0.7', 'ETH'));
    expect((await history(customer)).total).toBe(1);
    await expectLedgerToHold();
  });

  it('refuses each Transfer mistake with the spec’s text and moves nothing', async () => {
    const customer = await customerWith('1', '1');
    const option = await shortestOption(customer);
    const btcOption = await shortestOption(customer, 'btc');
    const cases: [Record<string, unknown>, string][] = [
      [{ coin: 'eth', amount: '', day: option.id }, TERM_DEPOSIT_TEXTS.inputAmount],
      [{ coin: 'eth', day: option.id }, TERM_DEPOSIT_TEXTS.inputAmount],
      [{ coin: 'eth', amount: '0', day: option.id }, TERM_DEPOSIT_TEXTS.invalidAmount],
      [{ coin: 'eth', amount: '0.000', day: option.id }, TERM_DEPOSIT_TEXTS.invalidAmount],
      [{ coin: 'eth', amount: '-1', day: option.id }, TERM_DEPOSIT_TEXTS.invalidAmount],
      [{ coin: 'eth', amount: -0.5, day: option.id }, TERM_DEPOSIT_TEXTS.invalidAmount],
      [{ coin: 'eth', amount: 'abc', day: option.id }, TERM_DEPOSIT_TEXTS.invalidAmount],
      [{ coin: 'eth', amount: '1.5', day: option.id }, TERM_DEPOSIT_TEXTS.amountExceeded],
      [{ coin: 'eth', amount: '1.00000001', day: option.id }, TERM_DEPOSIT_TEXTS.amountExceeded],
      [{ coin: 'btc', amount: '0.123456789', day: btcOption.id }, 'Enter at most 8 decimal places.'],
      // At most 8 decimals for crypto (spec README), below ETH's 18: nothing that could not be withdrawn.
      [{ coin: 'eth', amount: '0.000000001', day: option.id }, 'Enter at most 8 decimal places.'],
      [
        { coin: 'btc', amount: '0.0001', day: btcOption.id },
        'The smallest deposit for this term is 0.001 BTC.',
      ],
    ];
    for (const [body, text] of cases) {
      const response = await lock(customer, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(errorOf(response).errors?.amount, JSON.stringify(body)).toEqual([text]);
    }
    // A term of another coin, or one that does not exist, is not accepted.
    for (const day of [btcOption.id, 999_999]) {
      const response = await lock(customer, { coin: 'eth', amount: '0.5', day });
      expect(response.statusCode).toBe(422);
      expect(errorOf(response).errors?.day).toEqual([TERM_DEPOSIT_TEXTS.termUnavailable]);
    }
    // A term id beyond the column's range is refused by the contract, not by the database (a 500).
    const huge = await lock(customer, { coin: 'eth', amount: '0.5', day: 3_000_000_000 });
    expect(huge.statusCode).toBe(422);
    expect(errorOf(huge).errors?.day).toEqual([TERM_DEPOSIT_TEXTS.chooseTerm]);
    // The rate the customer saw must still be the rate, sent as a string or a number.
    for (const rate of ['5', 5]) {
      const moved = await lock(customer, { coin: 'eth', amount: '0.5', day: option.id, rate });
      expect(moved.statusCode).toBe(409);
      expect(errorOf(moved).message).toBe(TERM_DEPOSIT_TEXTS.rateChanged);
    }
    // A coin staff have switched off takes no new deposit, though a page left open still offers its term.
    await db().updateTable('coins').set({ active: false }).where('coin_id', '=', 'eth').execute();
    try {
      const inactive = await lock(customer, { coin: 'eth', amount: '0.5', day: option.id });
      expect(inactive.statusCode).toBe(422);
      expect(errorOf(inactive).errors?.day).toEqual([TERM_DEPOSIT_TEXTS.termUnavailable]);
    } finally {
      await db().updateTable('coins').set({ active: true }).where('coin_id', '=', 'eth').execute();
    }

    expect(await available(customer)).toBe(parseAmount('1', 'ETH'));
    expect((await history(customer)).total).toBe(0);
    await expectLedgerToHold();
  });

  it('is refused for a customer who is not live, and without an idempotency key', async () => {
    // A pending account is given no deposit address: its coins arrived while it was live.
    const pending = await liveCustomer(t);
    await coinDeposit(t, pending, 'eth', '1');
    await db()
      .updateTable('users')
      .set({ status: 0, live_since: null })
      .where('id', '=', pending.id)
      .execute();
    const option = await shortestOption(pending);
    const refused = await lock(pending, { coin: 'eth', amount: '0.5', day: option.id });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('ACCOUNT_NOT_LIVE');

    const customer = await customerWith('1');
    const noKey = await customer.browser.post('/api/v1/crypto/term-deposit', {
      coin: 'eth',
      amount: '0.5',
      day: option.id,
    });
    expect(noKey.statusCode).toBe(422);
    expect(await available(customer)).toBe(parseAmount('1', 'ETH'));
  });

  it('floors the interest to the coin’s smallest unit', async () => {
    const customer = await customerWith('0', '1');
    const option = await shortestOption(customer, 'btc');
    const response = await lock(customer, { coin: 'btc', amount: '0.00100001', day: option.id });
    expect(response.statusCode, response.body).toBe(200);
    // 0.00100001 × 0.25 % = 0.0000025000250 BTC: the customer gets 250 satoshi.
    expect(TermDepositTransactionSchema.parse(response.json<{ data: unknown }>().data)).toMatchObject({
      deposit_return: '0.00000250',
      total_balance_amount: '0.00100251',
    });
    await expectLedgerToHold();
  });
});

describe('locking coins in a term deposit: notice, payload and history', () => {
  it('a deposit asked for while a termination commits waits for it, and is refused if it would outlast it', async () => {
    const customer = await customerWith('1');
    const options = (await coins(customer)).find((coin) => coin.coin_id === 'eth')?.options ?? [];
    const longest = options.find((option) => option.no_days === 180);
    // A transaction holding the customer's row, as the firm's termination does while it writes the dates.
    let isLocked!: () => void;
    const locked = new Promise<void>((resolve) => (isLocked = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const terminatedAt = new Date(Date.now() + 100 * 86_400_000);
    const termination = db()
      .transaction()
      .execute(async (trx) => {
        await trx.selectFrom('users').select('id').where('id', '=', customer.id).forUpdate().execute();
        isLocked();
        await released;
        await giveNotice(trx, customer.id, terminatedAt);
      });
    await locked;
    const asked = lock(customer, { coin: 'eth', amount: '0.1', day: longest?.id });
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await termination;
    const response = await asked;
    expect(response.statusCode, response.body).toBe(422);
    expect(errorOf(response).message).toBe(termDepositAfterTerminationText(terminatedAt));
    expect(await available(customer)).toBe(parseAmount('1', 'ETH'));
  });

  it('takes the spec’s payload with the customer’s own id and the option’s id again, and nobody else’s', async () => {
    const customer = await customerWith('1');
    const other = await customerWith();
    const option = await shortestOption(customer);
    const body = { coin: 'eth', amount: '0.1', day: option.id, rate: option.interest_rate };
    const foreign = await lock(customer, { ...body, user_id: other.id, id: option.id });
    expect(foreign.statusCode).toBe(404);
    const mismatched = await lock(customer, { ...body, user_id: customer.id, id: option.id + 1 });
    expect(mismatched.statusCode).toBe(422);
    expect(errorOf(mismatched).errors?.day).toEqual([TERM_DEPOSIT_TEXTS.chooseTerm]);
    expect(await available(customer)).toBe(parseAmount('1', 'ETH'));
    const spec = await lock(customer, { ...body, user_id: customer.id, id: option.id });
    expect(spec.statusCode, spec.body).toBe(200);
    expect(await available(customer)).toBe(parseAmount('0.9', 'ETH'));
    await expectLedgerToHold();
  });

  it('floors the interest to the 8 decimals a withdrawal carries, so none of it is dust', async () => {
    const customer = await customerWith('1');
    const option = await shortestOption(customer);
    const response = await lock(customer, { coin: 'eth', amount: '0.12345678', day: option.id });
    expect(response.statusCode, response.body).toBe(200);
    // 0.12345678 × 0.25 % = 0.00030864195 ETH: 0.00030864 is paid, the rest could never be withdrawn.
    expect(TermDepositTransactionSchema.parse(response.json<{ data: unknown }>().data)).toMatchObject({
      deposit_return: '0.000308640000000000',
      total_balance_amount: '0.123765420000000000',
    });
    await expectLedgerToHold();
  });

  it('during the firm’s notice takes only a term that ends before the account becomes withdraw-only', async () => {
    const customer = await customerWith('1');
    const terminatedAt = new Date(Date.now() + 100 * 86_400_000);
    await giveNotice(db(), customer.id, terminatedAt);
    const options = (await coins(customer)).find((coin) => coin.coin_id === 'eth')?.options ?? [];
    const days = (n: number) => options.find((option) => option.no_days === n)?.id;

    const tooLong = await lock(customer, { coin: 'eth', amount: '0.1', day: days(180) });
    expect(tooLong.statusCode).toBe(422);
    const text = termDepositAfterTerminationText(terminatedAt);
    expect(errorOf(tooLong)).toMatchObject({ message: text, errors: { day: [text] } });
    expect(await available(customer)).toBe(parseAmount('1', 'ETH'));

    const inTime = await lock(customer, { coin: 'eth', amount: '0.1', day: days(90) });
    expect(inTime.statusCode, inTime.body).toBe(200);
    await expectLedgerToHold();
  });

  it('lists the history newest first, three at a time', async () => {
    const customer = await customerWith('1');
    const option = await shortestOption(customer);
    for (const amount of ['0.01', '0.02', '0.03', '0.04']) {
      const response = await lock(customer, { coin: 'eth', amount, day: option.id });
      expect(response.statusCode, response.body).toBe(200);
    }
    const first = await history(customer);
    expect(first.total).toBe(4);
    expect(first.data.map((row) => row.amount)).toEqual([
      '0.040000000000000000',
      '0.030000000000000000',
      '0.020000000000000000',
    ]);
    const next = await history(customer, 3);
    expect(next.data.map((row) => row.amount)).toEqual(['0.010000000000000000']);
    const other = await customerWith();
    expect((await history(other)).total).toBe(0);
  });
});

describe('the terms in the back office', () => {
  it('lets finance add and change a term with a cap, audited, and the cap holds', async () => {
    const finance = await signedInStaff(t.app, db(), 'finance');
    const support = await signedInStaff(t.app, db(), 'support');
    const body = {
      coin_id: 'ltc',
      no_days: 7,
      interest_rate: '0.05',
      active: true,
      min_amount: '0.1',
      max_amount: '',
      total_cap: '1',
    };
    expect((await support.browser.post('/api/admin/term-deposits/options', body)).statusCode).toBe(404);
    const created = await finance.browser.post('/api/admin/term-deposits/options', body);
    expect(created.statusCode, created.body).toBe(200);
    const option = AdminTermDepositOptionSchema.parse(created.json<{ data: unknown }>().data);
    expect(option).toMatchObject({
      coin_id: 'ltc',
      no_days: 7,
      interest_rate: '0.05',
      total_cap: '1.00000000',
    });
    const duplicate = await finance.browser.post('/api/admin/term-deposits/options', body);
    expect(duplicate.statusCode).toBe(422);
    // A maximum below the minimum is refused, however close: compared as decimals, not as JS numbers.
    const inverted = await finance.browser.post('/api/admin/term-deposits/options', {
      ...body,
      coin_id: 'eth',
      min_amount: '1.000000000000000002',
      max_amount: '1.000000000000000001',
    });
    expect(inverted.statusCode).toBe(422);
    expect(errorOf(inverted).errors?.max_amount).toEqual([TERM_DEPOSIT_TEXTS.maxBelowMin]);

    const customer = await liveCustomer(t);
    await coinDeposit(t, customer, 'ltc', '5');
    expect((await lock(customer, { coin: 'ltc', amount: '0.6', day: option.id })).statusCode).toBe(200);
    const full = await lock(customer, { coin: 'ltc', amount: '0.6', day: option.id });
    expect(full.statusCode).toBe(409);
    expect(errorOf(full).message).toBe(TERM_DEPOSIT_TEXTS.termFull);

    // Switched off, it is no longer offered; deposits already made keep their rate.
    const { coin_id: _coin, ...rest } = body;
    const updated = await finance.browser.put(`/api/admin/term-deposits/options/${option.id}`, {
      ...rest,
      interest_rate: '0.1',
      active: false,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(AdminTermDepositOptionSchema.parse(updated.json<{ data: unknown }>().data)).toMatchObject({
      active: false,
      interest_rate: '0.1',
      total_live: '0.60000000',
    });
    const ltc = (await coins(customer)).find((coin) => coin.coin_id === 'ltc');
    expect(ltc?.options.map((entry) => entry.id)).not.toContain(option.id);
    expect((await history(customer)).data[0]?.rate).toBe('0.05');

    const audit = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('target_type', '=', 'term_deposit_option')
      .where('target_id', '=', String(option.id))
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      'term_deposit_option.created',
      'term_deposit_option.updated',
    ]);
    await expectLedgerToHold();
  });
});
