/**
 * What every benchmark's runner needs: its settings from the environment,
 * a timestamped log, and a wait for the shared machine to go quiet.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';

/** A positive number from the environment variable `name`, or `fallback` when it is unset or empty. */
export function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
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
