/**
 * The scale benchmark (issue 14). The instant-trade workload of the trading
 * benchmark (POST /api/v1/quotes, then POST /api/v1/order with its quote_id;
 * each client its own customer on its own keep-alive connection) against the
 * real entry point, main.ts, on one throw-away PostgreSQL server, in one run:
 *
 *   1. one instance, the clients connected to it directly;
 *   2. the same instance behind Debian's nginx (what the balancer costs);
 *   3. two instances behind nginx (round robin).
 *
 * Both instances run throughout (the second idle in setups 1 and 2); rounds
 * interleave the setups so other work on the shared machine weighs on each
 * alike. Prints throughput, p50 and p99 of each and the ratio two ÷ one, and
 * writes bench/results/scale.md and its summary for the suite, scale.json.
 *
 *   npm run bench:scale   BENCH_SCALE_SECONDS (5 per stretch), BENCH_SCALE_ROUNDS (2),
 *                         BENCH_SCALE_CLIENTS (8,32), BENCH_SCALE_WAIT (30 s at most for the
 *                         load average to fall below 1.5)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../apps/server/src/db/index.js';
import { checkLedger, describeViolations } from '../../apps/server/src/ledger/index.js';
import { tradingDomainCheck } from '../../apps/server/src/modules/trading/service.js';
import { startMain, type MainProcess } from '../../apps/server/src/test/main-process.js';
import { startNginx, type Nginx } from '../../apps/server/src/test/nginx.js';
import { freePort, startPostgres } from '../../apps/server/src/test/postgres-server.js';
import { findPostmaster, serverCpuSeconds } from '../ledger/probes.js';
import { loadAverages, log, waitForQuietMachine } from '../support.js';
import { makeCustomers } from './customers.js';
import { runRounds, warmUp, type Setup } from './load.js';
import { writeReport } from './report.js';
import { CLIENT_COUNTS, LOAD_GOAL, LOAD_WAIT_SECONDS } from './settings.js';

const loadBefore = await waitForQuietMachine({ goal: LOAD_GOAL, seconds: LOAD_WAIT_SECONDS, pollMs: 10_000 });
log(`load average before: ${loadAverages()}`);
const postgres = await startPostgres();
log(`PostgreSQL on port ${postgres.port}`);
const admin = await openDatabase({ engine: 'postgres', url: postgres.url('postgres'), poolSize: 1 });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'florin-bench-scale-'));
const instances: MainProcess[] = [];
const balancers: Nginx[] = [];
let own: Database | undefined;
try {
  await sql`CREATE DATABASE florin_scale`.execute(admin.db);
  const postmaster = await findPostmaster(admin.db);
  const postgresCpu = () => serverCpuSeconds(postmaster);
  const pgVersion =
    (await sql<{ version: string }>`SELECT version()`.execute(admin.db)).rows[0]?.version ?? 'PostgreSQL';
  const env = {
    // Production mode requires SMTP_URL (and an https PUBLIC_URL): every trade's mail would then be an SMTP
    // conversation the benchmark measured too. Development differs only in the dev routes, the dev mailbox
    // (each mail one insert, as bench/trading writes it) and the Secure/HSTS flags.
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: postgres.url('florin_scale'),
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ADMIN_PASSWORD: 'bench-scale-Admin-Password',
    // Every client of the benchmark comes from 127.0.0.1.
    RATE_LIMIT_PER_MINUTE: '100000000',
    PRICE_SEED: 'bench-scale',
  };

  // The first instance migrates the empty database and becomes the leader; the second follows it.
  const first = await startMain({ port: await freePort(), env });
  instances.push(first);
  log(`instance 1 (main.ts) on ${first.address}, pid ${first.child.pid}`);
  const second = await startMain({ port: await freePort(), env });
  instances.push(second);
  log(`instance 2 on ${second.address}, pid ${second.child.pid}`);
  own = await openDatabase({ engine: 'postgres', url: postgres.url('florin_scale'), poolSize: 2 });
  const maxClients = Math.max(...CLIENT_COUNTS);
  const customers = await makeCustomers(own, maxClients, dataDir);
  log(`${customers.length} customers made`);
  const nginxOne = await startNginx({ upstreams: [first.address] });
  const nginxTwo = await startNginx({ upstreams: [first.address, second.address] });
  balancers.push(nginxOne, nginxTwo);

  const setups: Setup[] = [
    { label: 'one instance, direct', url: first.url, instances: [first], nginx: null },
    { label: 'one instance behind nginx', url: nginxOne.url, instances: [first], nginx: nginxOne },
    { label: 'two instances behind nginx', url: nginxTwo.url, instances: [first, second], nginx: nginxTwo },
  ];
  await warmUp([first, second], customers, postgresCpu);
  const runs = await runRounds(setups, customers, postgresCpu);

  const checkStarted = performance.now();
  const check = await checkLedger(own.db, [tradingDomainCheck]);
  const checkSeconds = (performance.now() - checkStarted) / 1000;
  log(
    `checkLedger ${check.ok ? 'passed' : `FAILED\n${describeViolations(check)}`} in ${checkSeconds.toFixed(1)} s`,
  );

  await writeReport({
    loadBefore,
    loadAfter: os.loadavg(),
    pgVersion,
    runs,
    ledger: { ok: check.ok, violations: describeViolations(check), seconds: checkSeconds },
  });
} finally {
  for (const balancer of balancers) await balancer.stop();
  for (const instance of instances) await instance.stop('SIGTERM');
  await own?.close();
  await admin.close();
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
