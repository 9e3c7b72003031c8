/** The trading benchmark's report: bench/results/trading.md, and trading.json for the suite. */
import { machineInfo } from '../ledger/report.js';
import { log, writeResult, writeSummary, type Comparison } from '../support.js';
import { topStatements, totalOf, type Check } from './app-process.js';
import type { Fills } from './fills.js';
import { FILLS_FLOOR_GOAL, FILLS_WITHIN_MS, fillsMet, fillsSection } from './report-fills.js';
import { FOREIGN_KEY_ROWS, type ForeignKeys } from './foreign-keys.js';
import {
  CROSSING_MID,
  LOAD_GOAL,
  LOAD_WAIT_SECONDS,
  ORDER_QUANTITY,
  ORDERS,
  PLACING_CLIENTS,
} from './settings.js';
import {
  instantComparisons,
  instantGoals,
  renderInstantSection,
  type InstantInput,
} from './report-instant.js';
import { renderTierVolumeSection, type TierVolume } from './tier-volume.js';

type ReportInput = InstantInput & {
  loadBefore: number[];
  loadAfter: number[];
  pgVersion: string;
  liteVersion: string;
  pgSettings: string;
  fills: Fills[];
  foreignKeys: ForeignKeys | undefined;
  tierVolume: TierVolume | undefined;
  checks: { engine: string; check: Check }[];
};

const whole = (value: number) => Math.round(value).toLocaleString('en-GB');
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
const loads = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');

/** Prints the report and (`write`, not in a partial run) writes it with its summary for the suite. */
export async function writeReport(input: ReportInput, options: { write: boolean }): Promise<void> {
  const markdown = renderReport(input);
  console.log(markdown);
  if (!options.write) {
    log('a partial run (BENCH_TRADING_ONLY): bench/results/trading.md and trading.json left as they were');
    return;
  }
  log(`wrote ${await writeResult('trading.md', markdown)}`);
  log(
    `wrote ${await writeSummary('trading', { workloads: [...instantComparisons(input), ...fillComparisons(input.fills)] })}`,
  );
}

/** Five entries, a trade whose quote key is null (PostgreSQL checks no key whose column is null) and a journal. */
const keyChecksPerFill = (keys: ForeignKeys) => 5 * keys.entryKeys + (keys.tradeKeys - 1) + keys.journalKeys;

/** What the keys of the fills cost, beside the CPU the 1 s goal leaves for them on `cpus` cores. */
function foreignKeyText(keys: ForeignKeys, cpus: number): string {
  const checks = keyChecksPerFill(keys);
  const microsecondsAFill = checks * keys.microseconds;
  const budgetMicroseconds = (cpus * 1_000_000) / ORDERS;
  return `The foreign-key checks alone take ${((microsecondsAFill / budgetMicroseconds) * 100).toFixed(0)} % of that CPU: a fill makes ${checks} (${keys.entryKeys} for each of its five entries, ${keys.tradeKeys - 1} for its trade, whose quote key is null, ${keys.journalKeys} for its journal), and one costs
${keys.microseconds.toFixed(1)} µs of PostgreSQL's CPU on this server (measured in the same run: ${whole(FOREIGN_KEY_ROWS)} rows inserted with a key and without one, best of three),
${(microsecondsAFill / 1000).toFixed(2)} ms a fill, ${whole((microsecondsAFill * ORDERS) / 1000)} ms of CPU for ${whole(ORDERS)} fills before a row or an index entry is written.
Each key guards the ledger (an entry on an account that does not exist, or in another asset than its account's, is refused
by the database); an entry's account and asset are one composite key since migration 0032, one check fewer an entry.`;
}

/** The crossing tick, for the suite's table. */
function fillComparisons(fills: Fills[]): Comparison[] {
  const crossing = fills.flatMap((fill): Comparison[] => [
    {
      workload: `Placing ${fill.placing.orders.toLocaleString('en-GB')} limit orders over HTTP, ${fill.engine}, ${PLACING_CLIENTS} connections`,
      ours: { value: fill.placing.perSecond, unit: 'placements/s' },
      peer: null,
      ratio: null,
      better: 'higher',
    },
    {
      workload: `${ORDERS.toLocaleString('en-GB')} resting limit orders crossed by one tick, ${fill.engine}: until every fill committed`,
      ours: { value: fill.result.allCommittedMs, unit: 'ms' },
      peer: null,
      ratio: null,
      better: 'lower',
      goal: {
        target: `within ${FILLS_WITHIN_MS / 1000} s and ≥ ${FILLS_FLOOR_GOAL} × psql`,
        met: fillsMet(fill),
      },
    },
  ]);
  return crossing;
}

