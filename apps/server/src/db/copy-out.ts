import { Readable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import type { Kysely, RawBuilder } from 'kysely';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DB } from './schema.js';

/**
 * A query's rows as PostgreSQL writes them with `COPY (…) TO … (FORMAT csv)`:
 * no header, LF line ends, NULL as an empty cell. Read as the caller reads;
 * destroying the stream ends the COPY and gives its connection back.
 */
export type CsvCopy = (query: RawBuilder<unknown>) => Readable;

/** COPY takes no bind parameters: the query carries its values as literals (sql.lit), which this checks. */
function copyOf(db: Kysely<DB>, query: RawBuilder<unknown>, target: string): string {
  const compiled = query.compile(db);
  if (compiled.parameters.length > 0)
    throw new Error('COPY takes no bind parameters: write the values into the query with sql.lit');
  return `COPY (${compiled.sql}) TO ${target} (FORMAT csv)`;
}

/**
 * A COPY runs in a read-only transaction of its own with JIT off: compiling
 * its expressions took PostgreSQL 70–160 ms a statement on the history
 * export's batches (a first batch of 1,000 rows spent two thirds of its time
 * there), more than the compiled code saved. SET LOCAL ends with the
 * transaction, so the pooled connection keeps its settings.
 */
const COPY_BEGIN = ['BEGIN READ ONLY', 'SET LOCAL jit = off'];

/**
 * PostgreSQL: COPY … TO STDOUT on a connection of its own from the pool,
 * streamed with backpressure (the socket is read only as fast as the caller
 * reads). A COPY left unfinished (the caller went away, or it failed) leaves
 * its connection mid-protocol: the connection is closed, not reused, which
 * also ends the COPY (and its transaction) on the server.
 */
export function copyCsvFromPool(pool: pg.Pool, db: Kysely<DB>): CsvCopy {
  return (query) => {
    const statement = copyOf(db, query, 'STDOUT');
    async function* chunks(): AsyncGenerator<Buffer> {
      const client = await pool.connect();
      let finished = false;
      let copy: ReturnType<typeof copyTo> | undefined;
      try {
        for (const setup of COPY_BEGIN) await client.query(setup);
        copy = client.query(copyTo(statement));
        for await (const chunk of copy) yield chunk as Buffer;
        await client.query('COMMIT');
        finished = true;
      } finally {
        if (!finished) copy?.destroy();
        client.release(finished ? undefined : new Error('COPY not read to the end'));
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  };
}

/** What a PGlite COPY's blob is handed on in: about what a socket would deliver. */
const BLOB_CHUNK = 64 * 1024;

/**
 * PGlite (the embedded dev and test engine) has no COPY … TO STDOUT: the
 * same COPY writes to its /dev/blob device, whole, then read out in chunks.
 * It runs on the dialect's one connection, so no other query (nor another
 * request's transaction) is interleaved with it.
 */
export function copyCsvFromPglite(lite: PGlite, db: Kysely<DB>): CsvCopy {
  return (query) => {
    const statement = copyOf(db, query, `'/dev/blob'`);
    async function* chunks(): AsyncGenerator<Buffer> {
      const blob = await db.connection().execute(async () => {
        for (const setup of COPY_BEGIN) await lite.exec(setup);
        try {
          return (await lite.query(statement)).blob;
        } finally {
          await lite.exec('COMMIT');
        }
      });
      if (!blob) return;
      const bytes = Buffer.from(await blob.arrayBuffer());
      for (let at = 0; at < bytes.length; at += BLOB_CHUNK) yield bytes.subarray(at, at + BLOB_CHUNK);
    }
    return Readable.from(chunks(), { objectMode: false });
  };
}
