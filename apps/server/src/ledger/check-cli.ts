import { loadConfig } from '../config.js';
import { exitIfFolderInUse } from '../db/folder-lock.js';
import { openDatabase } from '../db/index.js';
import { DOMAIN_CHECKS } from '../ops/domain-checks.js';
import { checkLedger, describeViolations } from './index.js';

/** `npm run ledger:check`: the invariant checker, with every module's domain check, against the configured database, for operators. */
const config = loadConfig();
const database = await openDatabase(
  config.DATABASE_URL
    ? { engine: 'postgres', url: config.DATABASE_URL, poolSize: 2 }
    : { engine: 'pglite', dataDir: config.dataDir },
).catch(exitIfFolderInUse);
const result = await checkLedger(database.db, DOMAIN_CHECKS);
await database.close();
if (result.ok) {
  console.log(`Ledger OK (${database.engine}, checked ${result.checkedAt.toISOString()}).`);
} else {
  console.error(`Ledger check FAILED:\n${describeViolations(result)}`);
  process.exitCode = 1;
}
