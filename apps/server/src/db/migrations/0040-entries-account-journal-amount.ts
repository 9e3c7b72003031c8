import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The history export (decision 130) reads each of a customer's accounts
 * backwards along (account_id, journal_id) and merges them in journal order.
 * With the amount in the index that read never visits the table: a busy
 * customer's entries lie scattered among everyone else's, one heap page for
 * each. An entry's asset is its account's (0032), so the index needs no more.
 * It replaces the index the paged history already walks (same key), so an
 * entry written still costs one insertion there, a few bytes wider.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP INDEX entries_account_journal;
    CREATE INDEX entries_account_journal ON entries (account_id, journal_id) INCLUDE (amount);
    `,
  );
}
