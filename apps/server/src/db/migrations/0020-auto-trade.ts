import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Auto trade (issue 10; spec 002 §4, §9): a customer's standing instruction
 * to convert each deposit credited after it was made. At most one active per
 * type (so at most two), enforced by a partial unique index so two requests
 * at once cannot both succeed. Each deposit an auto trade handles gets one
 * auto_trade_conversions row, unique per deposit: a deposit converts at most
 * once, whichever instance runs the job and however often.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE auto_trades (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      type text NOT NULL CHECK (type IN ('buy', 'sell')),
      asset text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      cancelled_at timestamptz
    );
    CREATE UNIQUE INDEX auto_trades_one_active_per_type ON auto_trades (user_id, type)
      WHERE cancelled_at IS NULL;

    CREATE TABLE auto_trade_conversions (
      id bigserial PRIMARY KEY,
      auto_trade_id integer NOT NULL REFERENCES auto_trades (id),
      user_id integer NOT NULL REFERENCES users (id),
      source text NOT NULL CHECK (source IN ('fiat', 'crypto')),
      deposit_id text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'converted', 'skipped')),
      -- The quote a conversion took, kept before it is executed: a run that stopped half-way is
      -- finished by a later one (the quote's trade is found, or the quote has lapsed and it starts over).
      quote_id text,
      trade_id text,
      reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      claimed_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      UNIQUE (source, deposit_id),
      CHECK ((status = 'converted') = (trade_id IS NOT NULL))
    );
    CREATE INDEX auto_trade_conversions_user ON auto_trade_conversions (user_id, created_at DESC);
    CREATE INDEX auto_trade_conversions_pending ON auto_trade_conversions (claimed_at) WHERE status = 'pending';
    `,
  );
}
