import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Term deposits (issue 11): the options finance offers per coin (a term in
 * days, a rate for the whole term, limits and an optional cap on what the
 * house accepts under the option) and each customer's deposit with the rate,
 * interest, start and maturity fixed when it is made. The principal sits in
 * the customer's `term` ledger account referenced by the deposit's id; the
 * maturity job pays it back with the interest exactly once. Amounts are minor
 * units, NUMERIC(40,0); rates are decimal strings (percent for the whole term).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE term_deposit_options (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      asset text NOT NULL REFERENCES assets (code),
      no_days integer NOT NULL CHECK (no_days BETWEEN 1 AND 3650),
      -- percent for the whole term, e.g. '1.25'
      interest_rate numeric(8, 4) NOT NULL CHECK (interest_rate >= 0 AND interest_rate < 1000),
      active boolean NOT NULL DEFAULT true,
      amount_min numeric(40, 0) NOT NULL DEFAULT 0 CHECK (amount_min >= 0),
      amount_max numeric(40, 0) CHECK (amount_max > 0),
      -- the most the house accepts in live deposits under this option; null: no cap
      total_cap numeric(40, 0) CHECK (total_cap > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (asset, no_days),
      CHECK (amount_max IS NULL OR amount_max >= amount_min)
    );

    CREATE TABLE term_deposits (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      option_id integer NOT NULL REFERENCES term_deposit_options (id),
      idempotency_key text NOT NULL,
      request_hash text NOT NULL,
      asset text NOT NULL REFERENCES assets (code),
      amount numeric(40, 0) NOT NULL CHECK (amount > 0),
      no_days integer NOT NULL,
      interest_rate numeric(8, 4) NOT NULL,
      -- fixed at the start, floored to the coin's scale
      interest numeric(40, 0) NOT NULL CHECK (interest >= 0),
      status text NOT NULL CHECK (status IN ('live', 'expired')),
      starts_at timestamptz NOT NULL,
      matures_at timestamptz NOT NULL,
      paid_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, idempotency_key),
      CHECK ((status = 'live') = (paid_at IS NULL))
    );
    CREATE INDEX term_deposits_user ON term_deposits (user_id, id DESC);
    CREATE INDEX term_deposits_due ON term_deposits (matures_at) WHERE status = 'live';
    CREATE INDEX term_deposits_option_live ON term_deposits (option_id) WHERE status = 'live';

    -- Sensible defaults so the product works out of the box; finance changes them in the back office.
    INSERT INTO term_deposit_options (asset, no_days, interest_rate, amount_min)
    SELECT c.asset, t.no_days, t.interest_rate, c.amount_min
    FROM (VALUES ('BTC', 100000), ('ETH', 10000000000000000), ('LTC', 10000000), ('BCH', 1000000), ('XRP', 20000000))
      AS c (asset, amount_min)
    CROSS JOIN (VALUES (30, 0.25), (90, 1), (180, 2.25)) AS t (no_days, interest_rate)
    WHERE EXISTS (SELECT 1 FROM assets a WHERE a.code = c.asset);
    `,
  );
}
