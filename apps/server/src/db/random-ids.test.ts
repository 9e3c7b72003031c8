import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.js';
import { createTestUser } from '../test/ledger.js';
import type { Database } from './index.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import { RANDOM_ID_TABLES } from './migrations/0026-random-ids.js';
import type { DB } from './schema.js';

/**
 * Tables that hold a customer's rows but whose numeric ids no customer sends
 * or receives (only the server or the back office names them), so a sequence
 * number there tells no customer anything. A new customer table must be added
 * to RANDOM_ID_TABLES or here, with its reason, or this suite fails.
 */
const SEQUENTIAL_IDS_KEPT: Record<string, string> = {
  sessions: 'a session is its random token',
  login_challenges: 'a challenge is its random token',
  email_tokens: 'a link carries the random token',
  recovery_codes: 'codes are checked by value',
  withdrawal_codes: 'codes are checked by value',
  investor_evidence: 'exported by the back office only',
  sanctions_screenings: 'back office only',
  sanctions_hits: 'back office only',
  mail_outbox: 'the back office names a mail, never a customer',
};

/** Tables with a numeric id and a user_id column: rows that belong to a customer. */
async function customerTables(db: Kysely<DB>): Promise<string[]> {
  const rows = await sql<{ table: string }>`
    SELECT c.table_name AS "table"
    FROM information_schema.columns c
    WHERE c.table_schema = 'public' AND c.column_name = 'id'
      AND c.data_type IN ('integer', 'bigint')
      AND EXISTS (
        SELECT 1 FROM information_schema.columns u
        WHERE u.table_schema = 'public' AND u.table_name = c.table_name AND u.column_name = 'user_id'
      )
    ORDER BY 1`.execute(db);
  return rows.rows.map((row) => row.table);
}

async function tablesWithRandomIds(db: Kysely<DB>): Promise<string[]> {
  const rows = await sql<{ table: string }>`
    SELECT c.relname AS "table" FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE t.tgname = 'random_id' ORDER BY 1`.execute(db);
  return rows.rows.map((row) => row.table);
}

describe('random object ids', () => {
  let database: Database;
  let db: Kysely<DB>;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  afterAll(async () => {
    await database.close();
  });

  it('every table that holds customer rows with numeric ids draws them at random, or says why no customer ever sees its ids', async () => {
    const random = await tablesWithRandomIds(db);
    expect(random).toEqual([...RANDOM_ID_TABLES].sort());
    const customer = await customerTables(db);
    expect(customer.filter((table) => !random.includes(table) && !(table in SEQUENTIAL_IDS_KEPT))).toEqual(
      [],
    );
    // And the list of exceptions names only such tables.
    expect(Object.keys(SEQUENTIAL_IDS_KEPT).filter((table) => !customer.includes(table))).toEqual([]);
  });

  it('gives customers ids that are neither in the order they signed up nor near each other, while seq keeps that order', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 100; i += 1) ids.push(Number(await createTestUser(db)));
    const rows = await db
      .selectFrom('users')
      .select(['id', 'seq'])
      .where('id', 'in', ids)
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => row.id)).toEqual(ids);
    const seqs = rows.map((row) => BigInt(row.seq));
    expect(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]!)).toBe(true);

    const rises = ids.filter((id, i) => i > 0 && id > ids[i - 1]!).length;
    expect(rises).toBeGreaterThan(20);
    expect(rises).toBeLessThan(80);
    // Adjacent sign-ups differ by more than a guesser would try: a sequence differs by 1.
    const closest = Math.min(...ids.slice(1).map((id, i) => Math.abs(id - ids[i]!)));
    expect(closest).toBeGreaterThan(100);
    expect(Math.max(...ids)).toBeGreaterThan(2 ** 30);
    expect(Math.max(...ids)).toBeLessThan(2 ** 31);
    expect(Math.min(...ids)).toBeGreaterThan(0);
  });

  it('keeps an id an insert names, as a restore does', async () => {
    const restored = await sql<{ id: string }>`
      INSERT INTO notifications (id, user_id, event, subject)
      VALUES (7, ${Number(await createTestUser(db))}, 'restore', 'restored') RETURNING id`.execute(db);
    expect(restored.rows[0]?.id).toBe('7');
  });
});

describe('the migration to random ids on a database that already has customers', () => {
  it('leaves every existing id and reference as it was, numbers the rows in their old order, and draws new ids at random', async () => {
    const { db, close } = await createTestDatabase({ unmigrated: true });
    try {
      await migrateUpTo(db, '0025-known-addresses');
      const before = [await createTestUser(db), await createTestUser(db), await createTestUser(db)];
      expect(before).toEqual(['1', '2', '3']);
      await sql`INSERT INTO notifications (user_id, event, subject) VALUES (2, 'login', 'Signed in')`.execute(
        db,
      );

      await migrateToLatest(db);

      const users = await db.selectFrom('users').select(['id', 'seq']).orderBy('seq').execute();
      expect(users).toEqual([
        { id: 1, seq: '1' },
        { id: 2, seq: '2' },
        { id: 3, seq: '3' },
      ]);
      const notification = await db
        .selectFrom('notifications')
        .select(['user_id', 'seq'])
        .executeTakeFirstOrThrow();
      expect(notification).toEqual({ user_id: 2, seq: '1' });

      // The serial columns' old sequences go with their defaults, as the identity columns' do.
      const leftovers = await sql<{ name: string }>`
        SELECT c.relname AS name FROM pg_class c WHERE c.relkind = 'S' AND c.relname IN
          (${sql.join(RANDOM_ID_TABLES.map((table) => `${table}_id_seq`))})`.execute(db);
      expect(leftovers.rows).toEqual([]);

      const after = Number(await createTestUser(db));
      expect(after).toBeGreaterThan(3);
      const newest = await db
        .selectFrom('users')
        .select('seq')
        .where('id', '=', after)
        .executeTakeFirstOrThrow();
      expect(newest.seq).toBe('4');
    } finally {
      await close();
    }
  });
});
