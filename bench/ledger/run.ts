/**
 * The ledger benchmark (issue 2): journals per second through the ledger for
 * 2-leg transfers and 5-leg trades at 8 and 32 clients, on a throw-away
 * PostgreSQL server and on in-memory PGlite, beside pgbench's tpcb-like
 * script on the same server. Prints every figure and writes
 * bench/results/ledger.md and its summary for the suite, ledger.json.
 *
 *   npm run bench:ledger   BENCH_SECONDS (default 10) per run, BENCH_PGBENCH_SCALE (default 32)
 */
import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from '../../apps/server/src/db/index.js';
import { migrateToLatest } from '../../apps/server/src/db/migrate.js';
import type { DB } from '../../apps/server/src/db/schema.js';
import {
  checkLedger,
  createLedger,
  describeViolations,
  rollUpHouseBalances,
} from '../../apps/server/src/ledger/index.js';
import { startPostgres, type PostgresServer } from '../../apps/server/src/test/postgres-server.js';
import { pgbenchInit, pgbenchRun, type PgbenchTarget } from './pgbench.js';
import { createPrototypeLedger } from './prototype.js';
import { countStatements, findPostmaster, sampleWaits, serverCpuSeconds } from './probes.js';
import {
  cpuFigures,
  goal,
  isPgbench,
  machineInfo,
  pgbenchOf,
  ratioOf,
  renderMarkdown,
  resultsTable,
  type Engine,
  type Integrity,
  type Report,
  type Row,
} from './report.js';
import { runClients, seed, workloads, type PostJournal, type Workload } from './workloads.js';
import { positiveNumber, textSetting, writeResult, writeSummary, type Comparison } from '../support.js';

const SECONDS = positiveNumber('BENCH_SECONDS', 10);
const CLIENT_COUNTS = [8, 32];
/** Scale ≥ the most clients, so pgbench's branch rows are not its bottleneck. */
const PGBENCH_SCALE = Math.round(positiveNumber('BENCH_PGBENCH_SCALE', Math.max(...CLIENT_COUNTS)));
const PGBENCH_THREADS = 2;
/**
 * BENCH_LEDGER=prototype (one SQL statement per journal) or prototype-function
 * (the same statement inside a PL/pgSQL function, planned once per connection)
 * measures bench/ledger/prototype.ts instead of the app's ledger, into its own file.
 */
const LEDGER_SETTING = textSetting('BENCH_LEDGER');
const PROTOTYPE = ({ prototype: 'statement', 'prototype-function': 'function' } as const)[
  LEDGER_SETTING ?? ''
];
if (LEDGER_SETTING && !PROTOTYPE) {
  throw new Error(`BENCH_LEDGER must be prototype or prototype-function, not "${LEDGER_SETTING}"`);
}
/** The report's and the summary's name in the results folder. */
const NAME = PROTOTYPE ? `ledger-${LEDGER_SETTING}` : 'ledger';

const ledger = (): PostJournal => {
  const instance = PROTOTYPE ? createPrototypeLedger(PROTOTYPE) : createLedger();
  return (db, input) => instance.postJournal(db, input);
};

const startedAt = performance.now();
const log = (message: string) =>
  console.log(`[bench ${((performance.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${message}`);

/** Opens every connection of the pool before the clock starts (pgbench excludes connection time too). */
async function warmPool(db: Kysely<DB>, connections: number): Promise<void> {
  await Promise.all(Array.from({ length: connections }, () => sql`SELECT pg_sleep(0.02)`.execute(db)));
}

async function storedCounts(db: Kysely<DB>, prefix: string) {
  const result = await sql<{ journals: string; entries: string }>`
    SELECT count(DISTINCT j.id)::text AS journals, count(e.id)::text AS entries
    FROM journals j LEFT JOIN entries e ON e.journal_id = j.id
    WHERE starts_with(j.idempotency_key, ${prefix})`.execute(db);
  const row = result.rows[0];
  return { journals: Number(row?.journals ?? 0), entries: Number(row?.entries ?? 0) };
}

