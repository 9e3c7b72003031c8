/**
 * The floor of an instant execution's SQL (issue 43): pgbench runs execution-script.ts's statements on the
 * app's own database, and pg_stat_statements counts the statements each side sends.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.js';
import { openDatabase } from '../../apps/server/src/db/index.js';
import type { PostgresServer } from '../../apps/server/src/test/postgres-server.js';
import type { PgbenchResult, PgbenchTarget } from '../ledger/pgbench.js';
import { percentile, withCpu } from '../ledger/workloads.js';
import { OWN_SQL_PROTOCOL } from './settings.js';

const run = promisify(execFile);

/**
 * pg_stat_statements must be loaded when the server starts: set it, then restart the fresh, still empty
 * server (the throw-away server's only restart is its crash, which comes back on the same port and data).
 */
export async function loadStatementStats(postgres: PostgresServer): Promise<void> {
  const admin = await openDatabase({ engine: 'postgres', url: postgres.url('postgres'), poolSize: 1 });
  try {
    await sql`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`.execute(admin.db);
  } finally {
    await admin.close();
  }
  await postgres.crash();
  const again = await openDatabase({ engine: 'postgres', url: postgres.url('postgres'), poolSize: 1 });
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`.execute(again.db);
  } finally {
    await again.close();
  }
}

/** Forgets every statement counted so far (before each run). `db` is on the server's `postgres` database. */
export async function resetStatementStats(db: Kysely<DB>): Promise<void> {
  await sql`SELECT pg_stat_statements_reset()`.execute(db);
}

/** `total`: the executions' own; `mailSending`: the outbox sender's (a job, as the leader runs it), apart. */
export type ExecutedStatements = {
  total: number;
  mailSending: number;
  top: [query: string, calls: number][];
};

/** The outbox sender's statements: its claims and marks on mail_outbox, and the dev mailbox's insert. */
const isMailSending = (query: string) => /^(update "mail_outbox"|insert into "dev_mailbox")/i.test(query);

/**
 * Statements executed on `database` since the last reset (top level: a function's own statements are not
 * counted), and the most called, by the first words of their text.
 */
export async function statementCalls(db: Kysely<DB>, database: string): Promise<ExecutedStatements> {
  const result = await sql<{ query: string; calls: string }>`
    SELECT left(regexp_replace(s.query, '[[:space:]]+', ' ', 'g'), 60) AS query, sum(s.calls)::text AS calls
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
    WHERE d.datname = ${database}
    GROUP BY 1 ORDER BY sum(s.calls) DESC`.execute(db);
  const rows = result.rows.map((row): [string, number] => [row.query.trim(), Number(row.calls)]);
  const sum = (list: [string, number][]) => list.reduce((total, [, calls]) => total + calls, 0);
  return {
    total: sum(rows.filter(([query]) => !isMailSending(query))),
    mailSending: sum(rows.filter(([query]) => isMailSending(query))),
    top: rows.slice(0, 30),
  };
}

export type OwnSqlRun = PgbenchResult & { statements: ExecutedStatements };

/**
 * `pgbench -f <script>` in the protocol of OWN_SQL_PROTOCOL (prepared, as the app's statements are), the values as `-D` variables, on `target`'s database; the
 * statements PostgreSQL executed for it, from pg_stat_statements (reset before).
 */
export async function runOwnSql(
  target: PgbenchTarget,
  monitor: Kysely<DB>,
  script: string,
  values: Record<string, string>,
  clients: number,
  threads: number,
  seconds: number,
  server: () => number,
): Promise<OwnSqlRun> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'florin-own-sql-'));
  try {
    const file = path.join(dir, 'execution.sql');
    await fs.writeFile(file, script);
    await resetStatementStats(monitor);
    const { value, cpu } = await withCpu(async () => {
      const args = [
        ...['-n', '-M', OWN_SQL_PROTOCOL, '-f', file, '-c', String(clients), '-j', String(threads)],
        ...['-T', String(seconds), '-l', `--log-prefix=${path.join(dir, 'tx')}`],
        ...Object.entries(values).flatMap(([name, text]) => ['-D', `${name}=${text}`]),
        ...['-h', '127.0.0.1', '-p', String(target.port), '-U', 'florin', target.database],
      ];
      // A client that fails a statement aborts, and pgbench exits non-zero: its output says which.
      return run(path.join(target.bin, 'pgbench'), args, { maxBuffer: 16 * 1024 * 1024 }).catch(
        (error: Error & { stdout?: string; stderr?: string }) => ({
          stdout: error.stdout ?? '',
          stderr: error.stderr ?? error.message,
        }),
      );
    }, server);
    const statements = await statementCalls(monitor, target.database);
    const output = value.stdout;
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
    const processed = /number of transactions actually processed: (\d+)/.exec(output);
    const aborted = /(client \d+ aborted[^\n]*|[^\n]*ERROR:[^\n]*)/.exec(value.stderr)?.[1];
    const latencies: number[] = [];
    for (const name of await fs.readdir(dir)) {
      if (!name.startsWith('tx')) continue;
      for (const line of (await fs.readFile(path.join(dir, name), 'utf8')).split('\n')) {
        // client_id transaction_no time(µs) script_no time_epoch time_us
        const micros = Number(line.split(' ')[2]);
        if (line !== '' && Number.isFinite(micros)) latencies.push(micros / 1000);
      }
    }
    const sorted = Float64Array.from(latencies).sort();
    return {
      journals: Number(processed?.[1] ?? 0),
      seconds,
      perSecond: Number(tps?.[1] ?? 0),
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      errors: aborted ? { aborted: 1 } : {},
      ...(aborted ? { firstError: aborted } : {}),
      cpu,
      output: `${output}${value.stderr}`,
      statements,
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
