import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/index.js';
import { migrateToLatest } from '../db/migrate.js';
import type { DB } from '../db/schema.js';

/** A migrated in-memory PGlite, dumped so each test file can start from it in half a second. */
export async function dumpMigratedPglite(): Promise<Blob> {
  const lite = await PGlite.create();
  const db = new Kysely<DB>({ dialect: new PGliteDialect(lite) });
  await migrateToLatest(db);
  const dump = await lite.dumpDataDir('gzip');
  await db.destroy();
  return dump;
}

/**
 * A fresh, migrated database on the engine this run tests: in-memory PGlite
 * by default, or a new database on the throw-away PostgreSQL server when
 * FLORIN_TEST_DB=postgres. close() drops it. `unmigrated` leaves it empty,
 * for a test that migrates it step by step.
 */
export async function createTestDatabase(
  options: { poolSize?: number; unmigrated?: boolean } = {},
): Promise<Database & { url?: string }> {
  if (inject('testEngine') === 'postgres') {
    const adminUrl = inject('postgresUrl');
    const name = `test_${randomBytes(6).toString('hex')}`;
    const admin = await openDatabase({ engine: 'postgres', url: adminUrl, poolSize: 1 });
    const template = options.unmigrated ? 'template0' : 'florin_template';
    await sql`CREATE DATABASE ${sql.id(name)} TEMPLATE ${sql.id(template)}`.execute(admin.db);
    const database = await openDatabase({
      engine: 'postgres',
      url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
      poolSize: options.poolSize ?? 10,
    });
    return {
      ...database,
      url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
      close: async () => {
        await database.close();
        await sql`DROP DATABASE ${sql.id(name)} WITH (FORCE)`.execute(admin.db);
        await admin.close();
      },
    };
  }
  if (options.unmigrated) return openDatabase({ engine: 'pglite' });
  return openDatabase({ engine: 'pglite', template: await pgliteTemplate() });
}

/** The migrated PGlite folder global-setup dumped, to start a PGlite from. */
export async function pgliteTemplate(): Promise<Blob> {
  return new Blob([await fs.readFile(inject('pgliteTemplate'))]);
}