/** Sequential scans of accounts during the fills, when there are about one a fill or more. */
function accountScans(fill: Fills): string {
  const accounts = fill.scans?.find(([table]) => table === 'accounts')?.[1];
  const perFill = (accounts?.seq ?? 0) / Math.max(1, fill.result.filled);
  const lookUps = fill.statements?.find(([key]) => key === 'select accounts')?.[1] ?? 0;
  if (!accounts || perFill < 0.5) return '';
  return `
PostgreSQL read the whole \`accounts\` table ${perFill.toFixed(1)} times a fill (${Math.round(accounts.seqRows / accounts.seq).toLocaleString('en-GB')} rows a scan,
${Math.round(accounts.seqRows / 1e6).toLocaleString('en-GB')} million rows over the fills) with statistics fresh (ANALYZE ran just before the tick), about as often as
the ledger's account look-up (\`select accounts\`, ${(lookUps / Math.max(1, fill.result.filled)).toFixed(1)} a fill) runs: an EXPLAIN of that look-up is the first thing
to try for PostgreSQL's share.`;
}

/** How the app's PostgreSQL backends spent the fills, from the 50 ms samples. */
function fillStates(fill: Fills): string {
  if (!fill.waits) return '';
  const sum = (prefix: string) =>
    fill
      .waits!.events.filter(([event]) => event.startsWith(prefix))
      .reduce((total, [, average]) => total + average, 0);
  const cpu =
    fill.postgresCpu === null
      ? ''
      : ` The app's process used ${(fill.result.appCpuSeconds / (fill.result.allCommittedMs / 1000)).toFixed(2)} of a core and PostgreSQL ${(fill.postgresCpu / (fill.result.allCommittedMs / 1000)).toFixed(2)}, of the 2 the machine has.`;
  return `On average ${sum('active').toFixed(2)} of the app's backends were active and ${sum('idle in transaction').toFixed(2)} idle in a transaction
(waiting for the app's next statement).${cpu}${accountScans(fill)}`;
}

/** One engine's crossing tick: the placing, the fills' timing, CPU and what PostgreSQL did. */
function renderFillSection(fill: Fills): string {
  const r = fill.result;
  const met = !r.timedOut && r.filled >= ORDERS && r.allCommittedMs <= FILLS_WITHIN_MS;
  const perFill = r.allCommittedMs / Math.max(1, r.filled);
  const appShare = r.appCpuSeconds / (r.allCommittedMs / 1000);
  const pgShare = fill.postgresCpu === null ? null : fill.postgresCpu / (r.allCommittedMs / 1000);
  const waits = fill.waits
    ? fill.waits.events
        .slice(0, 6)
        .map(([event, average]) => `\`${event}\` ${average.toFixed(2)}`)
        .join(', ')
    : null;
  return `### ${fill.engine}

- ${whole(fill.placing.orders)} limit buys of ${ORDER_QUANTITY} BTC at £15,000–£15,099 (${whole(ORDERS / fill.customers)} each for ${whole(fill.customers)} trading customers),
placed through \`POST /api/v1/crypto/limit_order\` by ${PLACING_CLIENTS} connections in ${fill.placing.seconds.toFixed(1)} s
(${whole(fill.placing.perSecond)} placements/s, p50 ${ms(fill.placing.p50)} ms, p99 ${ms(fill.placing.p99)} ms), the market resting at £20,000.
- One tick to mid £${whole(Number(CROSSING_MID))} (ask about £10,050) crosses them all.
- **All ${whole(r.filled)} fills committed ${whole(r.allCommittedMs)} ms after the tick** (${r.stillOpen} still open${r.timedOut ? ', TIMED OUT' : ''}) —
goal within ${FILLS_WITHIN_MS / 1000} s: **${met ? 'met' : 'NOT met'}**. That is ${whole(r.filled / (r.allCommittedMs / 1000))} fills/s, ${perFill.toFixed(2)} ms a fill.
- The app's own \`filled_at\` stamps: first fill ${whole(r.firstFillMs)} ms after the tick, last ${whole(r.lastFillMs)} ms; the tick itself
(\`market.drive\`: the price published, the candle written) took ${r.tickMs.toFixed(1)} ms. The benchmark polled the orders ${whole(r.polls)} times
to see the last commit.
- CPU during the fills: the app's process ${r.appCpuSeconds.toFixed(1)} s (${appShare.toFixed(2)} of a core${fill.postgresCpu === null ? ', PGlite included' : ''})${fill.postgresCpu === null ? '' : `, PostgreSQL ${fill.postgresCpu.toFixed(1)} s (${pgShare!.toFixed(2)} of a core)`}.
${fill.transactions === null ? '' : `- Transactions committed on the app's database (\`pg_stat_database.xact_commit\`; a statement outside BEGIN…COMMIT counts as one): ${whole(fill.transactions)} (${(fill.transactions / Math.max(1, r.filled)).toFixed(2)} a fill).\n`}${fill.statements ? `- Statements the app sent per fill: **${(totalOf(fill.statements) / Math.max(1, r.filled)).toFixed(2)}**, ${whole(totalOf(fill.statements))} in all (${topStatements(fill.statements, 1, 40)}).\n` : ''}${
    fill.waitedMs
      ? `- Time the app waited on each kind of statement, from sending it to its answer (the two lanes' waits added up, so they can exceed the wall time): ${fill.waitedMs
          .slice(0, 12)
          .map(([kind, waited]) => `\`${kind}\` ${whole(waited)} ms`)
          .join(', ')}.\n`
      : ''
  }${
    fill.scans
      ? `- Table scans on the app's database during the fills (\`pg_stat_user_tables\`, the benchmark's polls included): ${fill.scans
          .slice(0, 8)
          .map(
            ([table, d]) =>
              `${table} ${whole(d.seq)} sequential (${whole(d.seqRows)} rows read), ${whole(d.idx)} by index`,
          )
          .join('; ')}.\n`
      : ''
  }${waits ? `- The app's backends, sampled every 50 ms (average number in each state): ${waits}.\n` : ''}`;
}

