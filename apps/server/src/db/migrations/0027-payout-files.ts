import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * A fiat withdrawal put in a payout file is being paid by the bank: the
 * customer can no longer cancel it (the money would leave twice) and the
 * next file leaves it out (finance would pay it twice).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE fiat_withdrawals
      ADD COLUMN exported_at timestamptz,
      ADD COLUMN exported_by integer REFERENCES staff (id);
    `,
  );
}
