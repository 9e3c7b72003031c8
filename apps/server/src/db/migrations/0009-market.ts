import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Price candles (issue 5): one row per pair, resolution and period start, in
 * UTC. Every tick batch folds into its minute, hour and day rows in one
 * upsert; `last_tick_at` keeps a late tick from overwriting a newer close.
 * Prices have 8 decimals, as the chart shows them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE candles (
      symbol text NOT NULL CHECK (symbol ~ '^[A-Z0-9]{2,10}/[A-Z]{3}$'),
      resolution text NOT NULL CHECK (resolution IN ('minute', 'hour', 'day')),
      start_at timestamptz NOT NULL,
      open numeric(38, 8) NOT NULL CHECK (open > 0),
      high numeric(38, 8) NOT NULL,
      low numeric(38, 8) NOT NULL CHECK (low > 0),
      close numeric(38, 8) NOT NULL CHECK (close > 0),
      last_tick_at timestamptz NOT NULL,
      PRIMARY KEY (symbol, resolution, start_at),
      CHECK (low <= least(open, close) AND high >= greatest(open, close))
    );
  `,
  );
}
