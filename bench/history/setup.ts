/**
 * The database the history benchmark measures: migrated, one customer's history seeded set-based
 * (seed.ts), the ledger checked, and a session for the customer as a sign-in leaves it.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { systemClock } from '../../apps/server/src/clock.js';
import type { Database } from '../../apps/server/src/db/index.js';
import { migrateToLatest } from '../../apps/server/src/db/migrate.js';
import { checkLedger, describeViolations } from '../../apps/server/src/ledger/index.js';
import { createSessionStore } from '../../apps/server/src/modules/auth/sessions.js';
import { findPostmaster } from '../ledger/probes.js';
import { seedHistory, type Seeded } from './seed.js';
import { log, TRANSACTIONS } from './settings.js';

export type Prepared = Awaited<ReturnType<typeof prepareDatabase>>;

export async function prepareDatabase(database: Database, databaseUrl: string) {
  await migrateToLatest(database.db);
  const postmaster = await findPostmaster(database.db);
  const pgVersion = (await sql<{ version: string }>`SELECT version()`.execute(database.db)).rows[0]?.version;

  const seedClient = new pg.Client({ connectionString: databaseUrl });
  await seedClient.connect();
  const seedStarted = performance.now();
  const seeded: Seeded = await seedHistory(seedClient, TRANSACTIONS, log);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  await seedClient.end();
  const counts = (
    await sql<{ journals: string; entries: string; mine: string; size: string }>`
      SELECT (SELECT count(*) FROM journals)::text AS journals, (SELECT count(*) FROM entries)::text AS entries,
        (SELECT count(*) FROM entries e JOIN accounts a ON a.id = e.account_id WHERE a.owner_user_id = ${seeded.userId})::text AS mine,
        pg_size_pretty(pg_database_size(current_database())) AS size`.execute(database.db)
  ).rows[0]!;
  log(
    `seeded in ${seedSeconds.toFixed(1)} s: ${counts.journals} journals, ${counts.entries} entries ` +
      `(${counts.mine} of them the customer's), database ${counts.size}`,
  );
  const checkStarted = performance.now();
  const check = await checkLedger(database.db);
  const checkSeconds = (performance.now() - checkStarted) / 1000;
  log(
    `checkLedger ${check.ok ? 'passed' : `FAILED\n${describeViolations(check)}`} in ${checkSeconds.toFixed(1)} s`,
  );
  const balances = await database.db
    .selectFrom('accounts')
    .select(['asset', sql<string>`posted::text`.as('posted')])
    .where('owner_user_id', '=', String(seeded.userId))
    .orderBy('asset')
    .execute();
  log(`customer balances (minor units): ${balances.map((row) => `${row.asset} ${row.posted}`).join(', ')}`);

  const session = await createSessionStore(database.db, systemClock).create(seeded.userId, {
    ip: '127.0.0.1',
  });
  const cookie = `access_token=${session.token}`;
  return { postmaster, pgVersion, seeded, seedSeconds, counts, check, checkSeconds, cookie };
}
