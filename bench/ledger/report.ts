import os from 'node:os';
import type { StatementCount, WaitSample } from './probes.js';
import type { RunResult } from './workloads.js';

export type Engine = 'PostgreSQL' | 'PGlite';

export type Row = {
  engine: Engine;
  workload: string;
  legs: number | null;
  clients: number;
  result: RunResult;
  waits?: WaitSample;
  /** Journals and entries found in the database under this run's key prefix. */
  stored?: { journals: number; entries: number };
};

export type Integrity = {
  engine: Engine;
  deltasRolledUp: number;
  rollUpSeconds: number;
  checkOk: boolean;
  violations: string;
  /** Every run's journal count in the database equals the client-side count, and entries = legs × journals. */
  countsMatch: boolean;
};

export type Report = {
  date: Date;
  seconds: number;
  clientCounts: number[];
  pgbench: { scale: number; threads: number; initSeconds: number };
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; os: string };
  postgresVersion: string;
  pgliteVersion: string;
  postgresSettings: [string, string][];
  seeding: { engine: Engine; journals: number; seconds: number }[];
  statements: { workload: string; count: StatementCount }[];
  rows: Row[];
  integrity: Integrity[];
  prototype?: string;
  /** Where the report is written, relative to the repository root. */
  file: string;
};

export function machineInfo(): Report['machine'] {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: os.totalmem() / 2 ** 30,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
  };
}

const fixed = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '–';

export const isPgbench = (row: Row) => row.workload.startsWith('pgbench');

export function pgbenchOf(report: Report, row: Row): Row | undefined {
  return report.rows.find(
    (other) => isPgbench(other) && other.engine === 'PostgreSQL' && other.clients === row.clients,
  );
}

export function ratioOf(report: Report, row: Row): number | null {
  const base = pgbenchOf(report, row);
  return base ? row.result.perSecond / base.result.perSecond : null;
}

/** 5-leg trades on PostgreSQL at 32 clients ≥ 0.5 × pgbench tpcb-like at 32 clients, same run. */
export function goal(report: Report): { ratio: number | null; met: boolean } {
  const row = report.rows.find(
    (candidate) =>
      candidate.engine === 'PostgreSQL' && candidate.workload === 'trade' && candidate.clients === 32,
  );
  const ratio = row ? ratioOf(report, row) : null;
  return { ratio, met: ratio !== null && ratio >= 0.5 };
}

/** CPU per journal (ms) on the client and server side, and the share of the machine other processes took. */
export function cpuFigures(row: Row) {
  const { cpu, journals } = row.result;
  const client = isPgbench(row) ? cpu.children : cpu.node;
  const ours = cpu.node + cpu.children + (cpu.server ?? 0);
  return {
    clientMs: (1000 * client) / journals,
    serverMs: cpu.server === null ? Number.NaN : (1000 * cpu.server) / journals,
    /** Cores' worth of CPU other processes on the machine used during the run. */
    others: Math.max(0, cpu.machine - ours) / cpu.wall,
    busy: cpu.machine / cpu.wall,
  };
}

export function resultsTable(report: Report): string {
  const lines = [
    '| engine | workload | legs | clients | journals (tx) | journals/s (TPS) | p50 ms | p99 ms | errors | client CPU ms/journal | server CPU ms/journal | machine busy (cores) | other processes (cores) | ours ÷ pgbench |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|',
  ];
  for (const row of report.rows) {
    const ratio = isPgbench(row) ? null : ratioOf(report, row);
    const cpu = cpuFigures(row);
    const errors = Object.entries(row.result.errors)
      .map(([code, count]) => `${code} ${count}`)
      .join(', ');
    lines.push(
      `| ${row.engine} | ${row.workload} | ${row.legs ?? '–'} | ${row.clients} | ${fixed(row.result.journals)} | ` +
        `**${fixed(row.result.perSecond)}** | ${fixed(row.result.p50, 2)} | ${fixed(row.result.p99, 2)} | ` +
        `${errors || '0'} | ${fixed(cpu.clientMs, 2)} | ${row.engine === 'PGlite' ? 'in client' : fixed(cpu.serverMs, 2)} | ` +
        `${fixed(cpu.busy, 2)} | ${fixed(cpu.others, 2)} | ${ratio === null ? '–' : fixed(ratio, 2)} |`,
    );
  }
  return lines.join('\n');
}

