/**
 * The trading benchmark (issue 9). Instant executions through the whole app
 * over real HTTP (POST /api/v1/quotes, then POST /api/v1/order with its
 * quote_id; each client its own customer) at 8 and 32 clients, on a
 * throw-away PostgreSQL server and on embedded PGlite in a data folder,
 * beside pgbench's tpcb-like script on the same PostgreSQL server in the same
 * run, and beside pgbench running the execution's own SQL (execution-script.ts: the floor of that SQL
 * on this server, issue 43), with statements per execution from pg_stat_statements; then 10,000 resting limit orders of 1,000 customers, placed through
 * POST /api/v1/crypto/limit_order, crossed by one tick, timed from the tick
 * until every fill has committed; then a quote for a customer with 100,000
 * trades this year beside one for a customer with none (issue 43; on its own:
 * tier-volume-run.ts). The app runs in its own process
 * (bench/trading/server.ts); the clients and the clock run here. Prints every
 * figure and writes bench/results/trading.md and its summary for the suite,
 * trading.json.
 *
 *   npm run bench:trading   BENCH_TRADING_SECONDS (10 per run), BENCH_TRADING_ORDERS (10,000),
 *                           BENCH_TRADING_ORDER_CUSTOMERS (1,000), BENCH_PGBENCH_SCALE (32),
 *                           BENCH_TRADING_PGLITE_FILLS=1 (also cross resting orders on PGlite),
 *                           BENCH_TRADING_WAIT (180 s at most for the load average to fall below 1.5),
 *                           BENCH_TRADING_CPU_PROFILE=<folder> (the app's process writes V8 CPU profiles there),
 *                           BENCH_TRADING_YEAR_TRADES (100,000: the busy customer's trades this year),
 *                           BENCH_TRADING_ONLY=instant (only the instant executions and their floors on PostgreSQL;
 *                           prints the report, writes no results)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../apps/server/src/db/index.js';
import { startPostgres } from '../../apps/server/src/test/postgres-server.js';
import { loadAverages, log, waitForQuietMachine } from '../support.js';
import { ask, startServer, stopServer, type Check, type Server } from './app-process.js';
import { crossOrders, probesOn, type Fills } from './fills.js';
import { foreignKeysOfAFill, type ForeignKeys } from './foreign-keys.js';
import { measureInstantFloors } from './instant-floor.js';
import { runInstant, type HttpRun } from './instant.js';
import { loadStatementStats } from './own-sql.js';
import { writeReport } from './report.js';
import { measureTierVolume, type TierVolume } from './tier-volume.js';
import {
  CLIENT_COUNTS,
  INSTANT_FUNDING_PENCE,
  LOAD_GOAL,
  LOAD_WAIT_SECONDS,
  ONLY_INSTANT,
  PGLITE_FILLS,
} from './settings.js';
import { preparePostgres } from './setup.js';

const loadBefore = await waitForQuietMachine({ goal: LOAD_GOAL, seconds: LOAD_WAIT_SECONDS, pollMs: 15_000 });
log(`load average before: ${loadAverages()}${ONLY_INSTANT ? '; BENCH_TRADING_ONLY=instant' : ''}`);
const postgres = await startPostgres();
log(`PostgreSQL on port ${postgres.port}`);
await loadStatementStats(postgres);
const admin = await openDatabase({ engine: 'postgres', url: postgres.url('postgres'), poolSize: 1 });
const servers: Server[] = [];
const pgliteDir = mkdtempSync(path.join(os.tmpdir(), 'florin-bench-pglite-'));
try {
  const { postgresCpu, pgSettings, target, foreignKeyMicroseconds } = await preparePostgres(postgres, admin, {
    foreignKeys: !ONLY_INSTANT,
  });

  // ---- PostgreSQL: instant executions beside their floors, then the crossing tick ----
  const pgServer = await startServer('postgres', postgres.url('florin_bench'));
  servers.push(pgServer);
  log(`Florin app (buildApp, PostgreSQL) listening on ${pgServer.url}, pid ${pgServer.pid}`);
  const floors = await measureInstantFloors(pgServer, postgresCpu, target, admin.db, {
    database: 'florin_bench',
    url: postgres.url('florin_bench'),
  });
  const httpRuns: HttpRun[] = [...floors.httpRuns];
  const fills: Fills[] = [];
  let foreignKeys: ForeignKeys | undefined;
  let tierVolume: TierVolume | undefined;
  if (!ONLY_INSTANT) {
    const monitor = await openDatabase({
      engine: 'postgres',
      url: postgres.url('florin_bench'),
      poolSize: 1,
    });
    try {
      fills.push(
        await crossOrders(pgServer, probesOn(monitor, postgresCpu), {
          url: postgres.url('florin_bench'),
          db: monitor.db,
        }),
      );
      foreignKeys = { ...(await foreignKeysOfAFill(monitor.db)), microseconds: foreignKeyMicroseconds };
    } finally {
      await monitor.close();
    }
    // Last on this server: its 100,000 seeded trades would weigh on the figures above.
    tierVolume = await measureTierVolume(pgServer);
  }
  const checks: { engine: string; check: Check }[] = [];
  const pgCheck = await ask(pgServer, { type: 'check' }, 'checked');
  checks.push({ engine: 'PostgreSQL', check: pgCheck });
  log(
    `PostgreSQL: checkLedger ${pgCheck.ok ? 'passed' : `FAILED\n${pgCheck.violations}`} in ${pgCheck.seconds.toFixed(1)} s; ${JSON.stringify(pgCheck.counts)}`,
  );
  await stopServer(pgServer);
  servers.pop();

  // ---- PGlite: the embedded default, in a data folder, in the app's process ----
  let liteVersion = 'not run (BENCH_TRADING_ONLY=instant)';
  if (!ONLY_INSTANT) {
    const liteServer = await startServer('pglite', pgliteDir);
    servers.push(liteServer);
    liteVersion = liteServer.version;
    log(
      `Florin app (buildApp, PGlite in ${pgliteDir}) listening on ${liteServer.url}, pid ${liteServer.pid}`,
    );
    const liteInstant = await ask(
      liteServer,
      { type: 'customers', count: 32, platform: 1, gbpPence: String(INSTANT_FUNDING_PENCE), label: 'i' },
      'customers',
    );
    for (const clients of CLIENT_COUNTS)
      httpRuns.push(await runInstant(liteServer, liteInstant.customers, clients));
    if (PGLITE_FILLS) fills.push(await crossOrders(liteServer));
    const liteCheck = await ask(liteServer, { type: 'check' }, 'checked');
    checks.push({ engine: 'PGlite', check: liteCheck });
    log(
      `PGlite: checkLedger ${liteCheck.ok ? 'passed' : `FAILED\n${liteCheck.violations}`} in ${liteCheck.seconds.toFixed(1)} s; ${JSON.stringify(liteCheck.counts)}`,
    );
    await stopServer(liteServer);
    servers.pop();
  }

  const loadAfter = os.loadavg();
  await writeReport(
    {
      loadBefore,
      loadAfter,
      pgVersion: pgServer.version,
      liteVersion,
      pgSettings,
      httpRuns,
      ownSqlRuns: floors.ownSqlRuns,
      rowsRuns: floors.rowsRuns,
      bareRuns: floors.bareRuns,
      pgbenchRuns: floors.pgbenchRuns,
      appStatements: floors.appStatements,
      fills,
      foreignKeys,
      tierVolume,
      checks,
    },
    { write: !ONLY_INSTANT },
  );
} finally {
  for (const server of servers) await stopServer(server);
  await admin.close();
  await postgres.stop();
  rmSync(pgliteDir, { recursive: true, force: true });
}
