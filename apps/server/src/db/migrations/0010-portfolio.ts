import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The dashboard (issue 6). History pages walk a customer's entries account by
 * account in journal order, so the newest page of a long history reads a few
 * index rows per account instead of sorting all of them. Messages of the day
 * are written by staff with the window they show in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE INDEX entries_account_journal ON entries (account_id, journal_id);

    CREATE TABLE motd (
      id bigserial PRIMARY KEY,
      message text NOT NULL CHECK (length(message) BETWEEN 1 AND 280),
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      created_by_staff_id integer NOT NULL REFERENCES staff (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (ends_at > starts_at)
    );
    CREATE INDEX motd_window ON motd (starts_at, ends_at);
  `,
  );
}
