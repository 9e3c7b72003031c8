import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Fiat money in and out (issue 7): the customer's bank account per fiat
 * currency, the house's deposit details per currency (edited by finance),
 * incoming bank transfers (credited or waiting in suspense, one row per bank
 * transaction id, so a statement imported twice credits nothing twice), fiat
 * withdrawals (each with its ledger hold), and the one-time codes e-mailed to
 * customers who use e-mailed codes as their second factor. Amounts are minor
 * units, NUMERIC(40,0), as in the ledger.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE bank_accounts (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      currency text NOT NULL CHECK (currency IN ('GBP', 'EUR', 'USD')) REFERENCES assets (code),
      name_of_account text NOT NULL,
      -- GBP: the 8-digit account number and 6-digit sort code; EUR and USD: the IBAN and BIC.
      account_number text,
      sort_code text,
      iban text,
      bic text,
      verified_at timestamptz,
      verified_by text CHECK (verified_by IN ('deposit', 'staff')),
      details_changed_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, currency),
      CHECK (
        (currency = 'GBP' AND account_number ~ '^[0-9]{8}$' AND sort_code ~ '^[0-9]{6}$' AND iban IS NULL)
        OR (currency <> 'GBP' AND iban IS NOT NULL AND bic IS NOT NULL AND account_number IS NULL AND sort_code IS NULL)
      )
    );

    -- Where customers send money, per currency; what GET /api/v1/bank-account/deposit shows.
    CREATE TABLE fiat_bank_settings (
      currency text PRIMARY KEY CHECK (currency IN ('GBP', 'EUR', 'USD')) REFERENCES assets (code),
      account_name text NOT NULL DEFAULT '',
      account_number text NOT NULL DEFAULT '',
      sort_code text NOT NULL DEFAULT '',
      bank_name text NOT NULL DEFAULT '',
      iban text NOT NULL DEFAULT '',
      bic text NOT NULL DEFAULT '',
      -- Withdrawals of at least this much need a second staff member's approval before payment.
      second_approval_from numeric(40, 0) NOT NULL DEFAULT 500000 CHECK (second_approval_from > 0),
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by integer REFERENCES staff (id)
    );
    INSERT INTO fiat_bank_settings (currency) VALUES ('GBP'), ('EUR'), ('USD');

    CREATE TABLE fiat_deposits (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      currency text NOT NULL CHECK (currency IN ('GBP', 'EUR', 'USD')) REFERENCES assets (code),
      bank_transaction_id text NOT NULL,
      amount numeric(40, 0) NOT NULL CHECK (amount > 0),
      payer_name text NOT NULL,
      reference text NOT NULL,
      value_date text,
      source text NOT NULL CHECK (source IN ('manual', 'import')),
      -- credited: on the customer's balance; suspense: held on the house's suspense account for a person;
      -- returned: sent back to the payer out of suspense.
      status text NOT NULL CHECK (status IN ('credited', 'suspense', 'returned')),
      suspense_reason text CHECK (suspense_reason IN ('unmatched', 'name_mismatch', 'customer_not_live')),
      user_id integer REFERENCES users (id),
      recorded_by integer REFERENCES staff (id),
      resolved_by integer REFERENCES staff (id),
      resolved_at timestamptz,
      resolution_note text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (currency, bank_transaction_id),
      CHECK (status <> 'credited' OR user_id IS NOT NULL)
    );
    CREATE INDEX fiat_deposits_user ON fiat_deposits (user_id, created_at);
    CREATE INDEX fiat_deposits_suspense ON fiat_deposits (created_at) WHERE status = 'suspense';

    CREATE TABLE fiat_withdrawals (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      idempotency_key text NOT NULL,
      request_hash text NOT NULL,
      currency text NOT NULL CHECK (currency IN ('GBP', 'EUR', 'USD')) REFERENCES assets (code),
      -- What leaves the customer's balance (the hold); net = amount - fee reaches their bank.
      amount numeric(40, 0) NOT NULL CHECK (amount > 0),
      fee numeric(40, 0) NOT NULL CHECK (fee >= 0 AND fee < amount),
      bank_account_id integer NOT NULL REFERENCES bank_accounts (id),
      -- The bank details as they were when the customer asked: what finance pays to.
      name_of_account text NOT NULL,
      account_number text,
      sort_code text,
      iban text,
      bic text,
      status text NOT NULL CHECK (status IN ('pending', 'approved', 'paid', 'rejected', 'cancelled')),
      hold_id bigint NOT NULL REFERENCES holds (id),
      journal_id bigint REFERENCES journals (id),
      needs_second_approval boolean NOT NULL,
      approved_by integer REFERENCES staff (id),
      approved_at timestamptz,
      paid_by integer REFERENCES staff (id),
      paid_at timestamptz,
      payment_reference text,
      rejected_by integer REFERENCES staff (id),
      rejected_at timestamptz,
      reject_reason text,
      cancelled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, idempotency_key),
      CHECK (status <> 'paid' OR (journal_id IS NOT NULL AND payment_reference IS NOT NULL)),
      CHECK (approved_by IS NULL OR paid_by IS NULL OR approved_by <> paid_by)
    );
    CREATE INDEX fiat_withdrawals_user ON fiat_withdrawals (user_id, created_at);
    CREATE INDEX fiat_withdrawals_open ON fiat_withdrawals (created_at) WHERE status IN ('pending', 'approved');

    -- E-mailed second-factor codes (POST /api/v1/mobile/request-2fa): hashed, single use, short-lived.
    CREATE TABLE withdrawal_codes (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      purpose text NOT NULL,
      code_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      failed_attempts integer NOT NULL DEFAULT 0,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX withdrawal_codes_user ON withdrawal_codes (user_id, purpose) WHERE used_at IS NULL;
  `,
  );
}
