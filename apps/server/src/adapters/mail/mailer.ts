import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { DB } from '../../db/schema.js';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where a reply goes instead of MAIL_FROM (a forwarded enquiry replies to the visitor). */
  replyTo?: string;
};

/** Where e-mail goes: a real SMTP server, or the dev mailbox (a table, readable at /dev/mailbox). */
export type Mailer = { kind: 'smtp' | 'dev-mailbox'; send: (message: MailMessage) => Promise<void> };

export function createDevMailbox(db: Kysely<DB>): Mailer {
  return {
    kind: 'dev-mailbox',
    async send(message) {
      const { replyTo, ...rest } = message;
      await db
        .insertInto('dev_mailbox')
        .values({ ...rest, reply_to: replyTo ?? null })
        .execute();
    },
  };
}

export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}
