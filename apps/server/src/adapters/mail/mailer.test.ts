import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { AUTH_TEXTS } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser } from '../../test/browser.js';
import { createSmtpMailer } from './mailer.js';

type Received = { from: string; to: string[]; raw: string };

const received: Received[] = [];
let smtp: SMTPServer;
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await createTestApp({
    mailer: createSmtpMailer(`smtp://127.0.0.1:${port}?ignoreTLS=true`, 'Florin <no-reply@florin.test>'),
  });
});

afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** Decodes RFC 2047 words (the subject carries an em dash), enough to read a header. */
function decodeHeaderWords(text: string): string {
  return text.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_match, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** Undoes quoted-printable soft line breaks and escapes, enough to read a link. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

it('sends the verification mail over SMTP with a text and an HTML part', async () => {
  const browser = createBrowser(t.app);
  const email = `smtp.${Date.now()}@example.com`;
  const response = await browser.post('/api/v1/user-register', {
    first_name: 'Grace',
    last_name: 'Hopper',
    email,
    password: 'a long enough passphrase',
    password_confirmation: 'a long enough passphrase',
    accept_terms_and_privacy: true,
  });
  expect(response.json()).toEqual({ message: AUTH_TEXTS.registered });

  // Registration answers without waiting for its mail (an answer that waited for SMTP only for a new
  // address would tell who has an account), so the mail may arrive just after the answer.
  const message = await vi.waitFor(
    () => {
      const found = received.find((mail) => mail.to.includes(email));
      if (!found) throw new Error(`no mail to ${email} yet`);
      return found;
    },
    { timeout: 10_000 },
  );
  expect(message?.from).toBe('no-reply@florin.test');
  const raw = decodeQuotedPrintable(message?.raw ?? '');
  expect(raw).toMatch(/^From: Florin <no-reply@florin\.test>/m);
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(message?.raw ?? '')?.[1] ?? '';
  expect(decodeHeaderWords(subject.replace(/\r?\n[ \t]/g, ' '))).toBe('Verify your email address — Florin');
  expect(raw).toContain('multipart/alternative');
  expect(raw).toContain('Content-Type: text/plain');
  expect(raw).toContain('Content-Type: text/html');
  expect(raw).toMatch(/http:\/\/localhost:8080\/verify\/[\w-]{40,}/);
  // The dev mailbox stays empty: the configured adapter is the only one used.
  expect(await t.database.db.selectFrom('dev_mailbox').select('id').execute()).toEqual([]);
});

it('sends Reply-To when a mail names one (a forwarded enquiry replies to the visitor)', async () => {
  const email = `enquirer.${Date.now()}@example.com`;
  const response = await createBrowser(t.app).post('/api/v1/inquire/press', {
    first_name: 'Grace',
    last_name: 'Hopper',
    email,
    message: 'An interview about Florin?',
  });
  expect(response.statusCode).toBe(200);

  const forwarded = received.find((mail) => mail.to.includes('press@florin.local'));
  expect(forwarded?.raw).toMatch(new RegExp(`^Reply-To: ${email.replace(/\./g, '\\.')}\\r?$`, 'm'));
  const acknowledgement = received.find((mail) => mail.to.includes(email));
  expect(acknowledgement?.raw).toMatch(/^Reply-To: press@florin\.local\r?$/m);
  // A mail that names none has no Reply-To: replies go to MAIL_FROM.
  const verification = received.find((mail) => /Verify your email/.test(decodeHeaderWords(mail.raw)));
  expect(verification?.raw).not.toMatch(/^Reply-To:/m);
});
