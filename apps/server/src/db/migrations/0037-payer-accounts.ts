import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * A bank account is proven by money (decision 132): an incoming transfer keeps
 * the account it came from, as the statement or finance gave it, and a
 * transfer from an account the customer has not registered waits in suspense
 * for staff.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE fiat_deposits
      ADD COLUMN payer_sort_code text CHECK (payer_sort_code ~ '^[0-9]{6}$'),
      ADD COLUMN payer_account_number text CHECK (payer_account_number ~ '^[0-9]{8}$'),
      ADD COLUMN payer_iban text CHECK (payer_iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
      ADD COLUMN payer_bic text CHECK (length(payer_bic) <= 20);
    ALTER TABLE fiat_deposits DROP CONSTRAINT fiat_deposits_suspense_reason_check;
    ALTER TABLE fiat_deposits ADD CONSTRAINT fiat_deposits_suspense_reason_check
      CHECK (suspense_reason IN ('unmatched', 'name_mismatch', 'customer_not_live', 'unknown_account'));
    `,
  );
}
