/** The history benchmark's report: bench/results/history.md, and history.json for the suite. */
import os from 'node:os';
import { HISTORY_CSV_COLUMNS, HISTORY_PAGE_SIZE } from '@florin/contracts';
import { HISTORY_EXPORT_BATCHES } from '../../apps/server/src/modules/portfolio/history.js';
import { machineInfo } from '../ledger/report.js';
import { writeResult, writeSummary, type Comparison } from '../support.js';
import type { Cpu, ExportResult, Round } from './export.js';
import type { PageResult, QueryTiming } from './pages.js';
import { SAMPLE_MS } from './protocol.js';
import type { Prepared } from './setup.js';
import { EXPORT_PATH, HISTORY_PATH, LIVE_EVERY_MS, log, MB, ROUNDS, TRANSACTIONS } from './settings.js';

/** What the run measured, for the report. */
export type HistoryRun = Omit<Prepared, 'postmaster' | 'cookie'> & {
  loadBefore: number[];
  pages: PageResult[];
  queryTimings: QueryTiming[];
  rounds: Round[];
  /** One more export with the server forcing a full GC every LIVE_EVERY_MS. */
  diagnostic: ExportResult;
};

const whole = (value: number) => Math.round(value).toLocaleString('en-GB');
const mib = (value: number) => (value / MB).toFixed(1);
const cpuCell = (cpu: Cpu) =>
  `${cpu.app > 0 ? cpu.app.toFixed(1) : '–'} / ${cpu.postgres.toFixed(1)} / ${cpu.client.toFixed(1)}`;

/** The goals' figures over all rounds. */
function figuresOf(rounds: Round[]) {
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
  const ratioMet = ratio >= 0.8;
  // CPU seconds per 1,000 rows, all processes together: steadier than wall time when others load the machine.
  const cpuPerKRows = (cpu: Cpu, lines: number) =>
    ((cpu.app + cpu.postgres + cpu.client) / (lines - 1)) * 1000;
  const exportCpu = sum((r) => cpuPerKRows(r.exported.cpu, r.exported.lines)) / rounds.length;
  const copyCpu = sum((r) => cpuPerKRows(r.copied.cpu, r.copied.lines)) / rounds.length;
  const memoryMet = rssGrowth < 50 * MB && heapGrowth < 50 * MB;
  const firstByteMs = Math.max(...rounds.map((r) => r.exported.firstByteMs));
  return {
    firstByteMs,
    exportRate,
    copyRate,
    ratio,
    rssGrowth,
    heapGrowth,
    rowsRight,
    copyRowsRight,
    headerRight,
    ratioMet,
    exportCpu,
    copyCpu,
    memoryMet,
  };
}

type Figures = ReturnType<typeof figuresOf>;

