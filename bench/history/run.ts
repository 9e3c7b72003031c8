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
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { HISTORY_CSV_COLUMNS, HISTORY_PAGE_SIZE } from '@florin/contracts';
import { openDatabase } from '../../apps/server/src/db/index.js';
import { migrateToLatest } from '../../apps/server/src/db/migrate.js';
import { checkLedger, describeViolations } from '../../apps/server/src/ledger/index.js';
import { createSessionStore } from '../../apps/server/src/modules/auth/sessions.js';
import {
  createPortfolioRepository,
  type HistoryScope,
} from '../../apps/server/src/modules/portfolio/repository.js';
import { startPostgres } from '../../apps/server/src/test/postgres-server.js';
import { machineInfo } from '../ledger/report.js';
import { findPostmaster, serverCpuSeconds } from '../ledger/probes.js';
import { percentile, processCpu } from '../ledger/workloads.js';
import { seedHistory, type Seeded } from './seed.js';
import { SAMPLE_MS, type ChildMessage, type MemoryPeaks, type ParentMessage } from './protocol.js';
import { positiveNumber, writeResult, writeSummary, type Comparison } from '../support.js';
import { systemClock } from '../../apps/server/src/clock.js';

const TRANSACTIONS = Math.round(positiveNumber('BENCH_HISTORY_TRANSACTIONS', 1_000_000));
const REQUESTS = Math.round(positiveNumber('BENCH_HISTORY_REQUESTS', 100));
const DEEP_REQUESTS = Math.round(positiveNumber('BENCH_HISTORY_DEEP_REQUESTS', 20));
const DEEP_PAGE = Math.min(
  Math.round(positiveNumber('BENCH_HISTORY_DEEP_PAGE', 50_000)),
  Math.ceil(TRANSACTIONS / HISTORY_PAGE_SIZE),
);
const ROUNDS = Math.round(positiveNumber('BENCH_HISTORY_ROUNDS', 2));
const HISTORY_PATH = '/api/v1/user/fiat-crypto-transactions';
const EXPORT_PATH = '/api/v1/crypto/transactions/export';
const MB = 1024 * 1024;
/** In the diagnostic export: how often the server forces a full GC to see what it really holds. */
const LIVE_EVERY_MS = 250;

const startedAt = performance.now();
const log = (message: string) =>
  console.log(`[bench ${((performance.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${message}`);

// ---------------------------------------------------------------------------------------------
// The app in its own process

type Server = { child: ChildProcess; url: string; pid: number };

