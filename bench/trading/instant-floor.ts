/**
 * Instant executions on PostgreSQL measured against their floors in the same run (issue 43): at each
 * client count, the HTTP executions, then pgbench running the execution's own SQL (execution-script.ts)
 * on the app's database, then pgbench tpcb-like on its own database.
 */
import http from 'node:http';
import type { Kysely } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.js';
import { pgbenchRun, type PgbenchResult, type PgbenchTarget } from '../ledger/pgbench.js';
import { log } from '../support.js';
import { ask, capturingStatements, type Server } from './app-process.js';
import type { Statement } from './capture.js';
import { executionScript, scriptValues } from './execution-script.js';
import { executeInstant } from './instant-client.js';
import { runInstant, type HttpRun } from './instant.js';
import { runOwnSql, type OwnSqlRun } from './own-sql.js';
import type { Customer } from './protocol.js';
import { CLIENT_COUNTS, INSTANT_FUNDING_PENCE, PGBENCH_THREADS, SECONDS } from './settings.js';

export type InstantFloors = {
  httpRuns: HttpRun[];
  ownSqlRuns: { clients: number; result: OwnSqlRun }[];
  pgbenchRuns: { clients: number; result: PgbenchResult }[];
  /** What one warm execution sent, in full, in order. */
  appStatements: Statement[];
};

// Long enough for the trade mail's delivery, which runs on after the order's answer.
const AFTER_ORDER_MS = 150;

/**
 * The statements of one warm execution: the shortest of three captures, so that a market tick or the
 * house roll-up running at the same moment (their statements would be captured too) is left out.
 */
async function captureExecution(server: Server, agent: http.Agent, customer: Customer) {
  await executeInstant(agent, server.url, customer);
  let shortest: Statement[] | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const statements = await capturingStatements(server, async () => {
      await executeInstant(agent, server.url, customer);
      await new Promise((resolve) => setTimeout(resolve, AFTER_ORDER_MS));
    });
    if (!shortest || statements.length < shortest.length) shortest = statements;
  }
  return shortest ?? [];
}

export async function measureInstantFloors(
  server: Server,
  postgresCpu: () => number,
  tpcbTarget: PgbenchTarget,
  monitor: Kysely<DB>,
  appDatabase: string,
): Promise<InstantFloors> {
  const customers = { count: 32, platform: 1, gbpPence: String(INSTANT_FUNDING_PENCE) } as const;
  const httpCustomers = (await ask(server, { type: 'customers', ...customers, label: 'i' }, 'customers'))
    .customers;
  // pgbench's clients get customers of their own, made and funded the same way.
  const sqlCustomers = (await ask(server, { type: 'customers', ...customers, label: 'p' }, 'customers'))
    .customers;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let appStatements: Statement[];
  try {
    appStatements = await captureExecution(server, agent, httpCustomers[0]!);
  } finally {
    agent.destroy();
  }
  const script = executionScript(sqlCustomers.map((customer) => customer.id));
  const values = scriptValues(appStatements);
  const ownSqlTarget: PgbenchTarget = { ...tpcbTarget, database: appDatabase };

  const floors: InstantFloors = { httpRuns: [], ownSqlRuns: [], pgbenchRuns: [], appStatements };
  for (const clients of CLIENT_COUNTS) {
    floors.httpRuns.push(
      await runInstant(server, httpCustomers, clients, postgresCpu, { monitor, database: appDatabase }),
    );
    const own = await runOwnSql(
      ownSqlTarget,
      monitor,
      script,
      values,
      clients,
      PGBENCH_THREADS,
      Math.round(SECONDS),
      postgresCpu,
    );
    log(
      `pgbench of the execution's own SQL ×${clients}: ${own.perSecond.toFixed(0)} TPS, p50 ${own.p50.toFixed(2)} ms, ` +
        `p99 ${own.p99.toFixed(2)} ms, ${(own.statements.total / Math.max(1, own.journals)).toFixed(1)} statements a transaction ` +
        `(${own.statements.top.map(([query, calls]) => `\`${query}\` ${(calls / Math.max(1, own.journals)).toFixed(2)}`).join(', ')})` +
        (own.firstError ? `; FAILED: ${own.firstError}` : ''),
    );
    floors.ownSqlRuns.push({ clients, result: own });
    const tpcb = await pgbenchRun(tpcbTarget, clients, PGBENCH_THREADS, Math.round(SECONDS), postgresCpu);
    log(
      `pgbench tpcb-like ×${clients}: ${tpcb.perSecond.toFixed(0)} TPS, p50 ${tpcb.p50.toFixed(2)} ms, p99 ${tpcb.p99.toFixed(2)} ms`,
    );
    floors.pgbenchRuns.push({ clients, result: tpcb });
  }
  return floors;
}