function renderReport(input: ReportInput): string {
  const machine = machineInfo();
  const cores = machine.cpus;
  const fillSections = input.fills.map(renderFillSection);
  const pgFill = input.fills.find((fill) => fill.engine === 'PostgreSQL');
  const fillMet = pgFill !== undefined && fillsMet(pgFill);
  const checkLines = input.checks.map(
    ({ engine, check }) =>
      `- ${engine}: \`checkLedger\` with the trading and trading-volume checks **${check.ok ? 'passed' : 'FAILED'}** after the runs (${check.seconds.toFixed(1)} s; ${Object.entries(
        check.counts,
      )
        .map(([key, count]) => `${whole(count)} ${key}`)
        .join(', ')}).${check.ok ? '' : `\n\n\`\`\`\n${check.violations}\n\`\`\``}`,
  );

  // A partial run (BENCH_TRADING_ONLY=instant) crosses no orders.
  const fillsText =
    input.fills.length === 0
      ? ''
      : `## Limit orders crossed by one tick

Measured from the tick (\`market.drive\` in the app's process, which publishes the price to the fill engine the
way every market tick does) until a poll of \`orders\` (every 10 ms for 2 s, then every 100 ms) finds none
of them open any more, i.e. every fill committed.
${input.fills.length < 2 ? 'On PostgreSQL only (`BENCH_TRADING_PGLITE_FILLS=1` also runs it on PGlite).\n' : ''}
${fillSections.join('\n')}
${pgFill && pgFill.floorRatio !== null ? fillsSection(pgFill) : ''}
${
  fillMet
    ? ''
    : `### Where the time goes

The fill engine (\`sweep\` in apps/server/src/modules/trading/fill-engine.ts) fills orders in sets: a pass lists up to
1,000 crossed orders and splits them into two lanes by customer; each lane fills its orders in one transaction with
a fixed number of statements (the orders locked, their customers read, their holds posted together by the ledger's
\`postHolds\` — holds, journals, customer accounts, house deltas and entries one statement each — the trades inserted
and the orders marked filled), the two lanes at once so that the app prices one batch while PostgreSQL writes the
other; each transaction writes its fills' mails and notifications as one set of outbox rows, which the outbox's
sender sends (decision 136). ${
        pgFill && pgFill.postgresCpu !== null
          ? `Here a fill cost ${((pgFill.postgresCpu / Math.max(1, pgFill.result.filled)) * 1000).toFixed(2)} ms of PostgreSQL's CPU and ${((pgFill.result.appCpuSeconds / Math.max(1, pgFill.result.filled)) * 1000).toFixed(2)} ms of the app's,
${(((pgFill.postgresCpu + pgFill.result.appCpuSeconds) / Math.max(1, pgFill.result.filled)) * 1000).toFixed(2)} ms in all: with 2 cores and nothing else running, ${whole(ORDERS)} fills need at least ${whole(((pgFill.postgresCpu + pgFill.result.appCpuSeconds) / 2) * 1000)} ms of wall time.
${fillStates(pgFill)}`
          : ''
      }
The ${FILLS_WITHIN_MS / 1000} s goal allows ${(FILLS_WITHIN_MS / ORDERS).toFixed(2)} ms a fill for everything, ${((machine.cpus * FILLS_WITHIN_MS) / ORDERS).toFixed(2)} ms of CPU on the ${machine.cpus} cores. What remains is per-row work that a set does not remove:
each fill writes five entries, a journal, a trade and changes a hold and an order, each row with its indexes and
foreign-key checks, and the app prices each order and builds its postings. ${
        input.foreignKeys ? foreignKeyText(input.foreignKeys, machine.cpus) : ''
      }
`
}
`;

  return `# Trading benchmark

Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:trading\` (bench/trading/run.ts).

The whole Florin app (\`buildApp\`, production settings, logging at warn) in its own Node process on loopback
(bench/trading/server.ts), real session cookies, and the benchmark process as the clients over real HTTP (node:http,
one keep-alive connection per client). The app's market is ticked once a second at a fixed BTC/GBP mid, as
main.ts's market would tick, and the app's own fill engine (subscribed to the market as app.ts subscribes it) fills
resting orders on every tick.

**Shared machine**: ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB.toFixed(1)} GiB, Node ${machine.node},
${machine.os}. The app, PostgreSQL (or PGlite, inside the app's process), pgbench and the clients all share those
${machine.cpus} cores, and other engineers were building and testing on them. Load average before the run
${loads(input.loadBefore)} (the run waits up to ${LOAD_WAIT_SECONDS} s for the 1-minute figure to fall below ${LOAD_GOAL}), after it
${loads(input.loadAfter)}; "machine busy" in the tables counts every process on the machine, ours or not.
Absolute figures move by tens of percent between invocations; the ratios, taken seconds apart, move less.

## Goals

${instantGoals(input)}
${
  pgFill
    ? `- **${whole(ORDERS)} resting limit orders crossed by one tick: all committed ${whole(pgFill.result.allCommittedMs)} ms after the tick** (PostgreSQL), **${pgFill.floorRatio === null ? 'no floor taken' : `${pgFill.floorRatio.toFixed(2)} × the same rows inserted by psql`}** —
  goals within ${FILLS_WITHIN_MS / 1000} s and ≥ ${FILLS_FLOOR_GOAL} × psql: **${fillMet ? 'met' : 'NOT met'}**.${fillMet ? '' : ' Where the time goes: see "Limit orders crossed by one tick" below.'}`
    : `- ${whole(ORDERS)} resting limit orders crossed by one tick: not run in this run.`
}

${renderInstantSection(input, cores)}
${fillsText}${input.tierVolume ? renderTierVolumeSection(input.tierVolume) : ''}
## Ledger

${checkLines.join('\n')}

## Settings

- PostgreSQL: ${input.pgVersion}; the throw-away server of \`apps/server/src/test/postgres-server.ts\` on loopback TCP
  (${input.pgSettings}); durability is off, so the figures measure CPU and round trips, not the disk. The app's pool: 20 connections.
- PGlite: ${input.liteVersion}; in a data folder in /tmp, as the app runs by default without DATABASE_URL.
- The app: \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, the rate limit raised (every client is 127.0.0.1), the dev
  mailbox as the mailer, the house roll-up every 5 s as main.ts runs it.

## How to run

\`\`\`
npm run bench:trading                                          # from the repository root
BENCH_TRADING_SECONDS=5 BENCH_TRADING_ORDERS=2000 npm run bench:trading  # a quicker, smaller run
npx tsx bench/trading/tier-volume-run.ts                        # only the quote against the year's trades
BENCH_TRADING_ONLY=instant BENCH_TRADING_SECONDS=5 npm run bench:trading  # only the instant executions and their floors (writes no results)
\`\`\`

It needs PostgreSQL 15 from Debian (\`apt-get install -y postgresql\`) for the server and pgbench, and writes this
file, \`bench/results/trading.md\`.
`;
}
