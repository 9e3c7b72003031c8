import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_TEXTS, type AdminMail, type ErrorBody, type Page } from '@florin/contracts';
import { createDevMailbox, createSmtpMailer, type Mailer } from '../../adapters/mail/mailer.js';
import { signedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { mailTo } from '../../test/browser.js';
import { testClock } from '../../test/clock.js';
import { readyCustomer, requestWithdrawal } from '../fiat/fiat.test-kit.js';
import { MAIL_CLAIM_MS, MAIL_MAX_ATTEMPTS, MAIL_SENT_RETENTION_MS, retryDelayMs } from './outbox.js';
import { statementsOf } from '../trading/statements.test-kit.js';
import { createNotifier } from './service.js';

/** What a server started on the same database runs as its sender (jobs/index.ts runs it every few seconds). */
function freshSender(t: TestApp, mailer: Mailer) {
  return createNotifier({ db: t.database.db, mailer, log: t.app.log, clock: testClock });
}

describe('a mail written with its change', () => {
  let t: TestApp;
  /** Set while the post-commit send stalls: the server is killed there, and the send never happens. */
  let killServer: (() => void) | undefined;
  let isStalling = false;
  const stallingMailer: Mailer = {
    kind: 'dev-mailbox',
    send: (message) => {
      if (!isStalling) return createDevMailbox(t.database.db).send(message);
      return new Promise<void>((_resolve, reject) => {
        killServer = () => reject(new Error('the server was killed before sending'));
      });
    },
  };
  const withdrawalMails = async (email: string) =>
    (await mailTo(t.database.db, email)).filter((mail) => mail.subject.startsWith('Your withdrawal request'));

  beforeAll(async () => {
    t = await createTestApp({ mailer: stallingMailer });
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends a big set of due mail in one run, not a hundred a run', async () => {
    const customer = await readyCustomer(t, 0n);
    const recipient = { ...customer, login_notifications: true, loginout_notifications: true };
    const sender = freshSender(t, createDevMailbox(t.database.db));
    await sender.deliverPending();
    // As a big tick's fills write theirs: one set of outbox rows, due for the sender at once.
    const fill = {
      firstName: 'Sam',
      side: 'buy' as const,
      quantity: '0.01000000',
      asset: 'BTC',
      price: '15000.00',
      fiat: 'GBP',
      total: '151.50',
    };
    await t.database.db.transaction().execute((trx) =>
      sender.queueAll(
        trx,
        'trade_executed',
        Array.from({ length: 150 }, () => ({ user: recipient, data: fill })),
      ),
    );
    let outcome: unknown;
    const statements = await statementsOf(async () => {
      outcome = await sender.deliverPending();
    });
    expect(outcome).toEqual({ sent: 150, failed: 0 });
    // Fifteen batches of ten, each claimed and then marked sent with one statement apiece, and the claim that
    // finds none left: not one mark a mail.
    const count = (label: string) => statements.filter((statement) => statement === label).length;
    expect([count('update mail_outbox for update'), count('update mail_outbox')]).toEqual([16, 15]);
  });

  it('is sent once by a fresh server when the one that committed the withdrawal was killed before sending', async () => {
    const customer = await readyCustomer(t);
    isStalling = true;
    const answer = requestWithdrawal(customer, '100');
    // The withdrawal and its mail have committed; the server is stuck in the send.
    while (!killServer) await new Promise((resolve) => setTimeout(resolve, 10));
    isStalling = false;

    // Another server on the same database leaves the mail to its writer while the writer may still send it...
    const sender = freshSender(t, createDevMailbox(t.database.db));
    expect(await sender.deliverPending()).toEqual({ sent: 0, failed: 0 });
    // ...and sends it once that hold is over: two sender runs at once, and another, send it once.
    testClock.advance(MAIL_CLAIM_MS);
    const runs = await Promise.all([sender.deliverPending(), sender.deliverPending()]);
    expect(await sender.deliverPending()).toEqual({ sent: 0, failed: 0 });
    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(1);

    // The killed send's failure, arriving late, changes nothing: the withdrawal stands, the mail is sent.
    killServer();
    await answer;
    testClock.advance(24 * 3_600_000);
    expect(await sender.deliverPending()).toEqual({ sent: 0, failed: 0 });
    const mails = await withdrawalMails(customer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('We received your request to withdraw 100.00 GBP');
    // Once sent, the outbox keeps who and what about, not the words (they may carry codes and links).
    const row = await t.database.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts', 'text_body', 'html_body'])
      .where('user_id', '=', customer.id)
      .where('event', '=', 'fiat_withdrawal_requested')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'sent', attempts: 1, text_body: '', html_body: '' });
  });

  it('delivers the withdrawal mail before the answer when nothing goes wrong', async () => {
    const customer = await readyCustomer(t);
    await requestWithdrawal(customer, '50');
    expect(await withdrawalMails(customer.email)).toHaveLength(1);
    // Nothing is left for the sender.
    testClock.advance(24 * 3_600_000);
    expect(await freshSender(t, createDevMailbox(t.database.db)).deliverPending()).toEqual({
      sent: 0,
      failed: 0,
    });
  });
});

