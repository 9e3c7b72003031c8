/**
 * The benchmark suite (issue 15): every runner in bench/, one after the other,
 * each in its own process with this one's environment (so every BENCH_*
 * setting still applies), then bench/results/README.md: one table of every
 * workload beside its peer from the same run, built from the summaries the
 * runners write beside their reports (`<name>.json`, see support.ts), and the
 * Lighthouse cold loads.
 *
 *   npm run bench   BENCH_SUITE_ONLY (runner names, comma-separated: run only these),
 *                   BENCH_SUITE_REPORT_ONLY=1 (run none, rewrite the README from the summaries there are),
 *                   BENCH_RESULTS_DIR (reports, summaries and README there instead of bench/results)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  log,
  resultsDir,
  resultsPath,
  writeResult,
  type ColdLoad,
  type Comparison,
  type Summary,
} from './support.js';

/** In the order the suite runs them: the quick and quiet ones first, Lighthouse (which builds the web app) last. */
const RUNNERS = [
  { name: 'ledger', script: 'bench:ledger', file: 'ledger/run.ts', title: 'Ledger' },
  { name: 'ws-fanout', script: 'bench:ws', file: 'ws-fanout/run.ts', title: 'Websocket fan-out' },
  { name: 'history', script: 'bench:history', file: 'history/run.ts', title: 'History' },
  { name: 'trading', script: 'bench:trading', file: 'trading/run.ts', title: 'Trading' },
  { name: 'scale', script: 'bench:scale', file: 'scale/run.ts', title: 'Scale' },
  { name: 'lighthouse', script: 'bench:lighthouse', file: 'lighthouse/run.ts', title: 'Lighthouse' },
] as const;
type Runner = (typeof RUNNERS)[number];

/** The dashboard's route in the web app (apps/web/src/app/router.tsx): the page issue 15 wants a cold load of. */
const DASHBOARD_PATH = '/user';

const benchDir = fileURLToPath(new URL('.', import.meta.url));

/** How one runner's run in this suite run ended: `problem` null when it exited 0 and wrote its summary. */
type Outcome = { runner: Runner; seconds: number; problem: string | null };