function renderMarkdown(run: HistoryRun, figures: Figures, loadAfter: number[]): string {
  const { pages, queryTimings, rounds, diagnostic, seeded, seedSeconds, counts, check, checkSeconds } = run;
  const { pgVersion, loadBefore } = run;
  const { ratio, exportRate, copyRate, ratioMet, exportCpu, copyCpu, rssGrowth, heapGrowth, memoryMet } =
    figures;
  const { rowsRight, headerRight, copyRowsRight } = figures;
  const machine = machineInfo();
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
            : `the export is the same rows as keyset batches of COPY, each its own statement (planned and started anew) beside one COPY of the whole history, on a machine whose 2 cores PostgreSQL, the app and the client share`,
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
  return `# History benchmark

Run on ${new Date().toISOString().slice(0, 10)} with \`${settingsUsed()}npm run bench:history\` (bench/history/run.ts).

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

- **Export ÷ COPY: ${ratio.toFixed(2)}** (${whole(exportRate)} ÷ ${whole(copyRate)} rows/s over all rounds) — goal ≥ 0.8: **${ratioMet ? 'met' : 'NOT met'}**.
- Per round: ${rounds.map((r) => `${r.round}: ${(r.exported.rowsPerSecond / r.copied.rowsPerSecond).toFixed(2)}`).join(', ')}. CPU, which the other
  engineers' load moves less than wall time: the export spends ${(exportCpu * 1000).toFixed(0)} ms of CPU per 1,000 rows (app + PostgreSQL + client),
  COPY ${(copyCpu * 1000).toFixed(0)} ms: **COPY ÷ export CPU = ${(copyCpu / exportCpu).toFixed(2)}**.
- **First byte of the export: ${figures.firstByteMs.toFixed(0)} ms** (the slowest round): the first batch's ${whole(HISTORY_EXPORT_BATCHES.first)} journals, not the whole history, stand between the request and its first rows.
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

The export is itself PostgreSQL's COPY (issue 43): the app writes the header, then streams
\`COPY (<the export's query>) TO STDOUT (FORMAT csv)\` from a pooled connection, its LF line ends made CRLF, in
keyset batches (each COPY the next journals older than the last id sent; ${whole(HISTORY_EXPORT_BATCHES.first)} journals first,
each next batch twice as large up to ${whole(HISTORY_EXPORT_BATCHES.most)}); each reads the customer's accounts backwards along the
(account_id, journal_id) index and merges them in journal order, so no statement sorts and its first rows go out at once. The client reads the response as it arrives, counting bytes and line ends and
keeping nothing. COPY here is the same query without the batches (\`historyCsvQuery\` of
apps/server/src/modules/portfolio/export-query.ts, compiled by the benchmark for the same customer and accounts): every row in one statement, run
straight on PostgreSQL with pg-copy-streams from a fresh connection, in a read-only transaction with JIT off as the
app runs each of its COPYs, and discarded the same way; the app's header
is fed to its counter first, so both files can be compared whole.

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
${(diagnostic.memory.peakLiveHeap ?? Infinity) - diagnostic.memory.baselineHeap < 20 * MB ? 'garbage at most: chunks of CSV bytes on their way to the socket, not data the export keeps' : 'not just garbage: the export holds a lot at once'}.

Export: **first byte after ${rounds.map((r) => `${r.exported.firstByteMs.toFixed(0)} ms`).join(', ')}** (round ${rounds.map((r) => r.round).join(', ')}); the server's event loop let its sampler
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
  legs: the customer's GBP and coin legs, house inventory and fee revenue, each with its \`trades\` row), 2 GBP withdrawals (3 legs, £5 fee), 2
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
}

/** The suite's rows: the export beside COPY, the server's memory, each page's latency. */
function workloadsOf(pages: PageResult[], figures: Figures): Comparison[] {
  const { exportRate, copyRate, ratio, ratioMet, rssGrowth, heapGrowth, firstByteMs } = figures;
  const rows = `${whole(TRANSACTIONS)} rows`;
  return [
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
      goal: { target: '≥ 0.8 × COPY', met: ratioMet },
    },
    {
      workload: `The export's first byte over HTTP, ${rows}: the slowest round`,
      ours: { value: firstByteMs, unit: 'ms' },
      peer: null,
      ratio: null,
      better: 'lower',
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
}

/** Logs the overall figures, prints the report and writes it with its summary for the suite. */
/** The BENCH_HISTORY_* settings this run was given, as they would be typed before the command. */
function settingsUsed(): string {
  return Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_HISTORY_'))
    .map(([name, value]) => `${name}=${value} `)
    .sort()
    .join('');
}

export async function writeReport(run: HistoryRun): Promise<void> {
  const loadAfter = os.loadavg();
  const figures = figuresOf(run.rounds);
  const { exportRate, copyRate, ratio, ratioMet, rssGrowth, heapGrowth, memoryMet, rowsRight } = figures;
  log(
    `overall: export ${whole(exportRate)} rows/s, COPY ${whole(copyRate)} rows/s, ratio ${ratio.toFixed(3)} (goal ≥ 0.8: ${ratioMet ? 'met' : 'NOT met'}); ` +
      `peak growth RSS ${mib(rssGrowth)} MiB, heap ${mib(heapGrowth)} MiB (goal < 50 MB: ${memoryMet ? 'met' : 'NOT met'}); ` +
      `export rows = ${TRANSACTIONS} + header: ${rowsRight ? 'yes' : 'NO'}`,
  );
  const markdown = renderMarkdown(run, figures, loadAfter);
  console.log(markdown);
  log(`wrote ${await writeResult('history.md', markdown)}`);
  log(`wrote ${await writeSummary('history', { workloads: workloadsOf(run.pages, figures) })}`);
}
