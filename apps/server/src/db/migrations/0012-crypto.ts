import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Crypto in (issue 8): deposit addresses assigned once per customer and coin
 * (derived from the coin's account-level extended public key at an index
 * handed out by a per-coin counter; XRP: the house address and a destination
 * tag), deposits seen on a chain (one row per chain, txid and output, so a
 * transfer seen twice is one deposit), the watcher's cursor per coin, and
 * the simulated chain that is the embedded default. Amounts are minor units,
 * NUMERIC(40,0), as in the ledger.
 *
 * The spec's deposit view promises 6 confirmations (001 §2, §9) and issue 8
 * says 6, configurable per coin: the seeded counts move to 6.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    UPDATE coins SET confirmations = 6;

    CREATE TABLE deposit_address_counters (
      asset text PRIMARY KEY REFERENCES assets (code),
      next_index integer NOT NULL DEFAULT 0 CHECK (next_index >= 0)
    );
    INSERT INTO deposit_address_counters (asset) SELECT asset FROM coins;

    CREATE TABLE deposit_addresses (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      asset text NOT NULL REFERENCES assets (code),
      user_id integer NOT NULL REFERENCES users (id),
      -- The derivation index (…/0/index); for XRP the sequence the tag was made from.
      derivation_index integer NOT NULL CHECK (derivation_index >= 0),
      address text NOT NULL,
      -- XRP only: the customer's destination tag on the house address.
      tag bigint CHECK (tag BETWEEN 0 AND 4294967295),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (asset, user_id),
      UNIQUE (asset, derivation_index),
      CONSTRAINT deposit_addresses_never_shared UNIQUE NULLS NOT DISTINCT (asset, address, tag),
      CHECK ((asset = 'XRP') = (tag IS NOT NULL))
    );
    CREATE INDEX deposit_addresses_lookup ON deposit_addresses (asset, lower(address));

    CREATE TABLE crypto_deposits (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      asset text NOT NULL REFERENCES assets (code),
      txid text NOT NULL,
      output integer NOT NULL CHECK (output >= 0),
      address text NOT NULL,
      tag bigint,
      amount numeric(40, 0) NOT NULL CHECK (amount > 0),
      -- The customer the address (or tag) belongs to; null for an XRP payment without a known tag.
      user_id integer REFERENCES users (id),
      deposit_address_id bigint REFERENCES deposit_addresses (id),
      -- pending: seen, counting confirmations; credited: on the customer's balance; dropped: reorganised
      -- away before it was credited; suspense: on the house's suspense account; returned: sent back.
      status text NOT NULL CHECK (status IN ('pending', 'credited', 'dropped', 'suspense', 'returned')),
      confirmations integer NOT NULL DEFAULT 0 CHECK (confirmations >= 0),
      required_confirmations integer NOT NULL CHECK (required_confirmations >= 1),
      journal_id bigint REFERENCES journals (id),
      -- When a watcher last saw it on the chain: a pending deposit not seen since a scan began is gone.
      last_seen_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      credited_at timestamptz,
      dropped_at timestamptz,
      resolved_by integer REFERENCES staff (id),
      resolved_at timestamptz,
      resolution_note text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (asset, txid, output),
      CHECK (status NOT IN ('credited', 'suspense', 'returned') OR journal_id IS NOT NULL),
      CHECK (status <> 'credited' OR user_id IS NOT NULL)
    );
    CREATE INDEX crypto_deposits_user ON crypto_deposits (user_id, created_at);
    CREATE INDEX crypto_deposits_pending ON crypto_deposits (asset) WHERE status = 'pending';
    CREATE INDEX crypto_deposits_suspense ON crypto_deposits (created_at) WHERE status = 'suspense';

    -- Where each coin's watcher resumes: an adapter-specific position (a block hash or height).
    CREATE TABLE chain_cursors (
      asset text PRIMARY KEY REFERENCES assets (code),
      cursor text,
      height integer NOT NULL DEFAULT 0,
      scanned_at timestamptz NOT NULL DEFAULT now()
    );

    -- The simulated chain: one height per coin and its transactions (block_height null: in the mempool).
    CREATE TABLE simulated_chain_heights (
      asset text PRIMARY KEY REFERENCES assets (code),
      height integer NOT NULL DEFAULT 0 CHECK (height >= 0)
    );
    INSERT INTO simulated_chain_heights (asset) SELECT asset FROM coins;

    CREATE TABLE simulated_chain_transactions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      asset text NOT NULL REFERENCES assets (code),
      txid text NOT NULL,
      output integer NOT NULL DEFAULT 0,
      address text NOT NULL,
      tag bigint,
      amount numeric(40, 0) NOT NULL CHECK (amount > 0),
      block_height integer,
      dropped_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (asset, txid, output)
    );
    CREATE INDEX simulated_chain_live ON simulated_chain_transactions (asset, block_height) WHERE dropped_at IS NULL;
  `,
  );
}