function selectRunners(): Runner[] {
  const only = process.env.BENCH_SUITE_ONLY;
  if (!only) return [...RUNNERS];
  const names = only.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !RUNNERS.some((runner) => runner.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_SUITE_ONLY names no runner ${unknown.join(', ')}; the runners are ${RUNNERS.map((r) => r.name).join(', ')}`,
    );
  }
  return RUNNERS.filter((runner) => names.includes(runner.name));
}

/** Runs one runner as `tsx <file>` in bench/, as its npm script does, and waits for it. */
function runRunner(runner: Runner, suiteRun: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', runner.file], {
      cwd: benchDir,
      stdio: 'inherit',
      env: { ...process.env, BENCH_SUITE_RUN: suiteRun, BENCH_RESULTS_DIR: resultsDir },
    });
    child.once('error', reject);
    child.once('exit', (exitCode, signal) =>
      resolve({
        runner,
        seconds: (performance.now() - started) / 1000,
        problem: exitCode === 0 ? null : `it failed (${signal ?? `exit code ${exitCode}`})`,
      }),
    );
  });
}

async function readSummary(runner: Runner): Promise<Summary | null> {
  let text: string;
  try {
    text = await fs.readFile(resultsPath(`${runner.name}.json`), 'utf8');
  } catch {
    return null;
  }
  const summary = JSON.parse(text) as Summary;
  if (summary.name !== runner.name || !Array.isArray(summary.workloads)) {
    throw new Error(`${runner.name}.json is not a summary of ${runner.name}`);
  }
  return summary;
}

// ---------------------------------------------------------------------------------------------
// The README

const formatValue = (value: number) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-GB', {
        maximumFractionDigits: Math.abs(value) >= 1000 ? 0 : Math.abs(value) >= 100 ? 1 : 2,
      })
    : '–';
const formatFigure = (figure: { value: number; unit: string }) =>
  `${formatValue(figure.value)} ${figure.unit}`;
const formatRatio = (ratio: number | null) =>
  ratio === null || !Number.isFinite(ratio) ? '–' : `**${ratio.toFixed(2)}**`;
const formatGoal = (goal: Comparison['goal']) =>
  goal ? `${goal.target}: ${goal.met ? 'met' : '**NOT met**'}` : '–';
/** A date-time as "2026-11-22 09:04 UTC"; a bare date as it is. */
const formatWhen = (iso: string) => (iso.length > 10 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso);
const formatSettings = (summary: Summary) => {
  const entries = Object.entries(summary.settings);
  if (entries.length > 0) return entries.map(([name, value]) => `${name}=${value}`).join(', ');
  return summary.transcribed ? 'as its report says' : 'the defaults';
};

type Present = { runner: Runner; summary: Summary };

function provenance(present: Present[], outcomes: Outcome[] | null, suiteRun: string | null): string {
  const lines: string[] = [];
  if (outcomes && suiteRun) {
    lines.push(
      `This suite run (started ${formatWhen(suiteRun)}) ran ${outcomes
        .map((o) => `${o.runner.name} (${Math.round(o.seconds)} s)`)
        .join(', ')}${outcomes.length > 1 ? ', one after the other' : ''}.`,
    );
    for (const { runner, problem } of outcomes.filter((outcome) => outcome.problem)) {
      const summary = present.find((item) => item.runner === runner)?.summary;
      const shown = !summary
        ? 'there are no figures for it'
        : summary.suiteRun === suiteRun
          ? 'its figures below are from this run: see its report for what went wrong'
          : `its figures below are from its previous run (${formatWhen(summary.ranAt)})`;
      lines.push('', `**${runner.name}: ${problem}**; ${shown}.`);
    }
  } else {
    lines.push(
      `Rewritten from the summaries there were (\`BENCH_SUITE_REPORT_ONLY=1\`) on ${new Date().toISOString().slice(0, 10)}, without running a benchmark.`,
    );
  }
  const groups = new Map<string | null, Present[]>();
  for (const item of present) {
    groups.set(item.summary.suiteRun, [...(groups.get(item.summary.suiteRun) ?? []), item]);
  }
  lines.push(
    '',
    'Which benchmarks ran in the same suite run (one after the other) and which on their own:',
    '',
  );
  for (const [run, items] of groups) {
    const names = items.map((item) => item.runner.name).join(', ');
    lines.push(
      run === null
        ? `- Not in a suite run, each run on its own on the date in the table: ${names}.`
        : `- Suite run started ${formatWhen(run)}: ${names}.`,
    );
  }
  const transcribed = present.filter((item) => item.summary.transcribed);
  if (transcribed.length > 0) {
    lines.push(
      `- Summaries written by hand from their detailed reports, so the figures here are the reports' own: ${transcribed
        .map((i) => i.runner.name)
        .join(', ')}.`,
    );
  }
  lines.push(
    '',
    'Each ratio compares two figures taken in the same run of the same benchmark, seconds apart on the same',
    'machine; figures from different rows may come from different runs, days apart.',
    '',
    '| Benchmark | Run on | Settings | Summary | Detailed report |',
    '|---|---|---|---|---|',
    ...present.map(
      ({ runner, summary }) =>
        `| ${runner.title} | ${formatWhen(summary.ranAt)} | ${formatSettings(summary)} | ${summary.transcribed ? `by hand: ${summary.transcribed}` : `written by \`npm run ${runner.script}\``} | [${summary.details}](${summary.details}) |`,
    ),
  );
  return lines.join('\n');
}

function workloadTable(present: Present[]): string {
  const notes: string[] = [];
  const rows = present.flatMap(({ runner, summary }) =>
    summary.workloads.map((item) => {
      let workload = item.workload;
      if (item.note) {
        if (!notes.includes(item.note)) notes.push(item.note);
        workload += ` (note ${notes.indexOf(item.note) + 1})`;
      }
      return (
        `| [${runner.title}](${summary.details}) | ${workload} | ${formatFigure(item.ours)} | ` +
        `${item.peer ? `${item.peer.name}: ${formatFigure(item.peer)}` : '–'} | ${formatRatio(item.ratio)} | ` +
        `${item.better} | ${formatGoal(item.goal)} | ${summary.ranAt.slice(0, 10)} |`
      );
    }),
  );
  return [
    '| Benchmark | Workload | Ours | Peer in the same run | Ours ÷ peer | Better | Goal | Run on |',
    '|---|---|---:|---|---:|---|---|---|',
    ...rows,
    '',
    ...notes.map((note, index) => `${index + 1}. ${note.charAt(0).toUpperCase()}${note.slice(1)}.`),
  ].join('\n');
}

function coldLoadSection(lighthouse: Summary | undefined): string {
  const coldLoads: ColdLoad[] = lighthouse?.coldLoads ?? [];
  const lines = ['## Cold loads (Lighthouse)', ''];
  if (!lighthouse) {
    lines.push('No Lighthouse summary yet: run `npm run bench:lighthouse`.');
    return lines.join('\n');
  }
  lines.push(
    `Measured ${formatWhen(lighthouse.ranAt)} (see [${lighthouse.details}](${lighthouse.details})): Lighthouse 12 in Debian's`,
    "Chromium, each load with an empty cache; mobile is Lighthouse's default (simulated slow 4G, 4× slower CPU),",
    'desktop its desktop preset.',
    '',
    '| Page | Form factor | Performance | Accessibility | FCP ms | LCP ms | TBT ms | CLS | JS transferred KB (brotli) | Initial JS KB (gzip) |',
    '|---|---|---|---|---:|---:|---:|---:|---:|---:|',
    ...coldLoads.map(
      (load) =>
        `| ${load.page} (\`${load.path}\`) | ${load.formFactor} | ${load.performance} (goal ≥ ${load.performanceGoal}) | ` +
        `${load.accessibility} (goal ≥ ${load.accessibilityGoal}) | ${load.fcpMs.toFixed(0)} | ${load.lcpMs.toFixed(0)} | ` +
        `${load.tbtMs.toFixed(0)} | ${load.cls.toFixed(3)} | ${load.scriptKb.toFixed(1)} | ${load.initialJsKb.toFixed(1)} |`,
    ),
  );
  if (!coldLoads.some((load) => load.path === DASHBOARD_PATH)) {
    lines.push(
      '',
      `**The dashboard (\`${DASHBOARD_PATH}\`) has no cold-load figure yet.** bench/lighthouse/run.ts loads only the public`,
      'landing and login pages; the dashboard needs a signed-in customer, which the runner does not set up. The pages',
      'above are not a stand-in for it.',
    );
  }
  return lines.join('\n');
}

