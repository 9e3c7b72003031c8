import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The newsletter (issue 12): one row per address, unique whatever its case.
 * Double opt-in: a sign-up is pending until its mailed link confirms it. The
 * confirmation token is kept only as its SHA-256, works once (it is cleared
 * when used) and for 7 days; a new sign-up replaces it. The unsubscribe token
 * is made once per address and never changes, so the link in every mail
 * ever sent keeps working: its SHA-256 finds the row, and it is also kept
 * encrypted (the secret box) because each later mail must carry it. The
 * consent evidence is the text the visitor agreed to, when, and from which
 * address; confirmed_at says when the mailed link proved the address theirs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE newsletter_subscribers (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      email text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
      confirm_token_hash text UNIQUE,
      confirm_expires_at timestamptz,
      unsubscribe_token_hash text NOT NULL UNIQUE,
      unsubscribe_token_encrypted text NOT NULL,
      consent_text text NOT NULL,
      consent_at timestamptz NOT NULL,
      consent_ip text NOT NULL,
      confirmed_at timestamptz,
      unsubscribed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((confirm_token_hash IS NULL) = (confirm_expires_at IS NULL)),
      CHECK (status <> 'confirmed' OR confirmed_at IS NOT NULL),
      CHECK (status <> 'unsubscribed' OR unsubscribed_at IS NOT NULL)
    );
    CREATE UNIQUE INDEX newsletter_subscribers_email ON newsletter_subscribers (lower(email));
    -- The back office's counts by status and the export of confirmed addresses.
    CREATE INDEX newsletter_subscribers_status ON newsletter_subscribers (status, id);
    `,
  );
}
