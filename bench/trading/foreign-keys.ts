/** What the foreign keys of a limit fill's rows cost PostgreSQL, measured beside the fills. */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Database } from '../../apps/server/src/db/index.js';

/** The foreign keys of the rows a limit fill inserts, and what one check costs on the benchmark's PostgreSQL server. */
export type ForeignKeys = { entryKeys: number; tradeKeys: number; journalKeys: number; microseconds: number };

export const FOREIGN_KEY_ROWS = 20_000;

/**
 * What one foreign-key check costs this PostgreSQL server: the same rows inserted in one statement into a
 * table without a key and into one with a key to a table holding them, best of three, in the server's own
 * \`postgres\` database (nothing of the app's is touched).
 */
export async function foreignKeyCheckMicroseconds(db: Database['db']): Promise<number> {
  const timed = async (query: ReturnType<typeof sql>) => {
    const started = performance.now();
    await query.execute(db);
    return performance.now() - started;
  };
  await sql`CREATE TABLE fk_parent (id bigint PRIMARY KEY)`.execute(db);
  await sql`INSERT INTO fk_parent SELECT generate_series(1, ${FOREIGN_KEY_ROWS}::int)`.execute(db);
  await sql`CREATE TABLE fk_plain (parent_id bigint NOT NULL)`.execute(db);
  await sql`CREATE TABLE fk_keyed (parent_id bigint NOT NULL REFERENCES fk_parent)`.execute(db);
  let best = Number.POSITIVE_INFINITY;
  try {
    for (let round = 0; round < 3; round += 1) {
      const plain = await timed(
        sql`INSERT INTO fk_plain SELECT generate_series(1, ${FOREIGN_KEY_ROWS}::int)`,
      );
      const keyed = await timed(
        sql`INSERT INTO fk_keyed SELECT generate_series(1, ${FOREIGN_KEY_ROWS}::int)`,
      );
      best = Math.min(best, keyed - plain);
      await sql`TRUNCATE fk_plain, fk_keyed`.execute(db);
    }
  } finally {
    await sql`DROP TABLE fk_keyed, fk_plain, fk_parent`.execute(db);
  }
  return (best / FOREIGN_KEY_ROWS) * 1000;
}

/** The foreign keys of the rows a limit fill inserts (five entries, a trade, a journal), read from the app's schema. */
export async function foreignKeysOfAFill(db: Database['db']): Promise<Omit<ForeignKeys, 'microseconds'>> {
  const rows = await sql<{ table: string; keys: number }>`
    SELECT conrelid::regclass::text AS table, count(*)::int AS keys FROM pg_constraint
    WHERE contype = 'f' AND conrelid::regclass::text IN ('entries', 'trades', 'journals')
    GROUP BY 1`.execute(db);
  const keysOf = (table: string) => rows.rows.find((row) => row.table === table)?.keys ?? 0;
  return { entryKeys: keysOf('entries'), tradeKeys: keysOf('trades'), journalKeys: keysOf('journals') };
}
