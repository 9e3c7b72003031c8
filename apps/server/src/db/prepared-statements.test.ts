import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './index.js';
import { postgresTestDatabase } from './postgres.test-kit.js';
import { PREPARED_STATEMENT_LIMITS } from './prepared-statements.js';
import type { DB } from './schema.js';

// One connection, so every statement of a test meets the statements the ones before it prepared.
let database: Database & { url: string };
beforeAll(async () => {
  database = await postgresTestDatabase({ poolSize: 1 });
});
afterAll(async () => {
  await database.close();
});

type Prepared = { statement: string; executions: number };

/** The named statements of the pool's one connection, with how often each ran (PostgreSQL 14+ counts plans). */
async function preparedOn(db: Kysely<DB>): Promise<Prepared[]> {
  const { rows } = await sql<Prepared>`
    SELECT statement, (generic_plans + custom_plans)::int AS executions
    FROM pg_prepared_statements WHERE from_sql = false`.execute(db);
  return rows;
}

function sessionRead(db: Kysely<DB>, tokenHash: string) {
  return db.selectFrom('sessions').select(['user_id', 'expires_at']).where('token_hash', '=', tokenHash);
}

describe('prepared statements on PostgreSQL (decision 138)', () => {
  it('prepares a statement with parameters once per connection and runs it again by name', async () => {
    const { db } = database;
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await sessionRead(db, id).execute();
    const text = sessionRead(db, 'a').compile().sql;
    expect((await preparedOn(db)).filter((prepared) => prepared.statement === text)).toEqual([
      { statement: text, executions: 7 },
    ]);
  });

  it('leaves unnamed a statement wider or longer than the bounds, and one without parameters', async () => {
    const { db } = database;
    const ids = Array.from(
      { length: PREPARED_STATEMENT_LIMITS.maxParameters + 1 },
      (_, index) => `id-${index}`,
    );
    const wide = db.selectFrom('sessions').select('user_id').where('token_hash', 'in', ids);
    await wide.execute();
    const padding = sql.raw(`/* ${'x'.repeat(PREPARED_STATEMENT_LIMITS.maxTextLength)} */`);
    const long = sql<{ one: number }>`SELECT ${1}::int AS one ${padding}`;
    expect((await long.execute(db)).rows).toEqual([{ one: 1 }]);
    const bare = sql<{ two: number }>`SELECT 2 AS two`;
    await bare.execute(db);
    const narrow = db.selectFrom('sessions').select('user_id').where('token_hash', 'in', ['x', 'y']);
    await narrow.execute();

    const statements = (await preparedOn(db)).map((prepared) => prepared.statement);
    expect(statements).not.toContain(wide.compile().sql);
    expect(statements).not.toContain(long.compile(db).sql);
    expect(statements).not.toContain(bare.compile(db).sql);
    // The control: the same query within the bounds is prepared.
    expect(statements).toContain(narrow.compile().sql);
  });

  it('prepares a statement again after its first Parse failed in an aborted transaction', async () => {
    const { db } = database;
    // A text no test ran before.
    const lastSeen = (on: Kysely<DB>) =>
      on.selectFrom('sessions').select('last_seen_at').where('token_hash', '=', 'after-abort');
    const read = lastSeen(db);
    const failed = db.transaction().execute(async (trx) => {
      await expect(sql`SELECT 1 / ${0}::int`.execute(trx)).rejects.toThrow(/division by zero/);
      // Its first Parse meets the aborted transaction: pg must not count it as prepared.
      await lastSeen(trx).execute();
    });
    await expect(failed).rejects.toThrow(/current transaction is aborted/);

    expect(await read.execute()).toEqual([]);
    expect(await read.execute()).toEqual([]);
    const prepared = (await preparedOn(db)).filter((statement) => statement.statement === read.compile().sql);
    expect(prepared).toEqual([{ statement: read.compile().sql, executions: 2 }]);
  });

  it('replaces a connection whose statement a migration made stale', async () => {
    const { db } = database;
    await sql`CREATE TABLE prepared_probe (id int PRIMARY KEY)`.execute(db);
    await sql`INSERT INTO prepared_probe VALUES (1)`.execute(db);
    const read = () =>
      sql<Record<string, number | null>>`SELECT * FROM prepared_probe WHERE id = ${1}`.execute(db);
    expect((await read()).rows).toEqual([{ id: 1 }]);
    const before = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);

    await sql`ALTER TABLE prepared_probe ADD COLUMN extra int`.execute(db);
    // PostgreSQL refuses the prepared statement once its columns changed; the connection goes with it.
    await expect(read()).rejects.toThrow(/cached plan must not change result type/);
    expect((await read()).rows).toEqual([{ id: 1, extra: null }]);
    const after = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);
    expect(after.rows[0]?.pid).not.toBe(before.rows[0]?.pid);
  });

  it('prepares its statements again on the connection that replaces a lost one', async () => {
    let lost: (error: Error) => void = () => undefined;
    const connectionLost = new Promise<Error>((resolve) => (lost = resolve));
    const own = await openDatabase({
      engine: 'postgres',
      url: database.url,
      poolSize: 1,
      onConnectionError: lost,
    });
    try {
      const read = sessionRead(own.db, 'after-loss');
      await read.execute();
      const pid = async () =>
        (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(own.db)).rows[0]?.pid;
      const before = await pid();
      await sql`SELECT pg_terminate_backend(${before}::int)`.execute(database.db);
      expect((await connectionLost).message).toMatch(/terminat/);

      expect(await read.execute()).toEqual([]);
      expect(await pid()).not.toBe(before);
      const prepared = (await preparedOn(own.db)).filter(
        (statement) => statement.statement === read.compile().sql,
      );
      expect(prepared).toEqual([{ statement: read.compile().sql, executions: 1 }]);
    } finally {
      await own.close();
    }
  });

  it('opens the pool’s minimum connections at start', async () => {
    const clients = () =>
      sql<{ count: number }>`
        SELECT count(*)::int AS count FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend'`.execute(database.db);
    const before = (await clients()).rows[0]?.count ?? 0;
    const warmed = await openDatabase({
      engine: 'postgres',
      url: database.url,
      poolSize: 8,
      minConnections: 3,
    });
    try {
      expect((await clients()).rows[0]?.count).toBe(before + 3);
    } finally {
      await warmed.close();
    }
  });
});