function waitsSection(report: Report): string {
  const parts: string[] = [];
  for (const row of report.rows) {
    if (!row.waits) continue;
    const events = row.waits.events
      .slice(0, 6)
      .map(([event, average]) => `${event} ${fixed(average, 1)}`)
      .join('; ');
    const locks = row.waits.lockWaits
      .slice(0, 4)
      .map(([lock, average]) => `${lock} ${fixed(average, 2)}`)
      .join('; ');
    parts.push(
      `- ${row.engine} ${row.workload}, ${row.clients} clients (${row.waits.samples} samples): ${events || 'no backends seen'}. ` +
        `Ungranted locks: ${locks || 'none seen'}.`,
    );
  }
  return parts.join('\n');
}

export function renderMarkdown(report: Report): string {
  const { ratio, met } = goal(report);
  const statementLines = report.statements.map(
    ({ workload, count }) =>
      `- ${workload}: **${fixed(count.perJournal, 1)}** round trips per journal (` +
      count.breakdown.map(([statement, per]) => `${statement} ×${fixed(per, 1)}`).join(', ') +
      ')',
  );
  const ratioLines = report.rows
    .filter((row) => !isPgbench(row))
    .map((row) => {
      const base = pgbenchOf(report, row);
      const value = ratioOf(report, row);
      return (
        `- ${row.engine} ${row.workload} (${row.legs} legs), ${row.clients} clients: ` +
        `${fixed(row.result.perSecond)} ÷ ${base ? fixed(base.result.perSecond) : '–'} = ` +
        `**${value === null ? '–' : fixed(value, 2)}**`
      );
    });
  const integrityLines = report.integrity.map(
    (item) =>
      `- ${item.engine}: rolled up ${fixed(item.deltasRolledUp)} house deltas in ${fixed(item.rollUpSeconds, 2)} s; ` +
      `checkLedger ${item.checkOk ? '**passed**' : `**FAILED**:\n\n\`\`\`\n${item.violations}\n\`\`\``}; ` +
      `journals and entries counted in the database ${item.countsMatch ? 'match' : '**DO NOT match**'} the clients' counts.`,
  );
  return `# Ledger benchmark

Written by \`bench/ledger/run.ts\` on ${report.date.toISOString()}.${report.prototype ? `\n\n**Ledger under test: ${report.prototype}**` : ''}

## Goal

5-leg trades on PostgreSQL at 32 clients ≥ 0.5 × pgbench tpcb-like TPS on the same run:
ratio **${ratio === null ? '–' : fixed(ratio, 2)}**, goal **${met ? 'met' : 'NOT met'}**.

## Results (${report.seconds} s per run)

${resultsTable(report)}

Journals/s counts journals that committed, over the wall time until the last in-flight one finished; pgbench's figure
is its own "tps (without initial connection time)". Latency is per journal (per transaction for pgbench, from its
\`-l\` log). CPU is read from /proc: client = the benchmark's Node process (the ledger, Kysely, pg; for PGlite the
database too) or pgbench; server = the PostgreSQL server's processes. All of them share the machine's
${report.machine.cpus} cores; "other processes" is CPU the machine spent on anything else during the run (other work on
the machine at the time), which takes cores away from the figures. The machine is shared, so absolute figures move
by ±30% from one invocation to the next; the ratios, taken a few seconds apart on the same server, move much less.

## Ours ÷ pgbench (same client count, same server, same invocation)

${ratioLines.join('\n')}

PGlite rows are divided by pgbench on the PostgreSQL server, for scale only: PGlite has one connection, so its
${report.clientCounts.join(' and ')} clients queue on it one journal at a time, and concurrency only adds latency.

## Machine

- ${report.machine.cpus} CPUs (${report.machine.cpuModel}), ${fixed(report.machine.memoryGiB, 1)} GiB memory, ${report.machine.os}
- Node ${report.machine.node}
- ${report.postgresVersion}
- PGlite ${report.pgliteVersion}, in memory, in the benchmark's own Node process

## Settings

- PostgreSQL: the throw-away server of \`apps/server/src/test/postgres-server.ts\` on loopback TCP; ${report.postgresSettings
    .map(([name, value]) => `${name}=${value}`)
    .join(', ')}. Durability is off, so these figures measure CPU and locking, not the disk.
- Ledger: ${report.prototype ?? '`createLedger().postJournal` from `apps/server/src/ledger`'}, one instance per
  engine (so its house-account cache is warm, as in a running server), Kysely over a \`pg\` pool of exactly as many connections as clients, opened
  before the clock starts. Each client is a loop awaiting one journal at a time.
- Data: 1,000 customers, each funded by a GBP deposit (Dr bank / Cr user) and a BTC deposit (Dr custody / Cr user),
  and 1,000 BTC moved into the house inventory. ${report.seeding
    .map((item) => `${item.engine}: ${fixed(item.journals)} seed journals in ${fixed(item.seconds, 1)} s`)
    .join('; ')}.
- transfer (2 legs): GBP between two distinct random customers' available accounts. trade (5 legs): a buy of BTC
  at £50,000 with a 0.5% fee by one random customer (Dr user:GBP cost+fee / Cr inventory:GBP cost / Cr
  fee_revenue:GBP fee; Dr inventory:BTC qty / Cr user:BTC qty). Every journal has its own idempotency key.
- pgbench: built-in tpcb-like script, default simple query protocol, \`-j ${report.pgbench.threads}\`, \`-T ${report.seconds}\`,
  scale **${report.pgbench.scale}** (${fixed(report.pgbench.scale * 100_000)} accounts, ${report.pgbench.scale} branches; \`pgbench -i\` took
  ${fixed(report.pgbench.initSeconds, 1)} s). Each transaction updates one of the ${report.pgbench.scale} branch rows, so with fewer
  branches than clients pgbench mostly measures its own row-lock queue on them. pgbench's documentation advises a
  scale at least as large as the number of clients, so the default is the largest client count (32): the baseline
  is not held back by branch contention at either client count. Override it with BENCH_PGBENCH_SCALE (scale 10 is
  quicker to initialise but queues 32 clients on 10 branch rows).

## Statements per journal (PostgreSQL, one journal at a time, warm cache)

${statementLines.join('\n')}

pgbench's tpcb-like transaction is 7 (BEGIN, 3 UPDATEs, SELECT, INSERT, END), each in the simple protocol; \`pg\`
sends every parameterised statement as parse/bind/execute in one round trip.

## Where the time goes (PostgreSQL, pg_stat_activity and pg_locks sampled every 50 ms)

Average number of the database's client backends in each state / wait event (the sampler's own connection left
out; "idle" connections are the clients' between journals, or pgbench's while it starts and stops):

${waitsSection(report)}

"idle in transaction / Client:ClientRead" is a backend waiting for the client's next statement mid-transaction;
"active" with no wait event is running on a CPU.

## Correctness after the runs

${integrityLines.join('\n')}

## How to run

\`\`\`
npm run bench:ledger                      # from the repository root; about 2½ minutes
BENCH_SECONDS=30 npm run bench:ledger     # longer runs
BENCH_PGBENCH_SCALE=10 npm run bench:ledger
BENCH_LEDGER=prototype-function npm run bench:ledger   # the one-statement prototype, to bench/results/ledger-prototype-function.md
\`\`\`

It needs PostgreSQL 15 from Debian (\`apt-get install -y postgresql\`; the bench starts its own throw-away server
and stops it at the end) and writes this file, \`${report.file}\`.
`;
}
