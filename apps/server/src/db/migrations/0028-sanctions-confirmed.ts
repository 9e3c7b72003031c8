import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Compliance can record a sanctions hit as a confirmed match: the listed
 * person or entity is the customer, whose account then stays on hold.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE sanctions_hits DROP CONSTRAINT sanctions_hits_status_check;
    ALTER TABLE sanctions_hits
      ADD CONSTRAINT sanctions_hits_status_check CHECK (status IN ('open', 'false_positive', 'confirmed'));
    `,
  );
}
