import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TermDepositTransactionSchema } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { createTestApp, type TestApp } from '../../test/app.js';
import { mailSubjects } from '../compliance/customers.test-kit.js';
import { maturityKey } from './service.js';
import { termDepositKit } from './term-deposits.test-kit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const {
  expectLedgerToHold,
  instance,
  customerWith,
  shortestOption,
  lock,
  available,
  history,
  journalsWithKey,
} = termDepositKit(() => t);

// The Done-when: the checker passes after every test, not only those that say so.
afterEach(async () => {
  await expectLedgerToHold();
});

describe('paying back at maturity', () => {
  async function lockedDeposit(amount = '0.5') {
    const customer = await customerWith('1');
    const option = await shortestOption(customer);
    const response = await lock(customer, { coin: 'eth', amount, day: option.id });
    expect(response.statusCode, response.body).toBe(200);
    const deposit = TermDepositTransactionSchema.parse(response.json<{ data: unknown }>().data);
    return { customer, deposit, due: new Date(Date.parse(deposit.end_day) + 1000) };
  }

  it('pays nothing before maturity, then principal and interest once, and tells the customer', async () => {
    const { customer, deposit, due } = await lockedDeposit();
    const job = instance();
    // A day before its end (and before any other deposit's end: they were all made just now).
    expect(await job.payMatured(new Date(Date.parse(deposit.end_day) - 86_400_000))).toBe(0);
    expect(await available(customer)).toBe(parseAmount('0.5', 'ETH'));

    expect(await job.payMatured(due)).toBeGreaterThanOrEqual(1);
    expect(await available(customer)).toBe(parseAmount('1.00125', 'ETH'));
    const [row] = (await history(customer)).data;
    expect(row).toMatchObject({ id: deposit.id, is_active: false, status: 'expired' });
    // The first mail told of the coins the customer paid in (customerWith).
    expect(await mailSubjects(db(), customer.email)).toEqual([
      'Your deposit has arrived — Florin',
      'Your term deposit has matured — Florin',
    ]);

    // Later runs find nothing more to pay.
    await job.payMatured(due);
    expect(await available(customer)).toBe(parseAmount('1.00125', 'ETH'));
    expect(await journalsWithKey(maturityKey(String(deposit.id)))).toHaveLength(1);
    await expectLedgerToHold();
  });

  it('pays once when two instances run the job at the same time', async () => {
    const { customer, deposit, due } = await lockedDeposit();
    await Promise.all([
      instance().payMatured(due),
      instance().payMatured(due),
      t.app.inject({ method: 'GET', url: '/api/health' }),
    ]);
    expect(await available(customer)).toBe(parseAmount('1.00125', 'ETH'));
    expect(await journalsWithKey(maturityKey(String(deposit.id)))).toHaveLength(1);
    await expectLedgerToHold();
  });

  it('pays once when a run dies after posting the journal', async () => {
    const { customer, deposit, due } = await lockedDeposit();
    // A run killed after the journal and before commit: the whole transaction goes, journal included.
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await t.ledger.postJournal(trx, {
            idempotencyKey: maturityKey(String(deposit.id)),
            kind: 'term_deposit_maturity',
            reference: `term_deposit:${deposit.id}`,
            postings: [
              {
                account: {
                  asset: 'ETH',
                  kind: 'term',
                  ownerUserId: String(customer.id),
                  reference: String(deposit.id),
                },
                amount: -parseAmount('0.5', 'ETH'),
              },
              {
                account: { asset: 'ETH', kind: 'available', ownerUserId: String(customer.id) },
                amount: parseAmount('0.5', 'ETH'),
              },
            ],
          });
          throw new Error('killed');
        }),
    ).rejects.toThrow('killed');
    expect(await journalsWithKey(maturityKey(String(deposit.id)))).toHaveLength(0);
    expect((await history(customer)).data[0]?.status).toBe('live');

    // The restarted job pays it, once, however often it runs.
    await instance().payMatured(due);
    await instance().payMatured(due);
    expect(await available(customer)).toBe(parseAmount('1.00125', 'ETH'));
    expect(await journalsWithKey(maturityKey(String(deposit.id)))).toHaveLength(1);
    await expectLedgerToHold();
  });

  it('does not pay again when an earlier run committed the payment but not the status', async () => {
    const { customer, deposit, due } = await lockedDeposit();
    const id = String(deposit.id);
    const principal = parseAmount('0.5', 'ETH');
    const interest = parseAmount('0.00125', 'ETH');
    // Exactly the journal the job posts, committed on its own, as a run that died after it would leave it.
    await t.ledger.postJournal(db(), {
      idempotencyKey: maturityKey(id),
      kind: 'term_deposit_maturity',
      reference: `term_deposit:${id}`,
      metadata: { term_deposit_id: id, interest: interest.toString() },
      postings: [
        {
          account: { asset: 'ETH', kind: 'term', ownerUserId: String(customer.id), reference: id },
          amount: -principal,
        },
        {
          account: { asset: 'ETH', kind: 'available', ownerUserId: String(customer.id) },
          amount: principal + interest,
        },
        { account: { asset: 'ETH', kind: 'interest_expense' }, amount: -interest },
      ],
    });
    await instance().payMatured(due);
    expect(await available(customer)).toBe(parseAmount('1.00125', 'ETH'));
    expect((await history(customer)).data[0]).toMatchObject({ id: deposit.id, status: 'expired' });
    expect(await journalsWithKey(maturityKey(id))).toHaveLength(1);
    await expectLedgerToHold();
  });

  it('is paid through the dev route that moves the clock (for the e2e tests)', async () => {
    const { customer } = await lockedDeposit('0.2');
    const response = await t.app.inject({
      method: 'POST',
      url: '/dev/term-deposits/mature',
      payload: { email: customer.email },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ data: { paid: number } }>().data.paid).toBe(1);
    expect(await available(customer)).toBe(parseAmount('1.0005', 'ETH'));
    await expectLedgerToHold();
  });
});
