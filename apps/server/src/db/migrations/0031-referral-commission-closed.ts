import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * A trade whose referrer's account is closed or ended earns them nothing: the
 * commission row records it as skipped 'closed' (they could never claim it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE referral_commissions DROP CONSTRAINT referral_commissions_skipped_check;
    ALTER TABLE referral_commissions
      ADD CONSTRAINT referral_commissions_skipped_check CHECK (skipped IN ('policy', 'zero', 'closed'));
    `,
  );
}
