/**
 * The throw-away PostgreSQL server made ready: the app's database and pgbench's, pgbench's tables, and
 * what one foreign-key check costs there.
 */
import { sql } from 'kysely';
import type { Database } from '../../apps/server/src/db/index.js';
import type { PostgresServer } from '../../apps/server/src/test/postgres-server.js';
import { pgbenchInit, type PgbenchTarget } from '../ledger/pgbench.js';
import { findPostmaster, serverCpuSeconds } from '../ledger/probes.js';
import { log } from '../support.js';
import { foreignKeyCheckMicroseconds } from './foreign-keys.js';
import { PGBENCH_SCALE } from './settings.js';

/**
 * `admin` is a connection to the server's own `postgres` database, where pg_stat_statements is read (it has
 * the extension: own-sql.ts's loadStatementStats).
 */
export async function preparePostgres(
  postgres: PostgresServer,
  admin: Database,
  options: { foreignKeys: boolean },
) {
  await sql`CREATE DATABASE florin_bench`.execute(admin.db);
  await sql`CREATE DATABASE pgbench_db`.execute(admin.db);
  const postmaster = await findPostmaster(admin.db);
  const postgresCpu = () => serverCpuSeconds(postmaster);
  const settings = await sql<{ name: string; setting: string; unit: string | null }>`
    SELECT name, setting, unit FROM pg_settings
    WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'shared_buffers', 'max_connections')
    ORDER BY name`.execute(admin.db);
  const pgSettings = settings.rows
    .map((row) => `${row.name}=${row.unit === '8kB' ? `${(Number(row.setting) * 8) / 1024}MB` : row.setting}`)
    .join(', ');

  const target: PgbenchTarget = { bin: postgres.bin, port: postgres.port, database: 'pgbench_db' };
  const pgbenchInitSeconds = await pgbenchInit(target, PGBENCH_SCALE);
  log(`pgbench -i -s ${PGBENCH_SCALE} took ${pgbenchInitSeconds.toFixed(1)} s`);
  const foreignKeyMicroseconds = options.foreignKeys
    ? await foreignKeyCheckMicroseconds(admin.db)
    : Number.NaN;
  if (options.foreignKeys) log(`one foreign-key check: ${foreignKeyMicroseconds.toFixed(1)} µs`);
  return { postgresCpu, pgSettings, target, foreignKeyMicroseconds };
}
