/** Instant executions over HTTP: each client its own customer on one keep-alive connection, as one browser tab would use. */
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.js';
import { percentile, processCpu, withCpu, type CpuUse } from '../ledger/workloads.js';
import { log } from '../support.js';
import { countingStatements, topStatements, totalOf, type Server } from './app-process.js';
import { executeInstant, Refused } from './instant-client.js';
import { resetStatementStats, statementCalls, type ExecutedStatements } from './own-sql.js';
import type { Customer } from './protocol.js';
import { SECONDS } from './settings.js';

export type HttpRun = {
  engine: string;
  clients: number;
  executions: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: Record<string, number>;
  firstError?: string;
  cpu: CpuUse;
  appCpu: number;
  /** Statements the app sent to PostgreSQL during the run, by kind (null on PGlite). */
  statements: [string, number][] | null;
  /** Statements PostgreSQL executed on the app's database during the run, from pg_stat_statements (null on PGlite). */
  executedStatements: ExecutedStatements | null;
};

/** The engines' names in the report; `bare` is the HTTP floor (bare-server.ts), on PostgreSQL. */
export const ENGINE_NAMES: Record<string, string> = {
  postgres: 'PostgreSQL',
  pglite: 'PGlite',
  bare: 'bare Node (HTTP floor)',
};

/** Where pg_stat_statements is read: a connection to the server's `postgres` database, and the app's database. */
export type StatementStats = { monitor: Kysely<DB>; database: string };

// The app sends its websocket notices on one connection, queued behind each other: at 32 clients some are
// still queued when the last execution answers. Counted once the count stops growing but for the ticks.
const DRAIN_POLL_MS = 250;
const DRAIN_POLLS = 40;
const BACKGROUND_STATEMENTS_PER_POLL = 5;

/** pg_stat_statements once the app's queued statements have reached PostgreSQL (10 s at most). */
async function drainedStatements(stats: StatementStats): Promise<ExecutedStatements> {
  let last = await statementCalls(stats.monitor, stats.database);
  const first = last.total;
  for (let poll = 0; poll < DRAIN_POLLS; poll += 1) {
    await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    const next = await statementCalls(stats.monitor, stats.database);
    const grew = next.total - last.total;
    last = next;
    if (grew <= BACKGROUND_STATEMENTS_PER_POLL) break;
  }
  if (last.total - first > BACKGROUND_STATEMENTS_PER_POLL)
    log(
      `  ${last.total - first} of the app's statements reached PostgreSQL after the last execution answered`,
    );
  return last;
}

/**
 * `clients` loops, each its own customer on its own connection, executing one instant trade
 * at a time until the time is up. Executions/s counts those that succeeded, over the wall time
 * until the last in-flight one finished.
 */
export async function runInstant(
  server: Server,
  customers: Customer[],
  clients: number,
  postgresCpu?: () => number,
  stats?: StatementStats,
): Promise<HttpRun> {
  const agents = Array.from({ length: clients }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    // A warm-up, not counted: connections open, the app's caches full, as in a running server.
    await Promise.all(agents.map((agent, index) => executeInstant(agent, server.url, customers[index]!)));
    const latencies: number[] = [];
    const errors: Record<string, number> = {};
    let firstError: string | undefined;
    if (stats) await resetStatementStats(stats.monitor);
    const app0 = processCpu(server.pid)?.own ?? 0;
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    const {
      value: { cpu },
      statements,
    } = await countingStatements(server, () =>
      withCpu(
        () =>
          Promise.all(
            agents.map(async (agent, index) => {
              const customer = customers[index]!;
              while (performance.now() < deadline) {
                const t0 = performance.now();
                try {
                  await executeInstant(agent, server.url, customer);
                  latencies.push(performance.now() - t0);
                } catch (error) {
                  const key = error instanceof Refused ? error.key : 'network';
                  errors[key] = (errors[key] ?? 0) + 1;
                  firstError ??= error instanceof Error ? error.message : String(error);
                }
              }
            }),
          ),
        postgresCpu,
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const executedStatements = stats ? await drainedStatements(stats) : null;
    const sorted = Float64Array.from(latencies).sort();
    const run: HttpRun = {
      engine: ENGINE_NAMES[server.engine] ?? server.engine,
      clients,
      executions: latencies.length,
      seconds,
      perSecond: latencies.length / seconds,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      errors,
      firstError,
      cpu,
      appCpu: (processCpu(server.pid)?.own ?? 0) - app0,
      statements,
      executedStatements,
    };
    const attempts = run.executions + Object.values(errors).reduce((sum, count) => sum + count, 0);
    log(
      `${run.engine} instant ×${clients}: ${run.executions} executions in ${seconds.toFixed(1)} s = ` +
        `${run.perSecond.toFixed(1)}/s, p50 ${run.p50.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms; ` +
        `errors ${JSON.stringify(errors)}${firstError ? ` (first: ${firstError})` : ''}; CPU s: app ${run.appCpu.toFixed(1)}, ` +
        `PostgreSQL ${cpu.server === null ? '–' : cpu.server.toFixed(1)}, clients ${cpu.node.toFixed(1)}, machine ${cpu.machine.toFixed(1)} of ${(cpu.wall * os.availableParallelism()).toFixed(1)}`,
    );
    if (statements)
      log(
        `  ${(totalOf(statements) / attempts).toFixed(1)} statements per execution: ${topStatements(statements, attempts, 30)}`,
      );
    if (executedStatements !== null)
      log(
        `  pg_stat_statements: ${(executedStatements.total / attempts).toFixed(1)} statements per execution: ${executedStatements.top
          .map(([query, calls]) => `\`${query}\` ${(calls / attempts).toFixed(2)}`)
          .join(', ')}`,
      );
    return run;
  } finally {
    for (const agent of agents) agent.destroy();
  }
}
