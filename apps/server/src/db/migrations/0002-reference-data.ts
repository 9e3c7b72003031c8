import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Currencies and coins with the spec's fees-page values. Amounts are minor
 * units; spreads and fees are percentages. All of it is edited later from the
 * back office; nothing in code repeats these numbers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    INSERT INTO assets (code, scale, kind) VALUES
      ('GBP', 2, 'fiat'), ('EUR', 2, 'fiat'), ('USD', 2, 'fiat'),
      ('BTC', 8, 'coin'), ('ETH', 18, 'coin'), ('LTC', 8, 'coin'), ('BCH', 8, 'coin'), ('XRP', 6, 'coin');

    CREATE TABLE currencies (
      id serial PRIMARY KEY,
      code text NOT NULL UNIQUE REFERENCES assets (code),
      name text NOT NULL,
      symbol text NOT NULL,
      active boolean NOT NULL DEFAULT true,
      sort_order integer NOT NULL,
      withdraw_min numeric(40, 0) NOT NULL CHECK (withdraw_min >= 0),
      withdraw_fee numeric(40, 0) NOT NULL CHECK (withdraw_fee >= 0),
      -- withdrawals of at least this amount pay no fee; null: the fee always applies
      withdraw_fee_free_from numeric(40, 0) CHECK (withdraw_fee_free_from > 0)
    );
    INSERT INTO currencies (code, name, symbol, sort_order, withdraw_min, withdraw_fee, withdraw_fee_free_from) VALUES
      ('GBP', 'British Pound', '£', 1, 2500, 500, 1000000),
      ('EUR', 'Euro', '€', 2, 2500, 500, 1000000),
      ('USD', 'US Dollar', '$', 3, 2500, 500, 1000000);

    CREATE TABLE coins (
      id serial PRIMARY KEY,
      coin_id text NOT NULL UNIQUE CHECK (coin_id = lower(coin_id)),
      asset text NOT NULL UNIQUE REFERENCES assets (code),
      name text NOT NULL,
      "primary" smallint NOT NULL DEFAULT 1,
      active boolean NOT NULL DEFAULT true,
      sort_order integer NOT NULL,
      disable_buy boolean NOT NULL DEFAULT false,
      disable_sell boolean NOT NULL DEFAULT false,
      disable_deposit boolean NOT NULL DEFAULT false,
      disable_withdraw boolean NOT NULL DEFAULT false,
      withdraw_fee numeric(40, 0) NOT NULL CHECK (withdraw_fee >= 0),
      -- the minimum withdrawal (the spec's amount_min)
      amount_min numeric(40, 0) NOT NULL CHECK (amount_min >= 0),
      -- the largest single trade, to limit slippage; null: no maximum
      amount_max numeric(40, 0) CHECK (amount_max > 0),
      -- percent; when set it caps the customer's fee for this coin (0: traded free)
      platform_fee numeric(6, 4) CHECK (platform_fee >= 0 AND platform_fee < 100),
      ask_spread numeric(6, 4) NOT NULL CHECK (ask_spread >= 0 AND ask_spread < 100),
      bid_spread numeric(6, 4) NOT NULL CHECK (bid_spread >= 0 AND bid_spread < 100),
      confirmations integer NOT NULL CHECK (confirmations >= 1)
    );
    INSERT INTO coins (coin_id, asset, name, sort_order, withdraw_fee, amount_min, amount_max, platform_fee, ask_spread, bid_spread, confirmations) VALUES
      ('btc', 'BTC', 'Bitcoin', 1, 50000, 1000000, 500000000, NULL, 0.5, 0.5, 2),
      ('eth', 'ETH', 'Ethereum', 2, 5000000000000000, 10000000000000000, 100000000000000000000, NULL, 0.5, 0.5, 12),
      ('ltc', 'LTC', 'Litecoin', 3, 100000, 100000000, 50000000000, NULL, 0.75, 0.75, 6),
      ('bch', 'BCH', 'Bitcoin Cash', 4, 100000, 1000000, 10000000000, NULL, 0.75, 0.75, 6),
      ('xrp', 'XRP', 'XRP', 5, 1000000, 20000000, 200000000000, NULL, 0.75, 0.75, 1);

    -- Every house account of every asset, up front (the ledger never creates them in a request).
    INSERT INTO accounts (asset, kind, is_house, non_negative)
    SELECT assets.code, kinds.kind, true, false
    FROM assets CROSS JOIN (VALUES ('bank'), ('custody'), ('inventory'), ('fee_revenue'), ('spread_revenue'),
      ('withdrawal_fee_revenue'), ('interest_expense'), ('referral_expense'), ('network_fee_expense'), ('suspense')) AS kinds (kind);
  `,
  );
}
