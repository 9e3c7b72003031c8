import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.js';
import type { Database } from './index.js';

/**
 * A COPY streamed to a client that stops reading (a download cancelled half
 * way) must not keep its connection: with a pool of one, the next query
 * would otherwise wait for ever.
 */
describe('COPY … (FORMAT csv) streamed out of the database', () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 1 });
  });
  afterAll(async () => {
    await database.close();
  });

  const many = sql`SELECT n, repeat('x', 100) FROM generate_series(1, 300000) AS n ORDER BY n`;

  it('writes every row, LF-ended, NULL as an empty cell', async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of database.copyCsv(
      sql`SELECT * FROM (VALUES (1, 'a,b', NULL), (2, '', 'c')) AS v`,
    ))
      chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('1,"a,b",\n2,"",c\n');
  });

  it('gives its connection back when the reader goes away mid-COPY, so the pool still serves', async () => {
    const stream = database.copyCsv(many);
    let read = 0;
    for await (const chunk of stream) {
      read += (chunk as Buffer).length;
      break;
    }
    expect(read).toBeGreaterThan(0);
    expect(stream.destroyed).toBe(true);

    const answer = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
    expect(answer.rows).toEqual([{ one: 1 }]);
    let lines = 0;
    for await (const chunk of database.copyCsv(many))
      for (let at = (chunk as Buffer).indexOf(10); at !== -1; at = (chunk as Buffer).indexOf(10, at + 1))
        lines += 1;
    expect(lines).toBe(300000);
  });

  it('runs its COPY read-only with JIT off, and the connection keeps its own settings', async () => {
    const chunks: Buffer[] = [];
    const setting = sql`SELECT current_setting('jit'), current_setting('transaction_read_only')`;
    for await (const chunk of database.copyCsv(setting)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('off,on\n');
    // The pool has one connection: the one the COPY used, its transaction over.
    const after = await sql<{ jit: string; readOnly: string }>`
      SELECT current_setting('jit') AS jit, current_setting('transaction_read_only') AS "readOnly"`.execute(
      database.db,
    );
    expect(after.rows).toEqual([{ jit: 'on', readOnly: 'off' }]);
  });
});
