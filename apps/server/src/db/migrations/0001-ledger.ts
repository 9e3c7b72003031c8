import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The double-entry ledger (shared/LEDGER.md). Amounts are NUMERIC(40,0)
 * counts of each asset's smallest unit. Sign convention: an entry's amount is
 * the change to the account's `posted`, so a credit to a customer is positive
 * and the matching debit of a house account is negative; every journal sums to
 * zero per asset, and so does every asset across all accounts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE assets (
      code text PRIMARY KEY,
      scale integer NOT NULL CHECK (scale BETWEEN 0 AND 18),
      kind text NOT NULL CHECK (kind IN ('fiat', 'coin'))
    );

    CREATE TABLE accounts (
      id bigserial PRIMARY KEY,
      asset text NOT NULL REFERENCES assets (code),
      owner_user_id bigint,
      kind text NOT NULL,
      reference text NOT NULL DEFAULT '',
      posted numeric(40, 0) NOT NULL DEFAULT 0,
      held numeric(40, 0) NOT NULL DEFAULT 0,
      non_negative boolean NOT NULL,
      is_house boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT accounts_held_not_negative CHECK (held >= 0),
      CONSTRAINT accounts_no_overdraft CHECK (NOT non_negative OR posted - held >= 0),
      CONSTRAINT accounts_owner_matches_side CHECK (is_house = (owner_user_id IS NULL)),
      CONSTRAINT accounts_house_hold_free CHECK (NOT is_house OR held = 0),
      CONSTRAINT accounts_identity UNIQUE NULLS NOT DISTINCT (asset, kind, owner_user_id, reference)
    );
    CREATE INDEX accounts_owner ON accounts (owner_user_id) WHERE owner_user_id IS NOT NULL;

    CREATE TABLE journals (
      id bigserial PRIMARY KEY,
      idempotency_key text NOT NULL,
      request_hash text NOT NULL,
      kind text NOT NULL,
      reference text,
      hold_id bigint,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT journals_idempotency_key UNIQUE (idempotency_key)
    );
    CREATE INDEX journals_reference ON journals (kind, reference);

    CREATE TABLE entries (
      id bigserial PRIMARY KEY,
      journal_id bigint NOT NULL REFERENCES journals (id),
      account_id bigint NOT NULL REFERENCES accounts (id),
      asset text NOT NULL REFERENCES assets (code),
      amount numeric(40, 0) NOT NULL CHECK (amount <> 0),
      -- null on house accounts, whose rows are never locked (see house_balance_deltas)
      balance_after numeric(40, 0),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX entries_account ON entries (account_id, id);
    CREATE INDEX entries_journal ON entries (journal_id);

    CREATE TABLE holds (
      id bigserial PRIMARY KEY,
      idempotency_key text NOT NULL,
      request_hash text NOT NULL,
      account_id bigint NOT NULL REFERENCES accounts (id),
      amount numeric(40, 0) NOT NULL CHECK (amount > 0),
      remaining numeric(40, 0) NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'posted', 'voided', 'expired')),
      reason text NOT NULL,
      reference text,
      created_at timestamptz NOT NULL DEFAULT now(),
      resolved_at timestamptz,
      CONSTRAINT holds_idempotency_key UNIQUE (idempotency_key),
      CONSTRAINT holds_remaining_in_range CHECK (remaining >= 0 AND remaining <= amount),
      CONSTRAINT holds_resolved_once CHECK ((status = 'pending') = (resolved_at IS NULL)),
      CONSTRAINT holds_resolved_release_all CHECK (status = 'pending' OR remaining = 0)
    );
    CREATE INDEX holds_pending ON holds (account_id) WHERE status = 'pending';
    ALTER TABLE journals ADD CONSTRAINT journals_hold FOREIGN KEY (hold_id) REFERENCES holds (id);

    -- House accounts are touched by almost every journal. Locking their rows
    -- would serialise all trading, so a journal appends its house postings
    -- here and rollUpHouseBalances() folds them into accounts.posted later.
    CREATE TABLE house_balance_deltas (
      id bigserial PRIMARY KEY,
      account_id bigint NOT NULL REFERENCES accounts (id),
      amount numeric(40, 0) NOT NULL
    );
    CREATE INDEX house_balance_deltas_account ON house_balance_deltas (account_id);

    CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'ledger rows are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
    END
    $$;
    CREATE TRIGGER journals_append_only BEFORE UPDATE OR DELETE ON journals
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER journals_no_truncate BEFORE TRUNCATE ON journals
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON entries
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON entries
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
  `,
  );
}
