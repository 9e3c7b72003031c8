import path from 'node:path';
import { PGlite, types as liteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type Logger, type Transaction } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { copyCsvFromPglite, copyCsvFromPool, type CsvCopy } from './copy-out.js';
import { lockFolder } from './folder-lock.js';
import { preparingPool, warmPool } from './prepared-statements.js';
import type { DB } from './schema.js';

export type Engine = 'pglite' | 'postgres';

/** The work runs in the caller's transaction when given one (so both commit or neither does), else in its own. */
export function withTransaction<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}

export type Database = {
  db: Kysely<DB>;
  engine: Engine;
  /** A query's rows as CSV, streamed by the database's own COPY (copy-out.ts). */
  copyCsv: CsvCopy;
  /** PGlite only: LISTEN in process (on PostgreSQL the realtime relay's connection listens). */
  listen?: (channel: string, callback: (payload: string) => void) => Promise<unknown>;
  /** Checkpoints PGlite (so its folder is consistent), closes every connection, then unlocks PGlite's folder. */
  close: () => Promise<void>;
};

/** Queries slower than `thresholdMs` are reported with their SQL (never their values, which may be personal data). */
export type SlowQueryWatch = {
  thresholdMs: number;
  report: (query: { sql: string; durationMs: number }) => void;
};

export type DatabaseOptions = (
  | {
      engine: 'postgres';
      url: string;
      poolSize?: number;
      /** Opened at start and never closed for idling: a quarter of the pool unless said. */
      minConnections?: number;
      onConnectionError?: (error: Error) => void;
    }
  /**
   * `dataDir` unset: in memory. `template`: start from a dumped, already-migrated data folder.
   * A `dataDir` is locked for this process until close (db/folder-lock.ts): FolderInUseError if another has it.
   */
  | { engine: 'pglite'; dataDir?: string; template?: Blob }
) & { slowQueries?: SlowQueryWatch };

function slowQueryLog(watch: SlowQueryWatch | undefined): Logger | undefined {
  if (!watch) return undefined;
  return (event) => {
    if (event.level === 'query' && event.queryDurationMillis >= watch.thresholdMs)
      watch.report({ sql: event.query.sql, durationMs: Math.round(event.queryDurationMillis) });
  };
}

/**
 * int8 comes back as a string on both engines (pg does this by default; PGlite
 * would give a JS number, which silently loses precision past 2^53).
 */
const pgliteParsers = { [liteTypes.INT8]: (value: string) => value };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.engine === 'postgres') {
    const max = options.poolSize ?? 20;
    const min = Math.min(max, options.minConnections ?? Math.ceil(max / 4));
    // The connections kept open keep their prepared statements (decision 138).
    const pool = new pg.Pool({ connectionString: options.url, max, min });
    // An idle connection the server closed (restart, failover): pg drops it from
    // the pool and the next query opens a new one. Unhandled, it would crash the process.
    pool.on('error', (error) => options.onConnectionError?.(error));
    // The pool listens only while a connection is idle. One checked out (a transaction between two
    // queries) whose server dies emits 'error' with nobody listening, which would end the process:
    // the query running on it fails instead, and its request gets a 5xx the client may retry.
    pool.on('connect', (client) => client.on('error', (error) => options.onConnectionError?.(error)));
    // Hot statements go out as named, prepared statements: parsed and planned once per connection.
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: preparingPool(pool), controlClient: pg.Client }),
      log: slowQueryLog(options.slowQueries),
    });
    await warmPool(pool, min).catch(async (error: unknown) => {
      await pool.end();
      throw error;
    });
    return { db, engine: 'postgres', copyCsv: copyCsvFromPool(pool, db), close: () => db.destroy() };
  }
  const lock = options.dataDir ? lockFolder(options.dataDir) : null;
  let lite: PGlite;
  try {
    lite = await PGlite.create({
      dataDir: options.dataDir ? path.join(options.dataDir, 'pgdata') : undefined,
      loadDataDir: options.template,
      parsers: pgliteParsers,
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = new Kysely<DB>({ dialect: new PGliteDialect(lite), log: slowQueryLog(options.slowQueries) });
  return {
    db,
    engine: 'pglite',
    copyCsv: copyCsvFromPglite(lite, db),
    listen: (channel, callback) => lite.listen(channel, callback),
    // Unlocked only once closed: a close that fails leaves the lock to go stale when this process ends.
    close: async () => {
      if (options.dataDir) await lite.exec('CHECKPOINT');
      await db.destroy();
      lock?.release();
    },
  };
}
