import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Every e-mail is written here first (issue 42), in the transaction of the
 * change it is about when the caller has one, and a sender delivers it with
 * retries: a mail server that is down, or a server killed between a commit
 * and its mail, no longer loses the mail. A row is the rendered message, so
 * a retry sends what the customer would have got at the time. Staff read the
 * failed ones and send them again; ids stay sequential (staff only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE mail_outbox (
      id bigserial PRIMARY KEY,
      user_id integer REFERENCES users (id),
      event text NOT NULL,
      to_address text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text NOT NULL,
      reply_to text,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    );
    -- The sender's pick: the pending rows that are due, oldest first.
    CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
    -- The back office's list of failed mail, newest first.
    CREATE INDEX mail_outbox_failed ON mail_outbox (id DESC) WHERE status = 'failed';
    `,
  );
}
