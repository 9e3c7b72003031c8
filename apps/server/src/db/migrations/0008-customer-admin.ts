import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * What the back office's customer view and compliance actions keep on the
 * customer: when staff last reset their 2FA (withdrawals wait 24 hours from
 * then) and why the account is on hold. Who did it and the rest of the story
 * are in the audit log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE users
      ADD COLUMN two_factor_reset_at timestamptz,
      -- set with block_status 2, cleared when the hold is lifted
      ADD COLUMN block_reason text;

    -- The compliance queue reads pending documents oldest first, per customer.
    CREATE INDEX kyc_documents_user_pending ON kyc_documents (user_id, created_at) WHERE status = 'pending';
  `,
  );
}
