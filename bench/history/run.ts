/**
 * The history benchmark (issue 6): one customer with 1,000,000 transactions
 * on a throw-away PostgreSQL server; pages of their history (the first, a
 * deep one, a filtered one) and the full `Crypto History.csv` export through
 * the whole app over real HTTP on loopback, beside PostgreSQL's own
 * `COPY (SELECT … the same rows) TO STDOUT (FORMAT csv)` in the same run.
 * The app runs in its own process (bench/history/server.ts) so its memory is
 * measured alone; the clients and the clock run here. Prints every figure and
 * writes bench/results/history.md and its summary for the suite, history.json.
 *
 *   npm run bench:history   BENCH_HISTORY_TRANSACTIONS (1,000,000), BENCH_HISTORY_REQUESTS (100 per page),
 *                           BENCH_HISTORY_DEEP_REQUESTS (20), BENCH_HISTORY_DEEP_PAGE (50,000),
 *                           BENCH_HISTORY_ROUNDS (2 exports and 2 COPYs, taking turns)
 */
import os from 'node:os';
import { openDatabase } from '../../apps/server/src/db/index.js';
import { startPostgres } from '../../apps/server/src/test/postgres-server.js';
import { startServer, stopServer, type Server } from './app-process.js';
import { describeExport, measureExport, runRounds } from './export.js';
import { closePageConnection, measurePage, timeRepository, type PageResult } from './pages.js';
import { writeReport } from './report.js';
import { prepareDatabase } from './setup.js';
import { DEEP_PAGE, DEEP_REQUESTS, LIVE_EVERY_MS, log, REQUESTS } from './settings.js';

const loadBefore = os.loadavg();
log(`load average before: ${loadBefore.map((value) => value.toFixed(2)).join(', ')}`);
const postgres = await startPostgres();
log(`PostgreSQL on port ${postgres.port}`);
const databaseUrl = postgres.url();
const database = await openDatabase({ engine: 'postgres', url: databaseUrl, poolSize: 4 });
let server: Server | undefined;
try {
  const prepared = await prepareDatabase(database, databaseUrl);
  const { postmaster, seeded, cookie } = prepared;
  server = await startServer(databaseUrl);
  log(`Florin app (buildApp) listening on ${server.url}, pid ${server.pid}`);

  const pages: PageResult[] = [];
  pages.push(await measurePage('first', server.url, 'page=1', cookie, REQUESTS));
  pages.push(await measurePage('filtered (buy)', server.url, 'page=1&filter[]=buy', cookie, REQUESTS));
  pages.push(
    await measurePage(
      `deep (${DEEP_PAGE.toLocaleString('en-GB')})`,
      server.url,
      `page=${DEEP_PAGE}`,
      cookie,
      DEEP_REQUESTS,
    ),
  );

  const queryTimings = await timeRepository(database.db, seeded.userId, [
    { name: 'first page', page: 1, filters: [] },
    { name: 'filtered (buy)', page: 1, filters: ['buy'] },
    { name: `page ${DEEP_PAGE}`, page: DEEP_PAGE, filters: [] },
  ]);

  const rounds = await runRounds(database.db, server, cookie, databaseUrl, seeded.userId, postmaster);

  // Is the heap growth held, or garbage V8 has not collected yet? One more export, not counted above, with
  // the server forcing a full GC every LIVE_EVERY_MS and noting what survives it.
  log(`diagnostic: one more export, the server forcing a full GC every ${LIVE_EVERY_MS} ms`);
  const diagnostic = await measureExport(server, cookie, postmaster, LIVE_EVERY_MS);
  log(describeExport('diagnostic', diagnostic));

  const { postmaster: _postmaster, cookie: _cookie, ...setup } = prepared;
  await writeReport({ ...setup, loadBefore, pages, queryTimings, rounds, diagnostic });
} finally {
  if (server) await stopServer(server);
  closePageConnection();
  await database.close();
  await postgres.stop();
}
