import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { percentile, withCpu, type RunResult } from './workloads.js';

const run = promisify(execFile);

export type PgbenchTarget = { bin: string; port: number; database: string };

function connectionArgs(target: PgbenchTarget): string[] {
  return ['-h', '127.0.0.1', '-p', String(target.port), '-U', 'florin'];
}

/** `pgbench -i -s <scale>`: creates and fills the four tpcb tables, then vacuums them. */
export async function pgbenchInit(target: PgbenchTarget, scale: number): Promise<number> {
  const started = performance.now();
  await run(
    path.join(target.bin, 'pgbench'),
    ['-i', '-q', '-s', String(scale), ...connectionArgs(target), target.database],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return (performance.now() - started) / 1000;
}

export type PgbenchResult = RunResult & { output: string };

/**
 * The built-in tpcb-like script (BEGIN; UPDATE accounts; SELECT; UPDATE
 * tellers; UPDATE branches; INSERT history; END) in its default simple query
 * protocol. Latencies come from pgbench's per-transaction log (-l).
 */
export async function pgbenchRun(
  target: PgbenchTarget,
  clients: number,
  threads: number,
  seconds: number,
  server?: () => number,
): Promise<PgbenchResult> {
  const logDir = await fs.mkdtemp(path.join(os.tmpdir(), 'florin-pgbench-'));
  try {
    const { value, cpu } = await withCpu(
      () =>
        run(
          path.join(target.bin, 'pgbench'),
          [
            '-c',
            String(clients),
            '-j',
            String(threads),
            '-T',
            String(seconds),
            '-l',
            `--log-prefix=${path.join(logDir, 'tx')}`,
            ...connectionArgs(target),
            target.database,
          ],
          { maxBuffer: 16 * 1024 * 1024 },
        ),
      server,
    );
    const output = value.stdout;
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
    const processed = /number of transactions actually processed: (\d+)/.exec(output);
    const failed = /number of failed transactions: (\d+)/.exec(output);
    const duration = /duration: (\d+) s/.exec(output);
    if (!tps?.[1] || !processed?.[1]) throw new Error(`could not read pgbench's output:\n${output}`);

    const latencies: number[] = [];
    for (const file of await fs.readdir(logDir)) {
      const text = await fs.readFile(path.join(logDir, file), 'utf8');
      for (const line of text.split('\n')) {
        // client_id transaction_no time(µs) script_no time_epoch time_us
        const micros = Number(line.split(' ')[2]);
        if (Number.isFinite(micros) && line !== '') latencies.push(micros / 1000);
      }
    }
    const sorted = Float64Array.from(latencies).sort();
    const failures = Number(failed?.[1] ?? 0);
    return {
      journals: Number(processed[1]),
      seconds: Number(duration?.[1] ?? seconds),
      perSecond: Number(tps[1]),
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      errors: failures > 0 ? { failed: failures } : {},
      cpu,
      output,
    };
  } finally {
    await fs.rm(logDir, { recursive: true, force: true });
  }
}
