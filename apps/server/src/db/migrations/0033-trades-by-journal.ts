import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The history and its export read a trade's fee, price, GBP value and total
 * from its trades row, found by the journal that moved the money: one trade
 * per journal, so the key is unique (and the join can never double a row).
 * Journals stay untouched: they are append-only, so nothing is backfilled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `CREATE UNIQUE INDEX trades_journal ON trades (journal_id);`);
}