async function runWorkload(
  engine: Engine,
  post: PostJournal,
  db: Kysely<DB>,
  workload: Workload,
  clients: number,
  serverCpu?: () => number,
): Promise<Row> {
  const prefix = `bench:${engine === 'PostgreSQL' ? 'pg' : 'lite'}:${workload.name}:${clients}:`;
  const result = await runClients(
    clients,
    SECONDS,
    (client, seq) => post(db, workload.journal(`${prefix}${client}:${seq}`)),
    serverCpu,
  );
  return { engine, workload: workload.name, legs: workload.legs, clients, result };
}

function printRow(row: Row): void {
  const { result } = row;
  const cpu = cpuFigures(row);
  const errors = Object.keys(result.errors).length
    ? `, errors ${JSON.stringify(result.errors)}: ${result.firstError ?? ''}`
    : '';
  log(
    `${row.engine} ${row.workload} ×${row.clients}: ${result.perSecond.toFixed(0)}/s ` +
      `(${result.journals} in ${result.seconds.toFixed(1)} s, p50 ${result.p50.toFixed(2)} ms, ` +
      `p99 ${result.p99.toFixed(2)} ms; CPU ms/journal client ${cpu.clientMs.toFixed(2)}, ` +
      `server ${cpu.serverMs.toFixed(2)}; machine busy ${cpu.busy.toFixed(2)} cores, others ${cpu.others.toFixed(2)}${errors})`,
  );
}

async function integrity(engine: Engine, db: Kysely<DB>, rows: Row[]): Promise<Integrity> {
  const pending = await sql<{
    count: string;
  }>`SELECT count(*)::text AS count FROM house_balance_deltas`.execute(db);
  const started = performance.now();
  await rollUpHouseBalances(db);
  const rollUpSeconds = (performance.now() - started) / 1000;
  const check = await checkLedger(db);
  const countsMatch = rows.every(
    (row) =>
      row.stored !== undefined &&
      row.stored.journals === row.result.journals &&
      row.stored.entries === row.result.journals * (row.legs ?? 0),
  );
  const item: Integrity = {
    engine,
    deltasRolledUp: Number(pending.rows[0]?.count ?? 0),
    rollUpSeconds,
    checkOk: check.ok,
    violations: describeViolations(check),
    countsMatch,
  };
  log(
    `${engine}: rolled up ${item.deltasRolledUp} house deltas in ${rollUpSeconds.toFixed(2)} s; ` +
      `checkLedger ${check.ok ? 'passed' : `FAILED\n${item.violations}`}; ` +
      `database counts ${countsMatch ? 'match' : 'DO NOT match'} the clients'`,
  );
  for (const row of rows) {
    log(
      `  ${row.workload} ×${row.clients}: clients counted ${row.result.journals}, database has ` +
        `${row.stored?.journals} journals / ${row.stored?.entries} entries (expected ${row.result.journals * (row.legs ?? 0)})`,
    );
  }
  return item;
}

