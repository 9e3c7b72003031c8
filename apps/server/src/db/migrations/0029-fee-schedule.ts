import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The fee schedule moves from code into the database, where staff change it in
 * the back office (DECISIONS.md "Fees, tiers, referrals": "kept in the back
 * office"). Its rows start as the schedule the code held (DEFAULT_FEE_SCHEDULE).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE fee_schedule (
      platform smallint NOT NULL CHECK (platform IN (1, 2)),
      tier smallint NOT NULL CHECK (tier BETWEEN 1 AND 4),
      fee_percent numeric(4, 2) NOT NULL CHECK (fee_percent > 0 AND fee_percent <= 10),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (platform, tier)
    );
    INSERT INTO fee_schedule (platform, tier, fee_percent) VALUES
      (1, 1, 1.39), (1, 2, 1.15), (1, 3, 0.90), (1, 4, 0.65),
      (2, 1, 0.75), (2, 2, 0.60), (2, 3, 0.45), (2, 4, 0.35);
    `,
  );
}
