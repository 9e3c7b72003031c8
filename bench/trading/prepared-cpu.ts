/**
 * Decision 138's measurement: CPU per instant execution (HTTP quote + order) of the app and of PostgreSQL,
 * the app in its own process (server.ts) on a throw-away server. Run it on two checkouts (before and
 * after prepared statements) to compare; rounds alternate with nothing else so the shared machine's
 * load shows as spread between rounds.
 *
 *   npx tsx bench/trading/prepared-cpu.ts   BENCH_PREPARED_EXECUTIONS (600 a round), BENCH_PREPARED_ROUNDS (3),
 *                                           BENCH_PREPARED_CLIENTS (4)
 */
import http from 'node:http';
import { findPostmaster, serverCpuSeconds } from '../ledger/probes.js';
import { processCpu } from '../ledger/workloads.js';
import { loadAverages, log, positiveNumber } from '../support.js';
import { ask, onBenchApp, type Server } from './app-process.js';
import { executeInstant } from './instant-client.js';
import type { Customer } from './protocol.js';

const EXECUTIONS = positiveNumber('BENCH_PREPARED_EXECUTIONS', 600);
const ROUNDS = positiveNumber('BENCH_PREPARED_ROUNDS', 3);
const CLIENTS = positiveNumber('BENCH_PREPARED_CLIENTS', 4);
const WARM_UP = 100;

type Round = { appMs: number; postgresMs: number; perSecond: number };

async function executions(server: Server, customers: Customer[], count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: customers.length });
  let left = count;
  await Promise.all(
    customers.map(async (customer) => {
      while (left > 0) {
        left -= 1;
        await executeInstant(agent, server.url, customer);
      }
    }),
  );
  agent.destroy();
}

async function round(server: Server, customers: Customer[], postmaster: number): Promise<Round> {
  const appCpu = () => {
    const cpu = processCpu(server.pid);
    return cpu ? cpu.own : 0;
  };
  const [app0, pg0, t0] = [appCpu(), serverCpuSeconds(postmaster), performance.now()];
  await executions(server, customers, EXECUTIONS);
  const [app1, pg1, t1] = [appCpu(), serverCpuSeconds(postmaster), performance.now()];
  return {
    appMs: ((app1 - app0) * 1000) / EXECUTIONS,
    postgresMs: ((pg1 - pg0) * 1000) / EXECUTIONS,
    perSecond: EXECUTIONS / ((t1 - t0) / 1000),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

await onBenchApp(async ({ admin, server }) => {
  const postmaster = await findPostmaster(admin.db);
  const { customers } = await ask(
    server,
    { type: 'customers', count: CLIENTS, platform: 1, gbpPence: '1000000000', label: 'prepared' },
    'customers',
  );
  await executions(server, customers, WARM_UP);
  const rounds: Round[] = [];
  for (let index = 0; index < ROUNDS; index += 1) {
    const result = await round(server, customers, postmaster);
    log(
      `round ${index + 1}: app ${result.appMs.toFixed(2)} ms, PostgreSQL ${result.postgresMs.toFixed(2)} ms CPU ` +
        `an execution, ${result.perSecond.toFixed(0)} executions/s (${CLIENTS} clients)`,
    );
    rounds.push(result);
  }
  const app = median(rounds.map((result) => result.appMs));
  const postgresMs = median(rounds.map((result) => result.postgresMs));
  log(
    `median of ${ROUNDS} rounds of ${EXECUTIONS}: app ${app.toFixed(2)} ms + PostgreSQL ${postgresMs.toFixed(2)} ms ` +
      `= ${(app + postgresMs).toFixed(2)} ms CPU an execution; ` +
      `${median(rounds.map((result) => result.perSecond)).toFixed(0)} executions/s; load average ${loadAverages()}`,
  );
  const check = await ask(server, { type: 'check' }, 'checked');
  log(`checkLedger ${check.ok ? 'passed' : `FAILED\n${check.violations}`}`);
});
