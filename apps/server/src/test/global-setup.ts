import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/index.js';
import { migrateToLatest } from '../db/migrate.js';
import { dumpMigratedPglite } from './database.js';
import { startPostgres, type PostgresServer } from './postgres-server.js';

declare module 'vitest' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    testEngine: 'pglite' | 'postgres';
    /** pglite: a tarball of an already-migrated data folder. */
    pgliteTemplate: string;
    /** postgres: the server's admin URL; tests clone the migrated database florin_template. */
    postgresUrl: string;
  }
}

/**
 * Migrates once per run. PGlite tests start from a dump of the migrated data
 * folder; PostgreSQL tests (FLORIN_TEST_DB=postgres) get a throw-away server
 * whose migrated template database each test clones.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = process.env.FLORIN_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  project.provide('testEngine', engine);

  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'florin-test-'));
  const dump = await dumpMigratedPglite();
  const templateFile = path.join(dir, 'template.tar.gz');
  await fs.writeFile(templateFile, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', templateFile);

  let server: PostgresServer | undefined;
  if (engine === 'postgres') {
    server = await startPostgres();
    const admin = await openDatabase({ engine: 'postgres', url: server.url() });
    await sql`CREATE DATABASE florin_template`.execute(admin.db);
    await admin.close();
    const template = await openDatabase({ engine: 'postgres', url: server.url('florin_template') });
    await migrateToLatest(template.db);
    await template.close();
    project.provide('postgresUrl', server.url());
  } else {
    project.provide('postgresUrl', '');
  }

  return async () => {
    await server?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
