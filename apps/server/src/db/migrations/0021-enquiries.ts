import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Product enquiries (issue 12; spec 002 §2.13, §7): what a visitor sent from
 * the contact page, kept so that support can read it in the back office even
 * when the mail to the type's mailbox failed (forwarded_at stays null then).
 * No IP address or user agent is kept: the per-IP limit counts in
 * rate_limit_hits, and nothing else needs them.
 *
 * The dev mailbox gains the Reply-To header, which the forwarded enquiries
 * carry (the visitor's address), so development and tests can see it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE enquiries (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      type text NOT NULL CHECK (type IN ('general', 'business', 'press', 'support')),
      first_name text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
      last_name text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
      email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      message text NOT NULL CHECK (length(message) BETWEEN 1 AND 2000),
      created_at timestamptz NOT NULL DEFAULT now(),
      forwarded_at timestamptz
    );
    -- The back office lists them newest first (the primary key, read backwards), all or of one type.
    CREATE INDEX enquiries_type_newest ON enquiries (type, id DESC);

    ALTER TABLE dev_mailbox ADD COLUMN reply_to text;
    `,
  );
}
