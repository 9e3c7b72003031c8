import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevMailbox, type Mailer } from '../../adapters/mail/mailer.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { mailTo } from '../../test/browser.js';
import { statementsOf } from './statements.test-kit.js';
import { tradingSteps } from './trading.test-kit.js';

let t: TestApp;
/** While set, the mail server takes every mail and answers none: a caller that waits for a mail waits for ever. */
let stalled = false;

beforeAll(async () => {
  const mailer: Mailer = {
    kind: 'dev-mailbox',
    send: (message) =>
      stalled ? new Promise<void>(() => undefined) : createDevMailbox(t.database.db).send(message),
  };
  t = await createTestApp({ mailer });
});
afterAll(async () => {
  await t.close();
});

const { db, drive, trader, placed, statusOf, sendDueMail, expectLedgerToHold } = tradingSteps(() => t);

describe('the mails of a pass of fills (issue 43, decision 136)', () => {
  it('writes every fill’s mail and notification as one set of outbox rows, and returns before any is sent', async () => {
    await drive('20000');
    const customers = [
      await trader({ platform: 2, gbp: 1_000_000n }),
      await trader({ platform: 2, gbp: 1_000_000n }),
      await trader({ platform: 2, gbp: 1_000_000n }),
    ];
    const orders = [];
    for (const customer of customers)
      for (const price of ['19000', '18900'])
        orders.push(await placed(customer, { side: 1, order_qty: '0.01', price }));

    stalled = true;
    let statements: string[] = [];
    try {
      // Before decision 136 the pass sent each mail before it returned: with this mail server, never.
      statements = await statementsOf(() => drive('18000'));
    } finally {
      stalled = false;
    }
    expect(await Promise.all(orders.map((order) => statusOf(order.id)))).toEqual(orders.map(() => 'filled'));
    // One statement a table for each transaction of the pass (at most one a lane), however many fills.
    const count = (label: string) => statements.filter((statement) => statement === label).length;
    const transactions = count('begin');
    expect(transactions).toBeGreaterThan(0);
    expect(transactions).toBeLessThan(orders.length);
    expect(count('insert mail_outbox')).toBe(transactions);
    expect(count('insert notifications')).toBe(transactions);
    expect(count('update mail_outbox')).toBe(0);

    const ids = customers.map((customer) => customer.id);
    const outbox = await db()
      .selectFrom('mail_outbox')
      .select(['user_id', 'status', 'subject', 'next_attempt_at'])
      .where('event', '=', 'trade_executed')
      .where('user_id', 'in', ids)
      .execute();
    expect(outbox).toHaveLength(orders.length);
    expect(outbox.every((row) => row.status === 'pending' && row.subject === 'You bought BTC — Florin')).toBe(
      true,
    );
    const notified = await db()
      .selectFrom('notifications')
      .select(['id', 'user_id'])
      .where('event', '=', 'trade_executed')
      .where('user_id', 'in', ids)
      .execute();
    expect(notified).toHaveLength(orders.length);
    // The ids drawn in the statement are random and distinct, as migration 0026's trigger drew them.
    expect(new Set(notified.map((row) => row.id)).size).toBe(orders.length);
    for (const customer of customers)
      expect(
        (await mailTo(db(), customer.email)).filter((mail) => mail.subject.startsWith('You bought')),
      ).toEqual([]);

    // The outbox's sender sends them, each once.
    await sendDueMail();
    for (const customer of customers)
      expect(
        (await mailTo(db(), customer.email)).filter((mail) => mail.subject.startsWith('You bought BTC')),
      ).toHaveLength(2);
    await expectLedgerToHold();
  });
});