async function benchPostgres(report: Report, server: PostgresServer, opened: Database[]): Promise<void> {
  const open = async (database: string, poolSize: number) => {
    const handle = await openDatabase({ engine: 'postgres', url: server.url(database), poolSize });
    opened.push(handle);
    return handle;
  };
  const admin = await open('postgres', 1);
  const postmaster = await findPostmaster(admin.db);
  const serverCpu = () => serverCpuSeconds(postmaster);
  await sql`CREATE DATABASE florin_bench`.execute(admin.db);
  await sql`CREATE DATABASE pgbench_db`.execute(admin.db);
  const version = await sql<{ version: string }>`SELECT version()`.execute(admin.db);
  report.postgresVersion = version.rows[0]?.version ?? 'PostgreSQL (unknown version)';
  const settings = await sql<{ name: string; setting: string; unit: string | null }>`
    SELECT name, setting, unit FROM pg_settings
    WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'shared_buffers', 'max_connections',
                   'default_transaction_isolation', 'wal_level', 'jit')
    ORDER BY name`.execute(admin.db);
  report.postgresSettings = settings.rows.map((row) => [
    row.name,
    row.unit === '8kB' ? `${(Number(row.setting) * 8) / 1024}MB` : row.setting,
  ]);

  const post = ledger();
  const setup = await openDatabase({ engine: 'postgres', url: server.url('florin_bench'), poolSize: 16 });
  const seeded = await (async () => {
    try {
      await migrateToLatest(setup.db);
      return await seed(post, setup.db, 16);
    } finally {
      await setup.close();
    }
  })();
  // One connection for the sampler, the counts and the check, so only the clients' connections show in the samples.
  const bench = await open('florin_bench', 1);
  report.seeding.push({ engine: 'PostgreSQL', journals: seeded.journals, seconds: seeded.seconds });
  log(`PostgreSQL: migrated and seeded ${seeded.journals} journals in ${seeded.seconds.toFixed(1)} s`);
  const benchWorkloads = workloads(seeded.users);
  for (const workload of benchWorkloads) {
    const count = await countStatements(server.url('florin_bench'), post, workload, 200);
    report.statements.push({ workload: `${workload.name} (${workload.legs} legs)`, count });
    log(
      `${workload.name}: ${count.perJournal.toFixed(1)} statements per journal ${JSON.stringify(count.breakdown)}`,
    );
  }

  const target: PgbenchTarget = { bin: server.bin, port: server.port, database: 'pgbench_db' };
  report.pgbench.initSeconds = await pgbenchInit(target, PGBENCH_SCALE);
  log(`pgbench -i -s ${PGBENCH_SCALE} took ${report.pgbench.initSeconds.toFixed(1)} s`);
  const pgbenchMonitor = await open('pgbench_db', 1);

  const rows: Row[] = [];
  for (const clients of CLIENT_COUNTS) {
    const stopPgbench = sampleWaits(pgbenchMonitor.db, 'pgbench_db');
    const result = await pgbenchRun(target, clients, PGBENCH_THREADS, Math.round(SECONDS), serverCpu);
    const base: Row = {
      engine: 'PostgreSQL',
      workload: `pgbench tpcb-like, scale ${PGBENCH_SCALE}`,
      legs: null,
      clients,
      result,
      waits: await stopPgbench(),
    };
    report.rows.push(base);
    printRow(base);

    for (const workload of benchWorkloads) {
      const pool = await openDatabase({
        engine: 'postgres',
        url: server.url('florin_bench'),
        poolSize: clients,
      });
      try {
        await warmPool(pool.db, clients);
        const stop = sampleWaits(bench.db, 'florin_bench');
        const row = await runWorkload('PostgreSQL', post, pool.db, workload, clients, serverCpu);
        row.waits = await stop();
        row.stored = await storedCounts(bench.db, `bench:pg:${workload.name}:${clients}:`);
        rows.push(row);
        report.rows.push(row);
        printRow(row);
        log(`  ours ÷ pgbench = ${(row.result.perSecond / result.perSecond).toFixed(2)}`);
      } finally {
        await pool.close();
      }
    }
  }
  report.integrity.push(await integrity('PostgreSQL', bench.db, rows));
}

async function benchPglite(report: Report, opened: Database[]): Promise<void> {
  const lite = await openDatabase({ engine: 'pglite' });
  opened.push(lite);
  await migrateToLatest(lite.db);
  const version = await sql<{ version: string }>`SELECT version()`.execute(lite.db);
  report.pgliteVersion = `${await pglitePackageVersion()} (${version.rows[0]?.version ?? '?'})`;
  const post = ledger();
  const seeded = await seed(post, lite.db, 1);
  report.seeding.push({ engine: 'PGlite', journals: seeded.journals, seconds: seeded.seconds });
  log(`PGlite: migrated and seeded ${seeded.journals} journals in ${seeded.seconds.toFixed(1)} s`);
  const benchWorkloads = workloads(seeded.users);
  const rows: Row[] = [];
  for (const clients of CLIENT_COUNTS) {
    for (const workload of benchWorkloads) {
      const row = await runWorkload('PGlite', post, lite.db, workload, clients);
      row.stored = await storedCounts(lite.db, `bench:lite:${workload.name}:${clients}:`);
      rows.push(row);
      report.rows.push(row);
      printRow(row);
    }
  }
  report.integrity.push(await integrity('PGlite', lite.db, rows));
}