async function startServer(databaseUrl: string): Promise<Server> {
  const child = fork(new URL('./server.ts', import.meta.url), [databaseUrl], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<Server>((resolve, reject) => {
    child.once('message', (message: ChildMessage) => {
      if (message.type === 'listening') resolve({ child, url: message.url, pid: message.pid });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

function ask<T extends ChildMessage['type']>(
  server: Server,
  message: ParentMessage,
  answer: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve) => {
    const listener = (reply: ChildMessage) => {
      if (reply.type !== answer) return;
      server.child.off('message', listener);
      resolve(reply as Extract<ChildMessage, { type: T }>);
    };
    server.child.on('message', listener);
    server.child.send(message);
  });
}

/** The server process's resident memory as the kernel counts it, read from outside every SAMPLE_MS. */
function procStatus(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') * 1024, hwm: kib('VmHWM') * 1024 };
}

/** Resets the kernel's peak-RSS mark (VmHWM) of the process, so it counts from now; false if not allowed. */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP clients

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { cookie } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

type PageResult = {
  name: string;
  query: string;
  requests: number;
  total: number;
  rows: number;
  firstId: string;
  p50: number;
  p99: number;
  max: number;
  mean: number;
};

async function measurePage(name: string, base: string, query: string, cookie: string, requests: number) {
  const url = `${base}${HISTORY_PATH}?${query}`;
  const warm = await get(url, cookie);
  if (warm.status !== 200) throw new Error(`${name}: HTTP ${warm.status} ${warm.body.slice(0, 300)}`);
  const times = new Float64Array(requests);
  let last = warm.body;
  for (let index = 0; index < requests; index += 1) {
    const started = performance.now();
    const response = await get(url, cookie);
    times[index] = performance.now() - started;
    if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status}`);
    last = response.body;
  }
  const page = JSON.parse(last) as { data: { id: string }[]; total: number };
  times.sort();
  const result: PageResult = {
    name,
    query,
    requests,
    total: page.total,
    rows: page.data.length,
    firstId: page.data[0]?.id ?? '',
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: times[times.length - 1] ?? NaN,
    mean: times.reduce((sum, value) => sum + value, 0) / times.length,
  };
  log(
    `page ${name} (?${query}): ${requests} requests, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
      `max ${result.max.toFixed(1)} ms; ${result.rows} rows, total ${result.total}, first id ${result.firstId}`,
  );
  return result;
}

/**
 * Counts bytes and lines of a CSV stream as it arrives, hashes it without its carriage returns, and keeps
 * nothing but its first two lines.
 */
function lineCounter() {
  let bytes = 0;
  let lines = 0;
  let head = '';
  const hash = createHash('sha256');
  return {
    take(chunk: Buffer) {
      bytes += chunk.length;
      // Line ends aside (the export's are CRLF as RFC 4180 says, COPY's LF), the two files should be the same.
      hash.update(chunk.toString('latin1').replaceAll('\r', ''), 'latin1');
      if (head.split('\n').length < 3) head += chunk.subarray(0, 400).toString('utf8');
      let at = chunk.indexOf(10);
      while (at !== -1) {
        lines += 1;
        at = chunk.indexOf(10, at + 1);
      }
    },
    result: () => ({
      bytes,
      lines,
      sha256: hash.digest('hex'),
      head: head
        .split('\n')
        .slice(0, 2)
        .map((line) => line.trimEnd()),
    }),
  };
}

/** CPU seconds spent while a transfer ran: the app's process, PostgreSQL's processes, this client. */
type Cpu = { app: number; postgres: number; client: number };

type TransferResult = {
  seconds: number;
  bytes: number;
  lines: number;
  rowsPerSecond: number;
  head: string[];
  sha256: string;
  cpu: Cpu;
};

/** Starts counting CPU seconds; the returned function says how many each side used since. */
function cpuMeter(appPid: number | null, postmaster: number): () => Cpu {
  const app0 = appPid === null ? 0 : (processCpu(appPid)?.own ?? 0);
  const postgres0 = serverCpuSeconds(postmaster);
  const client0 = process.cpuUsage();
  return () => {
    const client = process.cpuUsage(client0);
    return {
      app: appPid === null ? 0 : (processCpu(appPid)?.own ?? 0) - app0,
      postgres: serverCpuSeconds(postmaster) - postgres0,
      client: (client.user + client.system) / 1e6,
    };
  };
}

type ExportResult = TransferResult & {
  status: number;
  contentType: string;
  firstByteMs: number;
  memory: MemoryPeaks;
  procSamples: number;
  procPeakRss: number;
  procBaselineRss: number;
  hwm: number | null;
};

async function measureExport(
  server: Server,
  cookie: string,
  postmaster: number,
  liveEveryMs?: number,
): Promise<ExportResult> {
  await ask(server, { type: 'sample-start', liveEveryMs }, 'sampling');
  const baseline = procStatus(server.pid).rss;
  const hwmReset = resetPeakRss(server.pid);
  let procPeakRss = baseline;
  let procSamples = 0;
  const sampler = setInterval(() => {
    procPeakRss = Math.max(procPeakRss, procStatus(server.pid).rss);
    procSamples += 1;
  }, SAMPLE_MS);
  const counter = lineCounter();
  const cpu = cpuMeter(server.pid, postmaster);
  const started = performance.now();
  let firstByteMs = NaN;
  const { status, contentType } = await new Promise<{ status: number; contentType: string }>(
    (resolve, reject) => {
      // A fresh connection, as a browser's download would make.
      http
        .get(`${server.url}${EXPORT_PATH}`, { headers: { cookie } }, (response) => {
          response.on('data', (chunk: Buffer) => {
            if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
            counter.take(chunk);
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              contentType: String(response.headers['content-type'] ?? ''),
            }),
          );
          response.on('error', reject);
        })
        .on('error', reject);
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuUsed = cpu();
  clearInterval(sampler);
  const after = procStatus(server.pid);
  procPeakRss = Math.max(procPeakRss, after.rss);
  const { peaks } = await ask(server, { type: 'sample-stop' }, 'peaks');
  const { bytes, lines, head, sha256 } = counter.result();
  const rows = lines - 1;
  return {
    sha256,
    cpu: cpuUsed,
    status,
    contentType,
    seconds,
    bytes,
    lines,
    head,
    firstByteMs,
    rowsPerSecond: rows / seconds,
    memory: peaks,
    procSamples,
    procPeakRss,
    procBaselineRss: baseline,
    hwm: hwmReset ? after.hwm : null,
  };
}

function describeExport(label: string, e: ExportResult): string {
  return (
    `${label}: export HTTP ${e.status} ${e.contentType}: ${e.lines.toLocaleString('en-GB')} lines ` +
    `(${(e.lines - 1).toLocaleString('en-GB')} rows + header), ${(e.bytes / MB).toFixed(1)} MiB in ${e.seconds.toFixed(1)} s ` +
    `= ${Math.round(e.rowsPerSecond).toLocaleString('en-GB')} rows/s; first byte after ${e.firstByteMs.toFixed(0)} ms; ` +
    `server RSS ${(e.memory.baselineRss / MB).toFixed(1)} → peak ${(e.memory.peakRss / MB).toFixed(1)} MiB ` +
    `(/proc: ${(e.procBaselineRss / MB).toFixed(1)} → ${(e.procPeakRss / MB).toFixed(1)} MiB, VmHWM ${e.hwm === null ? 'n/a' : `${(e.hwm / MB).toFixed(1)} MiB`}), ` +
    `heap ${(e.memory.baselineHeap / MB).toFixed(1)} → peak ${(e.memory.peakHeap / MB).toFixed(1)} MiB; ` +
    `${e.memory.samples} in-process samples (longest gap ${e.memory.longestGapMs.toFixed(0)} ms), ${e.procSamples} /proc samples; CPU s: app ${e.cpu.app.toFixed(1)}, PostgreSQL ${e.cpu.postgres.toFixed(1)}, client ${e.cpu.client.toFixed(1)}; sha256 ${e.sha256.slice(0, 16)}` +
    (e.memory.peakLiveHeap === null
      ? ''
      : `; live heap (after a forced full GC, ${e.memory.liveSamples} times) peak ${(e.memory.peakLiveHeap / MB).toFixed(1)} MiB`)
  );
}

/** PostgreSQL's own CSV of the same rows: one per journal, the customer's legs folded into it. */
function copyQuery(userId: number): string {
  return `COPY (
    SELECT to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS date,
      CASE WHEN j.kind IN ('trade', 'limit_order_fill') AND l.coin IS NOT NULL
             THEN CASE WHEN l.coin_amount > 0 THEN 'Buy' ELSE 'Sell' END
           WHEN j.kind IN ('fiat_deposit', 'crypto_deposit') THEN 'Deposit'
           WHEN j.kind IN ('fiat_withdrawal', 'crypto_withdrawal') THEN 'Withdraw'
           ELSE 'Adjustment' END AS type,
      CASE WHEN j.kind IN ('trade', 'limit_order_fill') THEN l.coin ELSE coalesce(l.cash, l.coin) END AS asset,
      CASE WHEN j.kind IN ('trade', 'limit_order_fill') AND l.coin IS NOT NULL
             THEN round(l.coin_amount / 10::numeric ^ l.coin_scale, l.coin_scale)
           ELSE round(coalesce(l.cash_amount, l.coin_amount) / 10::numeric ^ coalesce(l.cash_scale, l.coin_scale),
                      coalesce(l.cash_scale, l.coin_scale)) END::text AS amount,
      l.cash AS currency,
      CASE WHEN j.kind IN ('trade', 'limit_order_fill') AND l.cash = 'GBP'
             THEN CASE WHEN l.coin_amount > 0 THEN -l.cash_amount / 100 - (j.metadata->>'fee')::numeric
                       ELSE l.cash_amount / 100 + (j.metadata->>'fee')::numeric END
           WHEN l.cash = 'GBP' THEN abs(l.cash_amount) / 100
           ELSE (j.metadata->>'gbp_value')::numeric END::numeric(40, 2)::text AS gbp_value,
      coalesce(j.metadata->>'fee', '0') AS fee,
      j.id AS reference
    FROM (
      SELECT e.journal_id,
        max(e.asset) FILTER (WHERE s.kind = 'coin') AS coin,
        sum(e.amount) FILTER (WHERE s.kind = 'coin') AS coin_amount,
        max(s.scale) FILTER (WHERE s.kind = 'coin') AS coin_scale,
        max(e.asset) FILTER (WHERE s.kind = 'fiat') AS cash,
        sum(e.amount) FILTER (WHERE s.kind = 'fiat') AS cash_amount,
        max(s.scale) FILTER (WHERE s.kind = 'fiat') AS cash_scale
      FROM entries e
      JOIN accounts a ON a.id = e.account_id AND a.kind = 'available'
      JOIN assets s ON s.code = e.asset
      WHERE a.owner_user_id = ${userId}
      GROUP BY e.journal_id
    ) AS l
    JOIN journals j ON j.id = l.journal_id
    ORDER BY j.id DESC
  ) TO STDOUT (FORMAT csv, HEADER)`;
}

async function measureCopy(url: string, userId: number, postmaster: number): Promise<TransferResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const counter = lineCounter();
  const cpu = cpuMeter(null, postmaster);
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const stream = client.query(copyTo(copyQuery(userId)));
    stream.on('data', (chunk: Buffer) => counter.take(chunk));
    stream.on('end', () => resolve());
    stream.on('error', reject);
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuUsed = cpu();
  await client.end();
  const { bytes, lines, head, sha256 } = counter.result();
  return { seconds, bytes, lines, head, sha256, cpu: cpuUsed, rowsPerSecond: (lines - 1) / seconds };
}

// ---------------------------------------------------------------------------------------------
// Where a page's time goes: the portfolio repository's two queries, timed on their own

type QueryTiming = { name: string; countMs: number; legsMs: number };

async function timeRepository(
  db: Parameters<typeof createPortfolioRepository>[0],
  userId: number,
  cases: { name: string; page: number; filters: HistoryScope['filters'] }[],
): Promise<QueryTiming[]> {
  const repository = createPortfolioRepository(db);
  const accounts = await repository.listUserAccounts(String(userId));
  const assets = await db.selectFrom('assets').select(['code', 'kind']).execute();
  const assetKinds = new Map(assets.map((asset) => [asset.code, asset.kind]));
  const timings: QueryTiming[] = [];
  const median = async (task: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const started = performance.now();
      await task();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[2] ?? NaN;
  };
  for (const item of cases) {
    const scope: HistoryScope = { accounts, filters: item.filters, assetKinds };
    const window = { limit: HISTORY_PAGE_SIZE, offset: (item.page - 1) * HISTORY_PAGE_SIZE };
    const timing = {
      name: item.name,
      countMs: await median(() => repository.countJournals(scope)),
      legsMs: await median(() => repository.listJournals(String(userId), scope, window)),
    };
    log(
      `repository, ${item.name}: countJournals ${timing.countMs.toFixed(1)} ms, ` +
        `listJournals ${timing.legsMs.toFixed(1)} ms (median of 5, in this process)`,
    );
    timings.push(timing);
  }
  // One batch of the export: the next 1,000 journals before a cursor half-way down the history.
  const scope: HistoryScope = { accounts, filters: [], assetKinds };
  const batch = { limit: 1000, offset: 0, before: String(Math.floor(TRANSACTIONS / 2)) };
  const exportBatch = {
    name: 'one export batch (1,000 journals)',
    countMs: NaN,
    legsMs: await median(() => repository.listJournals(String(userId), scope, batch)),
  };
  log(
    `repository, ${exportBatch.name}: listJournals ${exportBatch.legsMs.toFixed(1)} ms ` +
      `→ ${Math.round(1000 / (exportBatch.legsMs / 1000)).toLocaleString('en-GB')} journals/s from the query alone`,
  );
  timings.push(exportBatch);
  return timings;
}

// ---------------------------------------------------------------------------------------------
// The run

const loadBefore = os.loadavg();
log(`load average before: ${loadBefore.map((value) => value.toFixed(2)).join(', ')}`);
const postgres = await startPostgres();
log(`PostgreSQL on port ${postgres.port}`);
const databaseUrl = postgres.url();
const database = await openDatabase({ engine: 'postgres', url: databaseUrl, poolSize: 4 });
let server: Server | undefined;
try {
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

  type Round = { round: number; order: string; exported: ExportResult; copied: TransferResult };
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const exportFirst = round % 2 === 1;
    let exported: ExportResult | undefined;
    let copied: TransferResult | undefined;
    for (const which of exportFirst ? ['export', 'copy'] : ['copy', 'export']) {
      if (which === 'export') {
        log(`round ${round}: export over HTTP`);
        exported = await measureExport(server, cookie, postmaster);
        const e = exported;
        log(describeExport(`round ${round}`, e));
        log(`round ${round}: export head: ${JSON.stringify(e.head)}`);
      } else {
        log(`round ${round}: COPY … TO STDOUT`);
        copied = await measureCopy(databaseUrl, seeded.userId, postmaster);
        const c = copied;
        log(
          `round ${round}: COPY ${c.lines.toLocaleString('en-GB')} lines, ${(c.bytes / MB).toFixed(1)} MiB in ${c.seconds.toFixed(1)} s ` +
            `= ${Math.round(c.rowsPerSecond).toLocaleString('en-GB')} rows/s; CPU s: PostgreSQL ${c.cpu.postgres.toFixed(1)}, client ${c.cpu.client.toFixed(1)}; sha256 ${c.sha256.slice(0, 16)}`,
        );
        log(`round ${round}: COPY head: ${JSON.stringify(c.head)}`);
      }
    }
    rounds.push({
      round,
      order: exportFirst ? 'export, COPY' : 'COPY, export',
      exported: exported!,
      copied: copied!,
    });
    log(`round ${round}: export ÷ COPY = ${(exported!.rowsPerSecond / copied!.rowsPerSecond).toFixed(3)}`);
  }

  // Is the heap growth held, or garbage V8 has not collected yet? One more export, not counted above, with
  // the server forcing a full GC every LIVE_EVERY_MS and noting what survives it.
  log(`diagnostic: one more export, the server forcing a full GC every ${LIVE_EVERY_MS} ms`);
  const diagnostic = await measureExport(server, cookie, postmaster, LIVE_EVERY_MS);
  log(describeExport('diagnostic', diagnostic));

  // ------------------------------------------------------------------------------------------
  // The report

  const machine = machineInfo();
  const loadAfter = os.loadavg();
  const whole = (value: number) => Math.round(value).toLocaleString('en-GB');
  const mib = (value: number) => (value / MB).toFixed(1);
  const cpuCell = (cpu: Cpu) =>
    `${cpu.app > 0 ? cpu.app.toFixed(1) : '–'} / ${cpu.postgres.toFixed(1)} / ${cpu.client.toFixed(1)}`;
  const sum = (pick: (round: Round) => number) => rounds.reduce((total, round) => total + pick(round), 0);
  const exportRate = sum((r) => r.exported.lines - 1) / sum((r) => r.exported.seconds);
  const copyRate = sum((r) => r.copied.lines - 1) / sum((r) => r.copied.seconds);
  const ratio = exportRate / copyRate;
  const rssGrowth = Math.max(
    ...rounds.map((r) =>
      Math.max(
        r.exported.memory.peakRss - r.exported.memory.baselineRss,
        r.exported.procPeakRss - r.exported.procBaselineRss,
        r.exported.hwm === null ? 0 : r.exported.hwm - r.exported.procBaselineRss,
      ),
    ),
  );
  const heapGrowth = Math.max(
    ...rounds.map((r) => r.exported.memory.peakHeap - r.exported.memory.baselineHeap),
  );
  const rowsRight = rounds.every((r) => r.exported.status === 200 && r.exported.lines === TRANSACTIONS + 1);
  const copyRowsRight = rounds.every((r) => r.copied.lines === TRANSACTIONS + 1);
  const headerRight = rounds.every((r) => r.exported.head[0] === HISTORY_CSV_COLUMNS.join(','));
  const ratioMet = ratio >= 0.5;
  // CPU seconds per 1,000 rows, all processes together: steadier than wall time when others load the machine.
  const cpuPerKRows = (cpu: Cpu, lines: number) =>
    ((cpu.app + cpu.postgres + cpu.client) / (lines - 1)) * 1000;
  const exportCpu = sum((r) => cpuPerKRows(r.exported.cpu, r.exported.lines)) / rounds.length;
  const copyCpu = sum((r) => cpuPerKRows(r.copied.cpu, r.copied.lines)) / rounds.length;
  const memoryMet = rssGrowth < 50 * MB && heapGrowth < 50 * MB;
  log(
    `overall: export ${whole(exportRate)} rows/s, COPY ${whole(copyRate)} rows/s, ratio ${ratio.toFixed(3)} (goal ≥ 0.5: ${ratioMet ? 'met' : 'NOT met'}); ` +
      `peak growth RSS ${mib(rssGrowth)} MiB, heap ${mib(heapGrowth)} MiB (goal < 50 MB: ${memoryMet ? 'met' : 'NOT met'}); ` +
      `export rows = ${TRANSACTIONS} + header: ${rowsRight ? 'yes' : 'NO'}`,
  );

  const pageRows = pages.map(
    (page) =>
      `| ${page.name} | \`?${page.query}\` | ${page.requests} | ${page.rows} | ${whole(page.total)} | ${page.p50.toFixed(1)} | ${page.p99.toFixed(1)} | ${page.max.toFixed(1)} |`,
  );
  const queryRows = queryTimings.map(
    (timing) =>
      `| ${timing.name} | ${Number.isNaN(timing.countMs) ? '–' : timing.countMs.toFixed(1)} | ${timing.legsMs.toFixed(1)} |`,
  );
  const roundRows = rounds.flatMap((r) => [
    `| ${r.round} | export over HTTP (Florin) | ${whole(r.exported.lines - 1)} | ${mib(r.exported.bytes)} | ${r.exported.seconds.toFixed(1)} | **${whole(r.exported.rowsPerSecond)}** | ${mib(r.exported.memory.peakRss - r.exported.memory.baselineRss)} / ${mib(r.exported.procPeakRss - r.exported.procBaselineRss)}${r.exported.hwm === null ? '' : ` / ${mib(r.exported.hwm - r.exported.procBaselineRss)}`} | ${mib(r.exported.memory.peakHeap - r.exported.memory.baselineHeap)} | ${cpuCell(r.exported.cpu)} |`,
    `| ${r.round} | \`COPY … TO STDOUT (FORMAT csv)\` | ${whole(r.copied.lines - 1)} | ${mib(r.copied.bytes)} | ${r.copied.seconds.toFixed(1)} | **${whole(r.copied.rowsPerSecond)}** | – | – | ${cpuCell(r.copied.cpu)} |`,
  ]);
  const first = rounds[0]!;
  const sameBytes = rounds.every((r) => r.exported.sha256 === r.copied.sha256);
  const seedLines = seeded.steps.map((s) => `${s.step} ${s.seconds.toFixed(1)} s`).join('; ');
  const verdict =
    ratioMet && memoryMet
      ? ''
      : `\nNot met: ${[
          ratioMet
            ? null
            : `the export makes ${whole(TRANSACTIONS / 1000)} round trips of one query each (\`listJournals\`: 1,000 journal ids per account, merged, and their legs folded into one row each; the next batch is read while one is formatted), builds a JS object per journal and formats it in JS, while COPY is one query formatted in C inside the server`,
          memoryMet
            ? null
            : `the server's heap and RSS grew by more than 50 MB during the export (${
                (diagnostic.memory.peakLiveHeap ?? Infinity) - diagnostic.memory.baselineHeap < 20 * MB
                  ? 'garbage V8 had not collected yet, not data the export holds: see "What the heap growth is" below'
                  : 'data the export holds at once'
              })`,
        ]
          .filter(Boolean)
          .join('; ')}. See the figures below.\n`;
  const markdown = `# History benchmark

Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:history\` (bench/history/run.ts).

One customer with ${whole(TRANSACTIONS)} transactions on a throw-away PostgreSQL server; the whole Florin app
(\`buildApp\`, production settings, logging at warn) in its own Node process on loopback, a real session cookie,
and the benchmark process as the only client over real HTTP (node:http).

**Shared machine**: ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB.toFixed(1)} GiB, Node ${machine.node},
${machine.os}; ${pgVersion ?? 'PostgreSQL'}. PostgreSQL, the app's process and the client all share those
${machine.cpus} cores, and other engineers were building and testing on them during the run (load average before it:
${loadBefore.map((value) => value.toFixed(2)).join(', ')}; after it: ${loadAfter.map((value) => value.toFixed(2)).join(', ')}),
so absolute figures are noisy. The export and COPY took turns in the same run (${ROUNDS} rounds, alternating which
goes first), which is what the ratio compares.

## Goal

- **Export ÷ COPY: ${ratio.toFixed(2)}** (${whole(exportRate)} ÷ ${whole(copyRate)} rows/s over all rounds) — goal ≥ 0.5: **${ratioMet ? 'met' : 'NOT met'}**.
- Per round: ${rounds.map((r) => `${r.round}: ${(r.exported.rowsPerSecond / r.copied.rowsPerSecond).toFixed(2)}`).join(', ')}. CPU, which the other
  engineers' load moves less than wall time: the export spends ${(exportCpu * 1000).toFixed(0)} ms of CPU per 1,000 rows (app + PostgreSQL + client),
  COPY ${(copyCpu * 1000).toFixed(0)} ms: **COPY ÷ export CPU = ${(copyCpu / exportCpu).toFixed(2)}**.
- **Peak memory growth of the server during an export: RSS ${mib(rssGrowth)} MiB, V8 heap ${mib(heapGrowth)} MiB** — goal under 50 MB: **${memoryMet ? 'met' : 'NOT met'}**.
- Export rows: ${rowsRight ? `${whole(TRANSACTIONS)} + header in every round` : 'NOT equal to the transactions + header'}${headerRight ? ` (header \`${HISTORY_CSV_COLUMNS.join(',')}\`)` : ', header differs'}; COPY rows: ${copyRowsRight ? `${whole(TRANSACTIONS)} + header` : 'differ'}.
${verdict}
## Pages of history (\`GET ${HISTORY_PATH}\`, ${HISTORY_PAGE_SIZE} a page)

Sequential requests on one keep-alive connection after one warm-up request; time from sending the request to the
last byte of the JSON.

| Page | Query | Requests | Rows | total | p50 ms | p99 ms | max ms |
|---|---|---:|---:|---:|---:|---:|---:|
${pageRows.join('\n')}

Where the time goes: the portfolio repository's queries called directly from the benchmark process on the same
database (median of 5 each). Every page request runs \`countJournals\` (for \`total\`/\`last_page\`), then
\`listJournals\` (the page's ids and their legs, one row per journal, in one query).

| Page | countJournals ms | listJournals ms |
|---|---:|---:|
${queryRows.join('\n')}

## Full export (\`GET ${EXPORT_PATH}\`) beside \`COPY … TO STDOUT\`

The client reads the response as it arrives, counting bytes and line ends and keeping nothing. COPY is
\`COPY (SELECT …) TO STDOUT (FORMAT csv, HEADER)\` of the same rows (one per journal of the customer's: date,
type, asset, amount, currency, GBP value, fee, reference, newest first, the customer's legs folded by
\`GROUP BY journal_id\`), streamed with pg-copy-streams from a fresh connection and discarded the same way.

Memory: the server process samples its own \`process.memoryUsage()\` every ${SAMPLE_MS} ms (after a forced GC for the
baseline), and the benchmark reads the server's VmRSS from \`/proc/<pid>/status\` every ${SAMPLE_MS} ms from outside${first.exported.hwm === null ? '' : ", and the kernel's own peak (VmHWM, reset through `/proc/<pid>/clear_refs` when the export starts)"}.
Growth = peak − the baseline taken just before the request.

| Round | What | Rows | MiB | Seconds | Rows/s | RSS growth MiB (in-process / /proc${first.exported.hwm === null ? '' : ' / VmHWM'}) | heap growth MiB | CPU s: app / PostgreSQL / client |
|---:|---|---:|---:|---:|---:|---:|---:|---:|
${roundRows.join('\n')}

What the heap growth is: one more export after the rounds (not in the table or the ratio), with the server
forcing a full GC every ${LIVE_EVERY_MS} ms (${diagnostic.memory.liveSamples} times) and noting the heap that survived it: at most
**${mib((diagnostic.memory.peakLiveHeap ?? NaN) - diagnostic.memory.baselineHeap)} MiB above the baseline** — what the export really holds at once —
while the peak heap between those GCs was ${mib(diagnostic.memory.peakHeap - diagnostic.memory.baselineHeap)} MiB
(${whole(diagnostic.rowsPerSecond)} rows/s with the forced GCs). So the growth in the rounds above is
${(diagnostic.memory.peakLiveHeap ?? Infinity) - diagnostic.memory.baselineHeap < 20 * MB ? 'mostly garbage: per-batch objects (query rows, legs, transactions, strings) that V8 lets pile up in its old generation before a full collection, not data the export keeps' : 'not just garbage: the export holds a lot at once'}.

Export: first byte after ${first.exported.firstByteMs.toFixed(0)} ms (round 1); the server's event loop let its sampler
run at most ${Math.max(...rounds.map((r) => r.exported.memory.longestGapMs)).toFixed(0)} ms apart during the export.

The two files are ${sameBytes ? '**the same byte for byte apart from line ends**' : '**not the same** apart from line ends'} (SHA-256 of each with its carriage returns
removed ${sameBytes ? 'equal' : 'different'} in every round; the export ends its lines with CRLF as RFC 4180 says, COPY with LF, hence its
1 byte a row fewer).
CPU seconds are read from /proc for the app's process, for all of PostgreSQL's processes, and for this client;
the machine has ${machine.cpus} cores, so a transfer of S seconds can use at most ${machine.cpus}×S.

First rows (round 1), export then COPY:

\`\`\`
${first.exported.head.join('\n')}
${first.copied.head.join('\n')}
\`\`\`

## Data

- Seeded set-based in ${seedSeconds.toFixed(0)} s (${seedLines}): ${whole(Number(counts.journals))} journals and
  ${whole(Number(counts.entries))} entries (${whole(Number(counts.mine))} of them on the customer's accounts), database ${counts.size}.
- Per 100 journals: 11 GBP deposits, 40 BTC buys, 20 ETH buys, 15 BTC sells, 10 ETH sells (\`trade\` journals of 5
  legs: the customer's GBP and coin legs, house inventory and fee revenue), 2 GBP withdrawals (3 legs, £5 fee), 2
  BTC deposits; one a minute over ${(TRANSACTIONS / 525_600).toFixed(1)} years. See bench/history/seed.ts.
- House legs are folded straight into \`accounts.posted\` (no pending \`house_balance_deltas\`); customer entries carry
  \`balance_after\`. \`VACUUM (ANALYZE)\` after the load, as autovacuum would have done over the years.
- \`checkLedger\` after seeding: **${check.ok ? 'passed' : 'FAILED'}** (${checkSeconds.toFixed(1)} s).
- PostgreSQL: the throw-away server of \`apps/server/src/test/postgres-server.ts\` (fsync off, shared_buffers 256MB);
  the app's pool of ${20} connections.

## How to run

\`\`\`
npm run bench:history                                  # from the repository root
BENCH_HISTORY_TRANSACTIONS=100000 npm run bench:history  # a quicker, smaller run
\`\`\`

It needs PostgreSQL 15 from Debian (\`apt-get install -y postgresql\`) and writes this file, \`bench/results/history.md\`.
`;
  console.log(markdown);
  const rows = `${whole(TRANSACTIONS)} rows`;
  const workloads: Comparison[] = [
    {
      workload: `Full CSV export over HTTP, ${rows}`,
      ours: { value: exportRate, unit: 'rows/s' },
      peer: {
        name: 'PostgreSQL `COPY … TO STDOUT (FORMAT csv)` of the same rows',
        value: copyRate,
        unit: 'rows/s',
      },
      ratio,
      better: 'higher',
      goal: { target: '≥ 0.5 × COPY', met: ratioMet },
    },
    {
      workload: `The server's peak RSS growth during the export, ${rows}`,
      ours: { value: rssGrowth / MB, unit: 'MiB' },
      peer: null,
      ratio: null,
      better: 'lower',
      goal: { target: 'under 50 MB', met: rssGrowth < 50 * MB },
    },
    {
      workload: `The server's peak V8 heap growth during the export, ${rows}`,
      ours: { value: heapGrowth / MB, unit: 'MiB' },
      peer: null,
      ratio: null,
      better: 'lower',
      goal: { target: 'under 50 MB', met: heapGrowth < 50 * MB },
    },
    ...pages.map((page): Comparison => ({
      workload: `History page over HTTP, ${page.name} (\`?${page.query}\`, ${rows}): p50 latency`,
      ours: { value: page.p50, unit: 'ms' },
      peer: null,
      ratio: null,
      better: 'lower',
    })),
  ];
  log(`wrote ${await writeResult('history.md', markdown)}`);
  log(`wrote ${await writeSummary('history', { workloads })}`);
} finally {
  if (server) {
    const exited = new Promise((resolve) => server?.child.once('exit', resolve));
    server.child.send({ type: 'stop' } satisfies ParentMessage);
    await exited;
  }
  agent.destroy();
  await database.close();
  await postgres.stop();
}
