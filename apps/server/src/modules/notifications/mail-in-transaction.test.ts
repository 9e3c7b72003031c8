import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import type { DB } from '../../db/schema.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { mailTo } from '../../test/browser.js';
import { testClock } from '../../test/clock.js';
import { withdrawalSteps } from '../crypto/withdrawals.test-kit.js';
import { mailedCode } from '../fiat/fiat.test-kit.js';
import { createKycTestApp, filePart, newCustomer, png, type KycTestApp } from '../kyc/kyc.test-kit.js';
import { MAIL_CLAIM_MS } from './outbox.js';
import { createNotifier } from './service.js';

/*
 * A mail caused by a change is written in the change's transaction: when the transaction rolls back,
 * no mail is left to send, and when it commits, the mail is sent once (by its writer, the sender
 * finding nothing more to send). A deferred trigger on the changed table judges each commit: it
 * forces the rollback after everything the flow wrote, and it lets the second attempt commit only
 * with its mail already written in the same transaction.
 */

let t: KycTestApp;
let compliance: SignedInStaff;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createKycTestApp();
  compliance = await signedInStaff(t.app, db(), 'compliance');
});
afterAll(async () => {
  await t.close();
});

/**
 * Until `restore` is called, a commit that leaves a row of `table` matching `when` fails unless
 * `unless` holds at the commit (a deferred trigger sees what the transaction wrote before it).
 */
async function refuseCommitsOf(database: Kysely<DB>, table: string, when: string, unless = 'false') {
  const run = (statement: string) => sql.raw(statement).execute(database);
  await run(`CREATE OR REPLACE FUNCTION refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NOT (${unless}) THEN RAISE EXCEPTION 'the commit failed'; END IF; RETURN NULL; END $$`);
  await run(`CREATE CONSTRAINT TRIGGER refuse_commit AFTER UPDATE ON ${table}
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION refuse_commit()`);
  return async () => {
    await run(`DROP TRIGGER refuse_commit ON ${table}`);
    await run('DROP FUNCTION refuse_commit()');
  };
}

/** The condition that the change's own transaction has written the customer's mail about it. */
const mailWrittenWith = (event: string) =>
  `EXISTS (SELECT 1 FROM mail_outbox WHERE user_id = NEW.user_id AND event = '${event}')`;

async function outboxRows(userId: number, event: string) {
  return db()
    .selectFrom('mail_outbox')
    .select(['status', 'attempts'])
    .where('user_id', '=', userId)
    .where('event', '=', event)
    .execute();
}

/** A server's sender once the writer's hold is over: it must find nothing left to send. */
async function expectNothingLeftToSend() {
  testClock.advance(MAIL_CLAIM_MS);
  const sender = createNotifier({
    db: db(),
    mailer: createDevMailbox(db()),
    log: t.app.log,
    clock: testClock,
  });
  expect(await sender.deliverPending()).toEqual({ sent: 0, failed: 0 });
}

describe('a crypto withdrawal request', () => {
  const { fundedCustomer, requested, verify, submit } = withdrawalSteps(() => t);
  const requestMails = async (email: string) =>
    (await mailTo(db(), email)).filter((mail) => mail.subject.startsWith('Your crypto withdrawal request'));

  it('leaves no mail when its transaction rolls back, and sends its mail once when it commits', async () => {
    const customer = await fundedCustomer();
    const withdrawal = await requested(customer);
    const verified = await verify(customer, withdrawal.id, await mailedCode(db(), customer.email));
    expect(verified.statusCode, verified.body).toBe(200);

    const when = `NEW.status = 'pending'`;
    const restore = await refuseCommitsOf(db(), 'crypto_withdrawals', when);
    const failed = await submit(customer, withdrawal.id);
    await restore();
    expect(failed.statusCode).toBe(500);
    const row = await db()
      .selectFrom('crypto_withdrawals')
      .select('status')
      .where('id', '=', withdrawal.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('verified');
    expect(await outboxRows(customer.id, 'crypto_withdrawal_requested')).toEqual([]);
    expect(await requestMails(customer.email)).toEqual([]);

    // Committed only if the mail was written before the commit, in the same transaction.
    const check = await refuseCommitsOf(
      db(),
      'crypto_withdrawals',
      when,
      mailWrittenWith('crypto_withdrawal_requested'),
    );
    const done = await submit(customer, withdrawal.id);
    await check();
    expect(done.statusCode, done.body).toBe(200);
    expect(await outboxRows(customer.id, 'crypto_withdrawal_requested')).toEqual([
      { status: 'sent', attempts: 1 },
    ]);
    await expectNothingLeftToSend();
    expect(await requestMails(customer.email)).toHaveLength(1);
  });
});

describe('a KYC document decision', () => {
  it('leaves no mail when its transaction rolls back, and sends its mail once when it commits', async () => {
    const customer = await newCustomer(t);
    const uploaded = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'passport' },
      filePart(await png(), 'passport.png'),
    ]);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { id } = await db()
      .selectFrom('kyc_documents')
      .select('id')
      .where('user_id', '=', customer.id)
      .executeTakeFirstOrThrow();
    const { email } = await db()
      .selectFrom('users')
      .select('email')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    const approvalMails = async () =>
      (await mailTo(db(), email)).filter((mail) => mail.subject === 'Your document was approved — Florin');

    const when = `NEW.status = 'approved'`;
    const restore = await refuseCommitsOf(db(), 'kyc_documents', when);
    const failed = await compliance.browser.post(`/api/admin/documents/${id}/approve`);
    await restore();
    expect(failed.statusCode).toBe(500);
    const row = await db()
      .selectFrom('kyc_documents')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect(await outboxRows(customer.id, 'kyc_document_approved')).toEqual([]);
    expect(await approvalMails()).toEqual([]);

    const check = await refuseCommitsOf(
      db(),
      'kyc_documents',
      when,
      mailWrittenWith('kyc_document_approved'),
    );
    const approved = await compliance.browser.post(`/api/admin/documents/${id}/approve`);
    await check();
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await outboxRows(customer.id, 'kyc_document_approved')).toEqual([{ status: 'sent', attempts: 1 }]);
    await expectNothingLeftToSend();
    expect(await approvalMails()).toHaveLength(1);
  });
});