/** Every run of ours beside pgbench at the same client count, for the suite's table. */
function comparisons(report: Report): Comparison[] {
  const { met } = goal(report);
  return report.rows
    .filter((row) => !isPgbench(row))
    .map((row) => {
      const base = pgbenchOf(report, row);
      const isGoal = row.engine === 'PostgreSQL' && row.workload === 'trade' && row.clients === 32;
      return {
        workload: `${row.engine} ${row.workload} (${row.legs} legs), ${row.clients} clients`,
        ours: { value: row.result.perSecond, unit: 'journals/s' },
        peer: base
          ? {
              name: `${base.workload}, ${base.clients} clients${row.engine === 'PGlite' ? ' (on the PostgreSQL server)' : ''}`,
              value: base.result.perSecond,
              unit: 'TPS',
            }
          : null,
        ratio: ratioOf(report, row),
        better: 'higher',
        ...(isGoal ? { goal: { target: '≥ 0.5 × pgbench', met } } : {}),
        ...(row.engine === 'PGlite'
          ? { note: 'PGlite has one connection, so its clients queue; the ratio is for scale only' }
          : {}),
      } satisfies Comparison;
    });
}

async function pglitePackageVersion(): Promise<string> {
  try {
    const file = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url);
    const { version } = JSON.parse(await fs.readFile(file, 'utf8')) as { version?: string };
    return version ?? '?';
  } catch {
    return '?';
  }
}

async function main(): Promise<void> {
  const report: Report = {
    date: new Date(),
    seconds: SECONDS,
    clientCounts: CLIENT_COUNTS,
    pgbench: { scale: PGBENCH_SCALE, threads: PGBENCH_THREADS, initSeconds: Number.NaN },
    machine: machineInfo(),
    postgresVersion: '',
    pgliteVersion: '',
    postgresSettings: [],
    seeding: [],
    statements: [],
    rows: [],
    integrity: [],
    file: `bench/results/${NAME}.md`,
    prototype: PROTOTYPE
      ? `the PROTOTYPE in bench/ledger/prototype.ts (BENCH_LEDGER=${LEDGER_SETTING}: one SQL statement ` +
        `per journal${PROTOTYPE === 'function' ? ', inside a PL/pgSQL function' : ''}), not the app's ledger`
      : undefined,
  };
  log(
    `${SECONDS} s per run, clients ${CLIENT_COUNTS.join(' and ')}, pgbench scale ${PGBENCH_SCALE}; ` +
      `${report.machine.cpus} CPUs, Node ${report.machine.node}`,
  );

  const server = await startPostgres({ maxConnections: 200 });
  const opened: Database[] = [];
  try {
    await benchPostgres(report, server, opened);
  } finally {
    for (const handle of opened.splice(0)) await handle.close();
    await server.stop();
  }
  try {
    await benchPglite(report, opened);
  } finally {
    for (const handle of opened.splice(0)) await handle.close();
  }

  console.log(`\n${resultsTable(report)}\n`);
  const { ratio, met } = goal(report);
  log(
    `goal: PostgreSQL trade ×32 ÷ pgbench ×32 = ${ratio === null ? '–' : ratio.toFixed(2)} ` +
      `(needs ≥ 0.50): ${met ? 'met' : 'NOT met'}`,
  );
  log(`wrote ${await writeResult(`${NAME}.md`, renderMarkdown(report))}`);
  log(`wrote ${await writeSummary(NAME, { workloads: comparisons(report) })}`);

  const failed =
    report.integrity.some((item) => !item.checkOk || !item.countsMatch) ||
    report.rows.some((row) => Object.keys(row.result.errors).length > 0);
  if (failed) {
    log('FAILED: the ledger check, the cross-check or a journal failed (see above)');
    process.exitCode = 1;
  }
}

await main();