function renderReadme(present: Present[], outcomes: Outcome[] | null, suiteRun: string | null): string {
  const missing = RUNNERS.filter((runner) => !present.some((item) => item.runner === runner));
  return `# Benchmark results

Written by \`npm run bench\` (bench/suite.ts) on ${new Date().toISOString().slice(0, 10)} from the summaries the benchmarks
write beside their detailed reports in this folder. Every figure here is in the linked report, which says how it
was measured and on what machine: a shared one with 2 cores, where other people's work moves absolute figures by
tens of percent between runs, and ratios taken within one run much less.

## Which runs these are

${provenance(present, outcomes, suiteRun)}
${missing.length > 0 ? `\nNo summary yet from ${missing.map((runner) => runner.name).join(', ')}.\n` : ''}
## Every workload beside its peer

"Ours" is Florin's figure; the peer is the same work done by something else (pgbench, a bare \`ws\` server,
PostgreSQL's own \`COPY\`, one instance reached directly) in the same run; the ratio is ours ÷ peer, and "Better"
says which way is better for both figures and the ratio. "–": the benchmark has no peer for that workload.

${workloadTable(present)}

${coldLoadSection(present.find((item) => item.runner.name === 'lighthouse')?.summary)}

## How to run

\`\`\`
npm run bench                                   # every benchmark below, one after the other, then this file
BENCH_SUITE_ONLY=ledger,history npm run bench   # only these; the others keep their latest summaries
BENCH_SUITE_REPORT_ONLY=1 npm run bench         # no benchmark: rewrite this file from the summaries
BENCH_RESULTS_DIR=/tmp/bench npm run bench      # reports, summaries and this file there, not in bench/results
${RUNNERS.map((runner) => `npm run ${runner.script}`.padEnd(48) + `# ${runner.name}.md and ${runner.name}.json alone`).join('\n')}
\`\`\`

Every benchmark's own settings (BENCH_SECONDS, BENCH_HISTORY_TRANSACTIONS, …) apply inside the suite too;
each report's "How to run" lists them. The suite takes as long as all of them together.
`;
}

// ---------------------------------------------------------------------------------------------
// The run

async function main(): Promise<void> {
  let outcomes: Outcome[] | null = null;
  let suiteRun: string | null = null;
  if (process.env.BENCH_SUITE_REPORT_ONLY !== '1') {
    const runners = selectRunners();
    suiteRun = new Date().toISOString();
    outcomes = [];
    log(
      `suite run ${suiteRun}: ${runners.map((runner) => runner.name).join(', ')}; results in ${resultsDir}`,
    );
    for (const runner of runners) {
      log(`== ${runner.name} (npm run ${runner.script})`);
      const outcome = await runRunner(runner, suiteRun);
      outcomes.push(outcome);
      log(`== ${runner.name}: ${outcome.problem ?? 'done'} in ${outcome.seconds.toFixed(0)} s`);
    }
  }
  const present: Present[] = [];
  for (const runner of RUNNERS) {
    const summary = await readSummary(runner);
    if (summary) present.push({ runner, summary });
  }
  for (const outcome of outcomes ?? []) {
    const summary = present.find((item) => item.runner === outcome.runner)?.summary;
    if (!outcome.problem && summary?.suiteRun !== suiteRun) {
      outcome.problem = 'it exited 0 but wrote no summary for this suite run';
    }
    if (outcome.problem) log(`${outcome.runner.name}: ${outcome.problem}`);
  }
  log(`wrote ${await writeResult('README.md', renderReadme(present, outcomes, suiteRun))}`);
  if (outcomes?.some((outcome) => outcome.problem)) process.exitCode = 1;
}

await main();
