import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The tier volume as a running total per customer and calendar year (issue
 * 43): the fee tier and the source-of-wealth threshold read one row instead of
 * summing the year's trades, which grew with every trade. The statement that
 * inserts trades adds them here (trading's repository), and the ledger checker
 * compares each row with its trades (trading-volume's domain check).
 *
 * The year is `extract(year FROM created_at)` in the database session's time
 * zone, the boundary `date_trunc('year', now())` drew before: UTC on our
 * servers (Debian's and the postgres image's default, and PGlite's). Backfilled
 * from the trades so far.
 *
 * The app never updates a trade, but a correction by hand (or a test dating a
 * trade back) moves its value between years or customers: the trigger keeps the
 * totals with it, so only a missed insert or a hand-edited total can break them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE trading_volumes (
      user_id integer NOT NULL REFERENCES users (id),
      year integer NOT NULL,
      -- Pence, as trades.gbp_value: the sum of the year's trades, buys and sells alike.
      gbp_value numeric(40, 0) NOT NULL CHECK (gbp_value >= 0),
      PRIMARY KEY (user_id, year)
    );

    INSERT INTO trading_volumes (user_id, year, gbp_value)
    SELECT user_id, extract(year FROM created_at)::integer, sum(gbp_value)
    FROM trades GROUP BY 1, 2;

    CREATE FUNCTION trades_move_volume() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE trading_volumes SET gbp_value = gbp_value - OLD.gbp_value
      WHERE user_id = OLD.user_id AND year = extract(year FROM OLD.created_at)::integer;
      INSERT INTO trading_volumes (user_id, year, gbp_value)
      VALUES (NEW.user_id, extract(year FROM NEW.created_at)::integer, NEW.gbp_value)
      ON CONFLICT (user_id, year) DO UPDATE SET gbp_value = trading_volumes.gbp_value + excluded.gbp_value;
      RETURN NULL;
    END $$;

    CREATE TRIGGER trades_move_volume AFTER UPDATE OF user_id, created_at, gbp_value ON trades
    FOR EACH ROW
    WHEN ((OLD.user_id, OLD.created_at, OLD.gbp_value) IS DISTINCT FROM (NEW.user_id, NEW.created_at, NEW.gbp_value))
    EXECUTE FUNCTION trades_move_volume();
    `,
  );
}
