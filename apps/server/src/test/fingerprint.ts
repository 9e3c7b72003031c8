import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * What a request may change without changing anything a customer or the
 * ledger would see: the per-IP request counters, and the times a session or
 * token was last used (touched by any request that presents it).
 */
const VOLATILE_TABLES = new Set(['rate_limit_hits']);
const VOLATILE_COLUMNS = ['last_seen_at', 'last_used_at'];

/**
 * A digest of every row of every table in the public schema (row order and
 * the volatile parts above left out), table by table, so a test can show a
 * refused request changed nothing and name the table when it did.
 */
export async function databaseFingerprint(db: Kysely<DB>): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db);
  const names = tables.rows.map((row) => row.name).filter((name) => !VOLATILE_TABLES.has(name));
  const dropped = sql.raw(VOLATILE_COLUMNS.map((column) => ` - '${column}'`).join(''));
  const digests = sql.join(
    names.map(
      (name) => sql`
        SELECT ${name} AS name, count(*)::text || ':' || coalesce(md5(string_agg(row_digest, ',' ORDER BY row_digest)), '') AS digest
        FROM (SELECT md5((to_jsonb(t)${dropped})::text) AS row_digest FROM ${sql.table(name)} t) rows`,
    ),
    sql` UNION ALL `,
  );
  const result = await sql<{ name: string; digest: string }>`${digests}`.execute(db);
  return Object.fromEntries(result.rows.map((row) => [row.name, row.digest]));
}

/** The tables whose digests differ between two fingerprints. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
