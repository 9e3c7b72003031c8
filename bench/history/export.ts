/**
 * The full `Crypto History.csv` export over HTTP, with the app's memory sampled throughout, beside
 * PostgreSQL's own COPY of the same rows.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { HISTORY_CSV_COLUMNS } from '@florin/contracts';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DB } from '../../apps/server/src/db/schema.js';
import { csvLine } from '../../apps/server/src/http/csv.js';
import { historyCsvQuery } from '../../apps/server/src/modules/portfolio/export-query.js';
import { historySourceOf } from '../../apps/server/src/modules/portfolio/history.js';
import { createPortfolioRepository } from '../../apps/server/src/modules/portfolio/repository.js';
import { serverCpuSeconds } from '../ledger/probes.js';
import { processCpu } from '../ledger/workloads.js';
import { ask, procStatus, resetPeakRss, type Server } from './app-process.js';
import { SAMPLE_MS, type MemoryPeaks } from './protocol.js';
import { EXPORT_PATH, log, MB, ROUNDS } from './settings.js';

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
export type Cpu = { app: number; postgres: number; client: number };

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

export type ExportResult = TransferResult & {
  status: number;
  contentType: string;
  firstByteMs: number;
  memory: MemoryPeaks;
  procSamples: number;
  procPeakRss: number;
  procBaselineRss: number;
  hwm: number | null;
};

export async function measureExport(
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

export function describeExport(label: string, e: ExportResult): string {
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

/**
 * PostgreSQL's own CSV of the same rows: the very query the app hands to COPY (export-query.ts), compiled
 * here, so only the app's part differs (its header, CRLF line ends, the HTTP response).
 */
async function copyQuery(db: Kysely<DB>, userId: number): Promise<string> {
  const source = await historySourceOf(createPortfolioRepository(db), String(userId));
  return `COPY (${historyCsvQuery(source).compile(db).sql}) TO STDOUT (FORMAT csv)`;
}

async function measureCopy(
  db: Kysely<DB>,
  url: string,
  userId: number,
  postmaster: number,
): Promise<TransferResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const statement = await copyQuery(db, userId);
  // As the app runs each of its COPYs (db/copy-out.ts): read-only, JIT off, so only the batches differ.
  await client.query('BEGIN READ ONLY');
  await client.query('SET LOCAL jit = off');
  const counter = lineCounter();
  // COPY writes no header: the app's goes first, so the two files can be compared whole.
  counter.take(Buffer.from(csvLine(HISTORY_CSV_COLUMNS)));
  const cpu = cpuMeter(null, postmaster);
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const stream = client.query(copyTo(statement));
    stream.on('data', (chunk: Buffer) => counter.take(chunk));
    stream.on('end', () => resolve());
    stream.on('error', reject);
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuUsed = cpu();
  await client.query('COMMIT');
  await client.end();
  const { bytes, lines, head, sha256 } = counter.result();
  return { seconds, bytes, lines, head, sha256, cpu: cpuUsed, rowsPerSecond: (lines - 1) / seconds };
}

export type Round = { round: number; order: string; exported: ExportResult; copied: TransferResult };

/** The export and COPY in turns, ROUNDS times, alternating which goes first. */
export async function runRounds(
  db: Kysely<DB>,
  server: Server,
  cookie: string,
  databaseUrl: string,
  userId: number,
  postmaster: number,
): Promise<Round[]> {
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
        copied = await measureCopy(db, databaseUrl, userId, postmaster);
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
  return rounds;
}
