/**
 * What every benchmark's runner needs: its settings from the environment,
 * a timestamped log, a wait for the shared machine to go quiet, and where to
 * write its report and its summary for the suite (bench/suite.ts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/** The settings this run has read, so its summary can list the ones it was given. */
const settingsRead = new Set<string>();

/** The environment variable `name` as text, or undefined when it is unset or empty. */
export function textSetting(name: string): string | undefined {
  settingsRead.add(name);
  return process.env[name] || undefined;
}

/** A positive number from the environment variable `name`, or `fallback` when it is unset or empty. */
export function positiveNumber(name: string, fallback: number): number {
  const raw = textSetting(name);
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

const startedAt = performance.now();

/** One line with the seconds since the benchmark started. */
export function log(message: string): void {
  console.log(`[bench ${((performance.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${message}`);
}

/** The load averages as the reports print them: "1.18, 2.77, 2.95". */
export function loadAverages(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

/**
 * Waits at most `seconds` for the 1-minute load average to fall below
 * `goal` (other people's work on the machine), checking every `pollMs`.
 * Returns the load averages when it stopped waiting.
 */
export async function waitForQuietMachine(options: {
  goal: number;
  seconds: number;
  pollMs: number;
}): Promise<number[]> {
  const until = performance.now() + options.seconds * 1000;
  while (os.loadavg()[0]! >= options.goal && performance.now() < until) {
    log(`load average ${loadAverages()}: waiting for the 1-minute figure to fall below ${options.goal}`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
  return os.loadavg();
}

/**
 * Where reports and summaries go: bench/results, or BENCH_RESULTS_DIR (for a smoke run that must not
 * overwrite the committed results). A relative BENCH_RESULTS_DIR is taken from the folder npm was run
 * in, not from bench/ where npm runs the workspace's scripts.
 */
export const resultsDir: string = process.env.BENCH_RESULTS_DIR
  ? path.resolve(process.env.INIT_CWD ?? process.cwd(), process.env.BENCH_RESULTS_DIR)
  : fileURLToPath(new URL('./results', import.meta.url));

/** The path of `file` (e.g. "ledger.md") in the results folder. */
export function resultsPath(file: string): string {
  return path.join(resultsDir, file);
}

/** Writes `content` to `file` in the results folder, creating the folder; returns the path written. */
export async function writeResult(file: string, content: string): Promise<string> {
  await fs.mkdir(resultsDir, { recursive: true });
  const target = resultsPath(file);
  await fs.writeFile(target, content);
  return target;
}

export type Figure = { value: number; unit: string };

/** One workload as the suite's table shows it: our figure beside its peer's from the same run. */
export type Comparison = {
  workload: string;
  ours: Figure;
  /** The same work done by something else in the same run (pgbench, bare ws, COPY…), or null when there is none. */
  peer: (Figure & { name: string }) | null;
  /** ours ÷ peer, or null without a peer (or when the peer's figure is 0). */
  ratio: number | null;
  /** Which way is better for both figures and the ratio: throughput higher, latency and memory lower. */
  better: 'higher' | 'lower';
  goal?: { target: string; met: boolean };
  note?: string;
};

/** A Lighthouse cold load (empty cache) of one page in one form factor. */
export type ColdLoad = {
  page: string;
  path: string;
  formFactor: 'desktop' | 'mobile';
  performance: number;
  performanceGoal: number;
  accessibility: number;
  accessibilityGoal: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Script as Lighthouse saw it transferred (brotli). */
  scriptKb: number;
  /** The route's initial JavaScript from the build's manifest, gzip -9. */
  initialJsKb: number;
};

/** What a runner writes beside its markdown report, as `<name>.json`, for the suite's README. */
export type Summary = {
  /** The runner's name, which is also the name of its files: ledger → ledger.md, ledger.json. */
  name: string;
  /** When the run finished (an ISO date-time), or only its date where a summary was transcribed. */
  ranAt: string;
  /** The id (start time) of the `npm run bench` suite run that ran it; null when it ran on its own. */
  suiteRun: string | null;
  /** The settings the run read and was given (none: every default). */
  settings: Record<string, string>;
  /** The detailed report, beside the summary in the results folder. */
  details: string;
  /** Set only on a summary written by hand: where its figures were copied from. */
  transcribed?: string;
  workloads: Comparison[];
  coldLoads?: ColdLoad[];
};

/** The settings this run read and was given a value for (other runners' settings in the environment left out). */
function givenSettings(): Record<string, string> {
  return Object.fromEntries(
    [...settingsRead]
      .sort()
      .flatMap((name) => (process.env[name] ? [[name, process.env[name]] as const] : [])),
  );
}

/** ours ÷ peer, or null when there is no peer figure to divide by. */
export function computeRatio(ours: number, peer: number | null | undefined): number | null {
  return peer === null || peer === undefined || peer === 0 || !Number.isFinite(peer) ? null : ours / peer;
}

/** Writes `<name>.json` beside `<name>.md` in the results folder; returns the path written. */
export async function writeSummary(
  name: string,
  content: { workloads: Comparison[]; coldLoads?: ColdLoad[] },
): Promise<string> {
  const summary: Summary = {
    name,
    ranAt: new Date().toISOString(),
    suiteRun: process.env.BENCH_SUITE_RUN || null,
    settings: givenSettings(),
    details: `${name}.md`,
    ...content,
  };
  return writeResult(`${name}.json`, `${JSON.stringify(summary, null, 2)}\n`);
}
