import { createStorageFromConfig } from '../adapters/storage/index.js';
import { loadConfig } from '../config.js';
import { exitIfFolderInUse } from '../db/folder-lock.js';
import { openDatabase } from '../db/index.js';
import { checkRestore, describeRestoreCheck } from './restore-check.js';

/**
 * After a restore (scripts/restore.sh runs it), before anyone is let in: the
 * configured database passes the ledger check with every domain check, and
 * every document's stored file matches its recorded SHA-256. Exit code 1 if not.
 */
const config = loadConfig();
const database = await openDatabase(
  config.DATABASE_URL
    ? { engine: 'postgres', url: config.DATABASE_URL, poolSize: 2 }
    : { engine: 'pglite', dataDir: config.dataDir },
).catch(exitIfFolderInUse);
try {
  const result = await checkRestore(database.db, createStorageFromConfig(config));
  const report = `${describeRestoreCheck(result)}\n(${database.engine}, checked ${result.ledger.checkedAt.toISOString()})`;
  if (result.ok) console.log(report);
  else {
    console.error(`Restore check FAILED: do not serve from this copy.\n${report}`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
