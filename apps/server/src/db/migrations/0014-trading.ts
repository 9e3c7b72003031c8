import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Trading (issue 9): the quotes the server gives (executed at most once),
 * every executed trade with its price and journal, and limit and stop orders
 * with the hold of what they may spend. A customer's Custom fee plan is a
 * percent on the user. Amounts are minor units, NUMERIC(40,0); prices are
 * decimal strings, as on the wire.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    -- DECISIONS.md: Custom is a fee plan staff assign; null means the schedule's tier applies.
    ALTER TABLE users ADD COLUMN custom_fee_percent numeric(6, 4) CHECK (custom_fee_percent >= 0 AND custom_fee_percent < 100);

    CREATE TABLE trade_quotes (
      -- Random and long: a quote id is not guessable.
      id text PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      side text NOT NULL CHECK (side IN ('buy', 'sell')),
      asset text NOT NULL REFERENCES assets (code),
      fiat text NOT NULL REFERENCES assets (code),
      price text NOT NULL,
      quantity numeric(40, 0) NOT NULL CHECK (quantity > 0),
      notional numeric(40, 0) NOT NULL CHECK (notional >= 0),
      fee numeric(40, 0) NOT NULL CHECK (fee >= 0),
      total numeric(40, 0) NOT NULL CHECK (total >= 0),
      fee_percent text NOT NULL,
      expires_at timestamptz NOT NULL,
      executed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX trade_quotes_expiry ON trade_quotes (expires_at) WHERE executed_at IS NULL;

    CREATE TABLE orders (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      idempotency_key text NOT NULL,
      request_hash text NOT NULL,
      type text NOT NULL CHECK (type IN ('limit', 'stop')),
      side text NOT NULL CHECK (side IN ('buy', 'sell')),
      asset text NOT NULL REFERENCES assets (code),
      fiat text NOT NULL REFERENCES assets (code),
      quantity numeric(40, 0) NOT NULL CHECK (quantity > 0),
      -- The limit (or stop) price, fiat per coin.
      price text NOT NULL,
      -- Fixed when the order is placed: the fee it pays when it fills, and its spread multiplier,
      -- so the fill compares the limit with this customer's own bid or ask.
      fee_percent text NOT NULL,
      spread_multiplier text NOT NULL,
      hold_id bigint NOT NULL REFERENCES holds (id),
      held numeric(40, 0) NOT NULL CHECK (held > 0),
      status text NOT NULL CHECK (status IN ('open', 'filled', 'cancelled', 'expired')),
      expires_at timestamptz,
      filled_at timestamptz,
      cancelled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, idempotency_key),
      CHECK (type = 'limit' OR side = 'sell')
    );
    CREATE INDEX orders_user ON orders (user_id, created_at);
    CREATE INDEX orders_open ON orders (asset, fiat, side) WHERE status = 'open';

    CREATE TABLE trades (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      kind text NOT NULL CHECK (kind IN ('instant', 'market', 'limit', 'stop')),
      side text NOT NULL CHECK (side IN ('buy', 'sell')),
      asset text NOT NULL REFERENCES assets (code),
      fiat text NOT NULL REFERENCES assets (code),
      price text NOT NULL,
      quantity numeric(40, 0) NOT NULL CHECK (quantity > 0),
      notional numeric(40, 0) NOT NULL CHECK (notional >= 0),
      fee numeric(40, 0) NOT NULL CHECK (fee >= 0),
      total numeric(40, 0) NOT NULL CHECK (total >= 0),
      fee_percent text NOT NULL,
      -- The notional in pence: this calendar year's sum is the customer's tier volume.
      gbp_value numeric(40, 0) NOT NULL CHECK (gbp_value >= 0),
      quote_id text UNIQUE REFERENCES trade_quotes (id),
      order_id bigint UNIQUE REFERENCES orders (id),
      idempotency_key text,
      request_hash text,
      journal_id bigint NOT NULL REFERENCES journals (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, idempotency_key),
      CHECK ((kind = 'instant') = (quote_id IS NOT NULL)),
      CHECK ((kind IN ('limit', 'stop')) = (order_id IS NOT NULL))
    );
    CREATE INDEX trades_user ON trades (user_id, created_at);
    CREATE INDEX trades_user_asset ON trades (user_id, asset, id);
  `,
  );
}
