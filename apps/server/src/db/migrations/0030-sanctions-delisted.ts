import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Compliance records that a confirmed match's designation was revoked (the
 * party is off the consolidated list), with a note: the hit no longer holds
 * the account. The confirmation's note stays; the delisting has its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE sanctions_hits DROP CONSTRAINT sanctions_hits_status_check;
    ALTER TABLE sanctions_hits
      ADD CONSTRAINT sanctions_hits_status_check
        CHECK (status IN ('open', 'false_positive', 'confirmed', 'delisted')),
      ADD COLUMN delisted_note text CHECK (length(delisted_note) BETWEEN 1 AND 500),
      ADD COLUMN delisted_by_staff_id integer REFERENCES staff (id),
      ADD COLUMN delisted_at timestamptz,
      ADD CONSTRAINT sanctions_hits_delisted CHECK (
        (status = 'delisted') = (delisted_at IS NOT NULL) AND (status = 'delisted') = (delisted_note IS NOT NULL)
      );
    `,
  );
}
