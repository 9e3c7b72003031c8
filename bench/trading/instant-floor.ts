/**
 * Instant executions on PostgreSQL measured against their floors in the same run (issue 43): at each
 * client count, the HTTP executions, then pgbench running the execution's own SQL (execution-script.ts)
 * on the app's database, then the same rows written by plain SQL (the rows floor), then pgbench tpcb-like
 * on its own database, then the same clients against the HTTP floor (bare-server.ts).
 */
import http from 'node:http';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../apps/server/src/db/index.js';
import type { DB } from '../../apps/server/src/db/schema.js';
import { pgbenchRun, type PgbenchResult, type PgbenchTarget } from '../ledger/pgbench.js';
import { log } from '../support.js';
import { ask, capturingStatements, startBareServer, stopServer, type Server } from './app-process.js';
import type { Statement } from './capture.js';
import { executionScript, scriptValues } from './execution-script.js';
import { executeInstant } from './instant-client.js';
import { mailSent } from './mail-sent.js';
import { runInstant, type HttpRun } from './instant.js';
import { runOwnSql, type OwnSqlRun } from './own-sql.js';
import type { Customer } from './protocol.js';
import { CLIENT_COUNTS, INSTANT_FUNDING_PENCE, PGBENCH_THREADS, SECONDS } from './settings.js';

export type InstantFloors = {
  httpRuns: HttpRun[];
  /** The HTTP floor: the same clients against bare-server.ts, the own SQL behind node:http. */
  bareRuns: HttpRun[];
  ownSqlRuns: { clients: number; result: OwnSqlRun }[];
  /** The rows floor: the own SQL with the journal's rows written by plain SQL (execution-script.ts). */
  rowsRuns: { clients: number; result: OwnSqlRun }[];
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
  app: { database: string; url: string },
): Promise<InstantFloors> {
  const appDatabase = app.database;
  const customers = { count: 32, platform: 1, gbpPence: String(INSTANT_FUNDING_PENCE) } as const;
  const httpCustomers = (await ask(server, { type: 'customers', ...customers, label: 'i' }, 'customers'))
    .customers;
  // pgbench's clients get customers of their own, made and funded the same way.
  const sqlCustomers = (await ask(server, { type: 'customers', ...customers, label: 'p' }, 'customers'))
    .customers;
  const bareCustomers = (await ask(server, { type: 'customers', ...customers, label: 'b' }, 'customers'))
    .customers;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let appStatements: Statement[];
  try {
    appStatements = await captureExecution(server, agent, httpCustomers[0]!);
  } finally {
    agent.destroy();
  }
  const script = executionScript(sqlCustomers.map((customer) => customer.id));
  const rowsScript = executionScript(
    sqlCustomers.map((customer) => customer.id),
    'rows',
  );
  const values = scriptValues(appStatements);
  const ownSqlTarget: PgbenchTarget = { ...tpcbTarget, database: appDatabase };

  const floors: InstantFloors = {
    httpRuns: [],
    bareRuns: [],
    ownSqlRuns: [],
    rowsRuns: [],
    pgbenchRuns: [],
    appStatements,
  };
  const bare = await startBareServer(app.url, bareCustomers, values);
  const appDb = await openDatabase({ engine: 'postgres', url: app.url, poolSize: 1 });
  try {
    for (const clients of CLIENT_COUNTS) await measureAt(clients);
  } finally {
    await appDb.close();
    await stopServer(bare);
  }
  return floors;

  async function measureAt(clients: number) {
    const drained = () => mailSent(appDb.db);
    await drained();
    floors.httpRuns.push(
      await runInstant(server, httpCustomers, clients, postgresCpu, { monitor, database: appDatabase }),
    );
    const sqlRun = async (text: string, what: string) => {
      await drained();
      const result = await runOwnSql(
        ownSqlTarget,
        monitor,
        text,
        values,
        clients,
        PGBENCH_THREADS,
        Math.round(SECONDS),
        postgresCpu,
      );
      const perTransaction = (calls: number) => (calls / Math.max(1, result.journals)).toFixed(2);
      log(
        `pgbench of ${what} ×${clients}: ${result.perSecond.toFixed(0)} TPS, p50 ${result.p50.toFixed(2)} ms, ` +
          `p99 ${result.p99.toFixed(2)} ms, ${perTransaction(result.statements.total)} statements a transaction ` +
          `(${result.statements.top.map(([query, calls]) => `\`${query}\` ${perTransaction(calls)}`).join(', ')})` +
          (result.firstError ? `; FAILED: ${result.firstError}` : ''),
      );
      return { clients, result };
    };
    floors.ownSqlRuns.push(await sqlRun(script, "the execution's own SQL"));
    floors.rowsRuns.push(await sqlRun(rowsScript, 'the same rows by plain SQL'));
    await drained();
    const tpcb = await pgbenchRun(tpcbTarget, clients, PGBENCH_THREADS, Math.round(SECONDS), postgresCpu);
    log(
      `pgbench tpcb-like ×${clients}: ${tpcb.perSecond.toFixed(0)} TPS, p50 ${tpcb.p50.toFixed(2)} ms, p99 ${tpcb.p99.toFixed(2)} ms`,
    );
    floors.pgbenchRuns.push({ clients, result: tpcb });
    await drained();
    floors.bareRuns.push(await runInstant(bare, bareCustomers, clients, postgresCpu));
  }
}
