import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The rows a limit fill writes, at the speed of the rows (issue 43, decision 136).
 *
 * Ids: a trade's and a notification's random id (migration 0026) was drawn by a plpgsql trigger on
 * every row. The fill engine now draws them itself, in the statement that writes the set, so the
 * trigger runs only for a row that arrives without one; every other writer is unchanged.
 *
 * Foreign keys: PostgreSQL checks each one row by row. The keys below are dropped because the ledger
 * writes both ends in one transaction from rows it has just read or written, the referenced rows are
 * never deleted, and the ledger checker proves each fact after every test and before serving
 * (ledger/check.ts, trading's domain check). The entry's account-and-asset key (migration 0032), the
 * trade's quote key (null on a fill), the notification's and the mail's customer keys stay.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP TRIGGER random_id ON trades;
    CREATE TRIGGER random_id BEFORE INSERT ON trades
      FOR EACH ROW WHEN (NEW.id IS NULL) EXECUTE FUNCTION trades_random_id();
    DROP TRIGGER random_id ON notifications;
    CREATE TRIGGER random_id BEFORE INSERT ON notifications
      FOR EACH ROW WHEN (NEW.id IS NULL) EXECUTE FUNCTION notifications_random_id();

    ALTER TABLE entries DROP CONSTRAINT entries_journal_id_fkey;
    ALTER TABLE journals DROP CONSTRAINT journals_hold;
    ALTER TABLE trades DROP CONSTRAINT trades_journal_id_fkey;
    ALTER TABLE trades DROP CONSTRAINT trades_order_id_fkey;
    ALTER TABLE trades DROP CONSTRAINT trades_user_id_fkey;
    ALTER TABLE trades DROP CONSTRAINT trades_asset_fkey;
    ALTER TABLE trades DROP CONSTRAINT trades_fiat_fkey;
    `,
  );
}
