import { sql } from 'kysely';
import { inject } from 'vitest';
import { startPostgres } from '../test/postgres-server.js';
import { createTestDatabase } from '../test/database.js';
import { openDatabase, type Database } from './index.js';
import { migrateToLatest } from './migrate.js';

/**
 * A fresh, migrated database on PostgreSQL whatever FLORIN_TEST_DB says, for what only PostgreSQL does
 * (prepared statements, plans): the run's server when it tests PostgreSQL, else a throw-away server of
 * its own, as the backup drill starts. Without PostgreSQL installed it fails (startPostgres says why).
 */
export async function postgresTestDatabase(
  options: { poolSize?: number } = {},
): Promise<Database & { url: string }> {
  if (inject('testEngine') === 'postgres') {
    const database = await createTestDatabase(options);
    if (database.url === undefined) throw new Error('a PostgreSQL test database has a URL');
    return { ...database, url: database.url };
  }
  const server = await startPostgres();
  const admin = await openDatabase({ engine: 'postgres', url: server.url(), poolSize: 1 });
  await sql`CREATE DATABASE florin`.execute(admin.db);
  await admin.close();
  const url = server.url('florin');
  const database = await openDatabase({ engine: 'postgres', url, poolSize: options.poolSize ?? 10 });
  await migrateToLatest(database.db);
  return {
    ...database,
    url,
    close: async () => {
      await database.close();
      await server.stop();
    },
  };
}
