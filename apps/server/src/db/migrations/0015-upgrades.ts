import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Upgrades to the trading platform (issue 9, "Upgrade to trade"): one row per
 * customer who moved from the instant platform (1) to trading (2), from the
 * Account page or the wizard's Trade choice, with the staff chat webhook's
 * delivery. The webhook's address is a setting staff change at run time, so
 * it lives in a small key/value table rather than in the configuration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE platform_upgrades (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      from_platform integer NOT NULL CHECK (from_platform IN (1, 2)),
      to_platform integer NOT NULL CHECK (to_platform IN (1, 2)),
      -- skipped: no webhook was set when the upgrade committed.
      webhook_status text NOT NULL DEFAULT 'pending'
        CHECK (webhook_status IN ('pending', 'delivered', 'failed', 'skipped')),
      webhook_attempts integer NOT NULL DEFAULT 0 CHECK (webhook_attempts >= 0),
      webhook_error text,
      webhook_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (from_platform <> to_platform)
    );
    -- The back office lists the newest first.
    CREATE INDEX platform_upgrades_newest ON platform_upgrades (id DESC);
    CREATE INDEX platform_upgrades_user ON platform_upgrades (user_id);

    CREATE TABLE app_settings (
      key text PRIMARY KEY,
      value text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `,
  );
}