describe('the retention of sent mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('prunes a sent mail 30 days after it was sent, and keeps mail not yet sent', async () => {
    const sender = freshSender(t, createDevMailbox(t.database.db));
    const rowsOf = (userId: number) =>
      t.database.db
        .selectFrom('mail_outbox')
        .select(['event', 'status'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
    const customer = await readyCustomer(t);
    await requestWithdrawal(customer, '100');
    const sent = await rowsOf(customer.id);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((row) => row.status === 'sent')).toBe(true);
    // A mail the sender has not sent yet: written for it, not yet due to its writer's send.
    testClock.advance(MAIL_SENT_RETENTION_MS - 60_000);
    await sender.notify(
      { id: customer.id, email: customer.email, login_notifications: true, loginout_notifications: true },
      'account_on_hold',
      { firstName: 'Ada' },
      { executor: t.database.db },
    );

    expect(await sender.pruneSent()).toBe(0);
    expect(await rowsOf(customer.id)).toHaveLength(sent.length + 1);
    testClock.advance(120_000);
    expect(await sender.pruneSent()).toBeGreaterThanOrEqual(sent.length);
    expect(await rowsOf(customer.id)).toEqual([{ event: 'account_on_hold', status: 'pending' }]);
  });
});

describe('a mail server that refuses mail', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  let isRefusing = false;
  let refusals = 0;
  const received: { to: string[]; raw: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onMailFrom(_address, _session, callback) {
        if (!isRefusing) return callback();
        refusals += 1;
        callback(Object.assign(new Error('Mailbox unavailable, try again later'), { responseCode: 451 }));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await createTestApp({ mailer: smtpMailer(port) });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const smtpMailer = (port: number) =>
    createSmtpMailer(`smtp://127.0.0.1:${port}?ignoreTLS=true`, 'Florin <no-reply@florin.test>');

  it('retries with backoff, lists the mail as failed after the last attempt, and resends it', async () => {
    const { port } = smtp.server.address() as AddressInfo;
    const sender = freshSender(t, smtpMailer(port));
    const customer = await readyCustomer(t);
    const receivedByCustomer = () => received.filter((mail) => mail.to.includes(customer.email)).length;
    const before = receivedByCustomer();

    isRefusing = true;
    await requestWithdrawal(customer, '100');
    expect(refusals).toBe(1);
    for (let attempt = 2; attempt <= MAIL_MAX_ATTEMPTS; attempt += 1) {
      // Not before its wait is over: 30 s after the first failure, doubling.
      testClock.advance(retryDelayMs(attempt - 1) - 5_000);
      expect(await sender.deliverPending()).toEqual({ sent: 0, failed: 0 });
      testClock.advance(5_000);
      expect(await sender.deliverPending()).toEqual({ sent: 0, failed: 1 });
      expect(refusals).toBe(attempt);
    }

    // Failed for good: no more attempts, and support sees it.
    testClock.advance(24 * 3_600_000);
    expect(await sender.deliverPending()).toEqual({ sent: 0, failed: 0 });
    // Signed in now: a staff session does not outlast the day the clock just skipped.
    const support = await signedInStaff(t.app, t.database.db, 'support');
    const failed = await support.browser.get('/api/admin/mail/failed');
    expect(failed.statusCode, failed.body).toBe(200);
    const page = failed.json<Page<AdminMail>>();
    expect(page).toMatchObject({ total: 1, current_page: 1, last_page: 1 });
    const mail = page.data[0]!;
    expect(mail).toMatchObject({
      user_id: customer.id,
      event: 'fiat_withdrawal_requested',
      to: customer.email,
      subject: 'Your withdrawal request — Florin',
      status: 'failed',
      attempts: MAIL_MAX_ATTEMPTS,
      sent_at: null,
    });
    expect(mail.last_error).toContain('Mailbox unavailable, try again later');

    isRefusing = false;
    const resent = await support.browser.post(`/api/admin/mail/${mail.id}/resend`, {});
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({
      data: { id: mail.id, status: 'pending', attempts: 0 },
      message: MAIL_TEXTS.resent,
    });
    expect(await sender.deliverPending()).toEqual({ sent: 1, failed: 0 });
    expect(await sender.deliverPending()).toEqual({ sent: 0, failed: 0 });
    expect(receivedByCustomer() - before).toBe(1);
    // The text part, without quoted-printable's soft line breaks.
    expect(received.at(-1)!.raw.replace(/=\r?\n/g, '')).toContain(
      'We received your request to withdraw 100.00 GBP',
    );
    expect((await support.browser.get('/api/admin/mail/failed')).json<Page<AdminMail>>().total).toBe(0);

    // Sent mail is not sent again, and the resend is in the audit log.
    const again = await support.browser.post(`/api/admin/mail/${mail.id}/resend`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorBody>().message).toBe(MAIL_TEXTS.notFailed);
    const superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
    const audit = await superadmin.browser.get(`/api/admin/audit-log?target_type=mail&target_id=${mail.id}`);
    expect(audit.json<Page<{ action: string; staff_id: number | null }>>().data).toMatchObject([
      { action: 'mail.resent' },
    ]);
  });
});
