import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Automatic crypto payouts (issue 44, decision 131). Each coin gets its limits: whether the job pays
 * it at all, the most one withdrawal may be, the most paid automatically in 24 hours, and the most
 * the node's hot wallet may hold. A withdrawal the job pays keeps its signed transaction here before
 * it is broadcast, so a retry broadcasts the same transaction and never a second one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE coins ADD COLUMN auto_payout boolean NOT NULL DEFAULT false;
    ALTER TABLE coins ADD COLUMN payout_max_per_withdrawal numeric(40, 0)
      CHECK (payout_max_per_withdrawal > 0);
    ALTER TABLE coins ADD COLUMN payout_daily_total numeric(40, 0) CHECK (payout_daily_total > 0);
    ALTER TABLE coins ADD COLUMN hot_wallet_ceiling numeric(40, 0) CHECK (hot_wallet_ceiling > 0);

    ALTER TABLE crypto_withdrawals ADD COLUMN payout_raw text;
    ALTER TABLE crypto_withdrawals ADD COLUMN payout_txid text;
    ALTER TABLE crypto_withdrawals ADD COLUMN payout_signed_at timestamptz;
    ALTER TABLE crypto_withdrawals ADD COLUMN payout_by_staff boolean NOT NULL DEFAULT false;
    ALTER TABLE crypto_withdrawals ADD CONSTRAINT crypto_withdrawals_payout_signed
      CHECK ((payout_raw IS NULL) = (payout_txid IS NULL));
    CREATE INDEX crypto_withdrawals_auto_payout ON crypto_withdrawals (asset, seq)
      WHERE status IN ('approved', 'sent');
    `,
  );
}
