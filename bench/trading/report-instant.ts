/**
 * The trading report's instant executions (issue 43): each layer against its floor in the same run — HTTP
 * executions ÷ pgbench running the execution's own SQL, that SQL ÷ pgbench tpcb-like — with statements and
 * CPU per execution, and the app's statements beside the script's.
 */
import type { PgbenchResult } from '../ledger/pgbench.js';
import type { Comparison } from '../support.js';
import { topStatements, totalOf } from './app-process.js';
import { label, shapeOf, type Statement } from './capture.js';
import { scriptStatements } from './execution-script.js';
import { INSTANT_QUANTITY } from './instant-client.js';
import type { HttpRun } from './instant.js';
import type { OwnSqlRun } from './own-sql.js';
import { OWN_SQL_PROTOCOL, PGBENCH_SCALE, PGBENCH_THREADS, SECONDS } from './settings.js';

export type InstantInput = {
  httpRuns: HttpRun[];
  bareRuns: HttpRun[];
  ownSqlRuns: { clients: number; result: OwnSqlRun }[];
  rowsRuns: { clients: number; result: OwnSqlRun }[];
  pgbenchRuns: { clients: number; result: PgbenchResult }[];
  appStatements: Statement[];
};

export const GOALS = { httpOverOwnSql: 0.5, ownSqlOverTpcb: 0.35, statements: 7, cpuMs: 5 } as const;

const whole = (value: number) => Math.round(value).toLocaleString('en-GB');
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const attemptsOf = (run: HttpRun) =>
  run.executions + Object.values(run.errors).reduce((sum, count) => sum + count, 0);

/** The figures of one client count on PostgreSQL, each ratio from the same run. */
export function floorsAt(input: InstantInput, clients: number) {
  const run = input.httpRuns.find((item) => item.engine === 'PostgreSQL' && item.clients === clients);
  const own = input.ownSqlRuns.find((item) => item.clients === clients)?.result;
  const rows = input.rowsRuns.find((item) => item.clients === clients)?.result;
  const tpcb = input.pgbenchRuns.find((item) => item.clients === clients)?.result;
  const bare = input.bareRuns.find((item) => item.clients === clients);
  if (!run || !own || !rows || !tpcb || !bare) return undefined;
  const perExecution = (seconds: number) => (seconds / Math.max(1, run.executions)) * 1000;
  const appMs = perExecution(run.appCpu);
  const postgresMs = perExecution(run.cpu.server ?? 0);
  const statements =
    run.executedStatements === null ? Number.NaN : run.executedStatements.total / attemptsOf(run);
  return {
    clients,
    run,
    own,
    rows,
    tpcb,
    bare,
    httpOverOwnSql: own.perSecond > 0 ? run.perSecond / own.perSecond : Number.NaN,
    bareOverOwnSql: own.perSecond > 0 ? bare.perSecond / own.perSecond : Number.NaN,
    httpOverBare: bare.perSecond > 0 ? run.perSecond / bare.perSecond : Number.NaN,
    ownSqlOverTpcb: own.perSecond / tpcb.perSecond,
    rowsOverTpcb: rows.perSecond / tpcb.perSecond,
    ownSqlOverRows: rows.perSecond > 0 ? own.perSecond / rows.perSecond : Number.NaN,
    statements,
    mailSending:
      run.executedStatements === null ? Number.NaN : run.executedStatements.mailSending / attemptsOf(run),
    ownStatements: own.statements.total / Math.max(1, own.journals),
    appMs,
    postgresMs,
    cpuMs: appMs + postgresMs,
  };
}

type Floors = NonNullable<ReturnType<typeof floorsAt>>;

function allFloors(input: InstantInput): Floors[] {
  return input.ownSqlRuns.flatMap(({ clients }) => floorsAt(input, clients) ?? []);
}

/** The sentence saying a goal lies above `floor` where the floor falls short of it (`short`), or none. */
function aboveFloor(floors: Floors[], short: (floor: Floors) => boolean, floor: string): string {
  if (!floors.some(short)) return '';
  return ` The goal lies above ${floor}${floors.every(short) ? ' at every client count' : ''}.`;
}

/** The Goals section's lines for the instant executions. */
export function instantGoals(input: InstantInput): string {
  const floors = allFloors(input);
  const each = (text: (floor: Floors) => string) => floors.map(text).join('; ');
  const httpMet = floors.length > 0 && floors.every((f) => f.httpOverOwnSql >= GOALS.httpOverOwnSql);
  const sqlMet = floors.length > 0 && floors.every((f) => f.ownSqlOverTpcb >= GOALS.ownSqlOverTpcb);
  const statementsMet = floors.length > 0 && floors.every((f) => f.statements <= GOALS.statements);
  const cpuMet = floors.length > 0 && floors.every((f) => f.cpuMs <= GOALS.cpuMs);
  return `- **Instant executions over HTTP ÷ pgbench running the execution's own SQL, same server, same run: ${each((f) => `${f.httpOverOwnSql.toFixed(2)} at ${f.clients} clients (${f.run.perSecond.toFixed(0)} ÷ ${f.own.perSecond.toFixed(0)})`)}** —
  goal ≥ ${GOALS.httpOverOwnSql}: **${met(httpMet)}**.
  The HTTP floor, the same clients against a bare Node server sending the same statements (bare-server.ts), ÷ own SQL:
  ${each((f) => `${f.bareOverOwnSql.toFixed(2)} at ${f.clients} clients (${f.bare.perSecond.toFixed(0)} ÷ ${f.own.perSecond.toFixed(0)})`)}; the app reaches
  ${each((f) => `${f.httpOverBare.toFixed(2)} of it at ${f.clients} clients`)}.${aboveFloor(floors, (f) => f.bareOverOwnSql < GOALS.httpOverOwnSql, 'what a Node server with no work of its own reaches here')}
- **The execution's own SQL ÷ pgbench tpcb-like: ${each((f) => `${f.ownSqlOverTpcb.toFixed(2)} at ${f.clients} clients (${f.own.perSecond.toFixed(0)} ÷ ${f.tpcb.perSecond.toFixed(0)})`)}** —
  goal ≥ ${GOALS.ownSqlOverTpcb}: **${met(sqlMet)}**.
  The floor of its rows, the same rows written by plain SQL with no ledger function (the rows floor), ÷ tpcb-like:
  ${each((f) => `${f.rowsOverTpcb.toFixed(2)} at ${f.clients} clients (${f.rows.perSecond.toFixed(0)} ÷ ${f.tpcb.perSecond.toFixed(0)})`)}; the own SQL reaches
  ${each((f) => `${f.ownSqlOverRows.toFixed(2)} of it at ${f.clients} clients`)}.${aboveFloor(floors, (f) => f.rowsOverTpcb < GOALS.ownSqlOverTpcb, 'the floor of the rows an execution writes')}
- **Statements per execution (pg_stat_statements): ${each((f) => `${f.statements.toFixed(1)} at ${f.clients} clients`)}** — goal ≤ ${GOALS.statements}: **${met(statementsMet)}**.
  Apart, the outbox sender's (the leader's mail job, sending each trade's mail into the dev mailbox): ${each((f) => `${f.mailSending.toFixed(1)} at ${f.clients} clients`)}.
- **CPU per execution, app + PostgreSQL (/proc): ${each((f) => `${f.cpuMs.toFixed(1)} ms at ${f.clients} clients (${f.appMs.toFixed(1)} + ${f.postgresMs.toFixed(1)})`)}** — goal ≤ ${GOALS.cpuMs} ms: **${met(cpuMet)}**.`;
}

/** The instant executions and their floors, for the suite's table. */
export function instantComparisons(input: InstantInput): Comparison[] {
  const http = input.httpRuns.map((run): Comparison => {
    const floor = run.engine === 'PostgreSQL' ? floorsAt(input, run.clients) : undefined;
    return {
      workload: `Instant executions over HTTP (quote + order), ${run.engine}, ${run.clients} clients`,
      ours: { value: run.perSecond, unit: 'executions/s' },
      peer: floor
        ? {
            name: `pgbench of the execution's own SQL, ${run.clients} clients`,
            value: floor.own.perSecond,
            unit: 'TPS',
          }
        : null,
      ratio: floor ? floor.httpOverOwnSql : null,
      better: 'higher',
      ...(floor
        ? {
            goal: {
              target: `≥ ${GOALS.httpOverOwnSql} × own SQL`,
              met: floor.httpOverOwnSql >= GOALS.httpOverOwnSql,
            },
          }
        : { note: "PGlite runs inside the app's process: no pgbench beside it" }),
    };
  });
  const sql = allFloors(input).map((floor): Comparison => ({
    workload: `pgbench of an instant execution's own SQL, ${floor.clients} clients`,
    ours: { value: floor.own.perSecond, unit: 'TPS' },
    peer: {
      name: `pgbench tpcb-like, scale ${PGBENCH_SCALE}, ${floor.clients} clients`,
      value: floor.tpcb.perSecond,
      unit: 'TPS',
    },
    ratio: floor.ownSqlOverTpcb,
    better: 'higher',
    goal: {
      target: `≥ ${GOALS.ownSqlOverTpcb} × tpcb-like`,
      met: floor.ownSqlOverTpcb >= GOALS.ownSqlOverTpcb,
    },
  }));
  return [...http, ...sql];
}

/**
 * Two lists of statement kinds lined up as a diff does (longest common subsequence): a kind in both on one
 * row, one the other side lacks on a row of its own.
 */
function alignKinds(app: string[], script: string[]): [string | null, string | null][] {
  const common = Array.from({ length: app.length + 1 }, () => new Array<number>(script.length + 1).fill(0));
  for (let i = app.length - 1; i >= 0; i -= 1)
    for (let j = script.length - 1; j >= 0; j -= 1)
      common[i]![j] =
        app[i] === script[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const rows: [string | null, string | null][] = [];
  let i = 0;
  let j = 0;
  while (i < app.length || j < script.length) {
    if (i < app.length && j < script.length && app[i] === script[j]) rows.push([app[i++]!, script[j++]!]);
    else if (j < script.length && (i >= app.length || common[i]![j + 1]! >= common[i + 1]![j]!))
      rows.push([null, script[j++]!]);
    else rows.push([app[i++]!, null]);
  }
  return rows;
}

/** A statement's verb and first table, and how many FROMs it has when more than one (a read merged from several). */
function kindOf(text: string): string {
  const froms = text.match(/\bfrom\b/gi)?.length ?? 0;
  return froms > 1 ? `${label(text)} (${froms} FROMs)` : label(text);
}

/** The app's statements of one warm execution beside the script's, lined up by kind. */
function statementsBeside(app: Statement[]): string {
  const script = scriptStatements();
  const rows = alignKinds(
    app.map((statement) => kindOf(statement.text)),
    script.map(kindOf),
  ).map(
    ([ours, theirs], index) =>
      `| ${index + 1} | ${ours ? `\`${ours}\`` : '–'} | ${theirs ? `\`${theirs}\`` : '–'} | ${ours === theirs ? 'same' : '**differs**'} |`,
  );
  const differ = rows.filter((row) => row.endsWith('**differs** |')).length;
  const shapes = (texts: string[]) =>
    texts.map((text, index) => `${String(index + 1).padStart(2)} ${shapeOf(text).slice(0, 220)}`).join('\n');
  return `The app's statements of one warm execution (captured on pg's \`Client#query\`, in order) beside the script's
(bench/trading/execution-script.ts): ${app.length} and ${script.length}, ${differ === 0 ? 'the same kinds in the same order' : `**${differ} rows differ: update the script**`}.

| # | The app sent | The script sends | |
|---:|---|---|---|
${rows.join('\n')}

<details><summary>The statements' text (first 220 characters each)</summary>

The app's:

\`\`\`
${shapes(app.map((statement) => statement.text))}
\`\`\`

The script's:

\`\`\`
${shapes(script)}
\`\`\`

</details>`;
}

/** Why executions fall short of their floor: CPU per execution beside the script's per transaction. */
function whereTheTimeGoes(floor: Floors): string {
  const clientMs = (floor.run.cpu.node / Math.max(1, floor.run.executions)) * 1000;
  const ownMs =
    (((floor.own.cpu.server ?? 0) + floor.own.cpu.children) / Math.max(1, floor.own.journals)) * 1000;
  const ceiling = 2000 / (floor.cpuMs + clientMs);
  return `### Where the time goes

At ${floor.clients} clients an execution cost ${floor.appMs.toFixed(1)} ms of CPU in the app's process, ${floor.postgresMs.toFixed(1)} ms in PostgreSQL and
${clientMs.toFixed(1)} ms in the benchmark's clients; the same SQL sent by pgbench cost ${ownMs.toFixed(2)} ms (PostgreSQL and pgbench together). With
${(floor.cpuMs + clientMs).toFixed(1)} ms of CPU an execution, the machine's 2 cores allow at most ${ceiling.toFixed(0)} executions/s even with nobody else on
them, ${(ceiling / Math.max(1, floor.own.perSecond)).toFixed(2)} × the own-SQL figure. An execution is two HTTP requests through Fastify (session, CSRF check,
zod, JSON) and ${floor.statements.toFixed(0)} statements, each its own round trip; the lever is the number of statements and the app's
work around each (Kysely compiling, pg and pg-protocol), then PostgreSQL parsing and planning statements never prepared.
A V8 CPU profile of the app's process (\`BENCH_TRADING_CPU_PROFILE=<folder>\`) says where the app's share goes.
`;
}

/** The instant executions' section of the report. */
export function renderInstantSection(input: InstantInput, cores: number): string {
  const floors = allFloors(input);
  const errorsOf = (errors: Record<string, number>) =>
    Object.keys(errors).length === 0
      ? '0'
      : Object.entries(errors)
          .map(([key, count]) => `${key}: ${count}`)
          .join(', ');
  const httpRows = [...input.httpRuns, ...input.bareRuns].map((run) => {
    const perExecution = (seconds: number) => ms((seconds / Math.max(1, run.executions)) * 1000);
    return `| ${run.engine} | ${run.clients} | ${whole(run.executions)} | **${run.perSecond.toFixed(0)}** | ${ms(run.p50)} | ${ms(run.p99)} | ${errorsOf(run.errors)} | ${perExecution(run.appCpu)} | ${run.cpu.server === null ? 'in app' : perExecution(run.cpu.server)} | ${perExecution(run.cpu.node)} | ${(run.cpu.machine / run.cpu.wall).toFixed(2)} of ${cores} |`;
  });
  const floorRows = floors.map(
    (f) =>
      `| ${f.clients} | ${f.run.perSecond.toFixed(0)} | ${f.own.perSecond.toFixed(0)} | ${f.tpcb.perSecond.toFixed(0)} | **${f.httpOverOwnSql.toFixed(2)}** ${met(f.httpOverOwnSql >= GOALS.httpOverOwnSql)} | **${f.ownSqlOverTpcb.toFixed(2)}** ${met(f.ownSqlOverTpcb >= GOALS.ownSqlOverTpcb)} | **${f.statements.toFixed(1)}** ${met(f.statements <= GOALS.statements)} (script: ${scriptStatements().length} sent, ${f.ownStatements.toFixed(1)} counted) | ${f.appMs.toFixed(1)} + ${f.postgresMs.toFixed(1)} = **${f.cpuMs.toFixed(1)}** ${met(f.cpuMs <= GOALS.cpuMs)} |`,
  );
  const pgbenchRow = (name: string, clients: number, result: PgbenchResult) =>
    `| ${name} | ${clients} | ${whole(result.journals)} | **${result.perSecond.toFixed(0)}** | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${errorsOf(result.errors)}${result.firstError ? ` (${result.firstError.slice(0, 120)})` : ''} | ${(((result.cpu.server ?? 0) / Math.max(1, result.journals)) * 1000).toFixed(2)} | ${((result.cpu.children / Math.max(1, result.journals)) * 1000).toFixed(2)} | ${(result.cpu.machine / result.cpu.wall).toFixed(2)} of ${cores} |`;
  const pgbenchRows = floors.flatMap((f) => [
    pgbenchRow("the execution's own SQL", f.clients, f.own),
    pgbenchRow('the same rows by plain SQL (rows floor)', f.clients, f.rows),
    pgbenchRow(`tpcb-like, scale ${PGBENCH_SCALE}`, f.clients, f.tpcb),
  ]);
  const hookLines = input.httpRuns
    .filter((run) => run.statements)
    .map(
      (run) =>
        `- ${run.engine}, ${run.clients} clients: ${(totalOf(run.statements!) / attemptsOf(run)).toFixed(1)} statements per execution seen by the app (${topStatements(run.statements!, attemptsOf(run), 40)})`,
    );
  const short = floors.find((f) => f.httpOverOwnSql < GOALS.httpOverOwnSql);

  return `## Instant executions through HTTP, beside their floors (${SECONDS} s per run)

One execution = \`POST /api/v1/quotes\` (buy ${INSTANT_QUANTITY} BTC, the customer's ask and fee, a \`trade_quotes\` row) and then
\`POST /api/v1/order\` with its \`quote_id\` (the quote and customer locked, one 5-leg ledger journal, the \`trades\` row
using the quote up, the mail and notification rows; after the commit the customer's websocket told and the mail sent).
Each client is its own live customer (platform 1, funded with £10,000,000 by a bank deposit) on its own connection,
doing one execution at a time; a warm-up execution per client is not counted. Executions/s counts the successful ones
over the wall time until the last in-flight one finished; latency is per execution (both requests). CPU is read from
/proc (ms per execution).

At each client count, in this order and seconds apart: the HTTP executions; pgbench running the execution's own SQL
(\`pgbench -n -M ${OWN_SQL_PROTOCOL} -f\`, the script of bench/trading/execution-script.ts on the app's database,
${OWN_SQL_PROTOCOL === 'prepared' ? 'each statement prepared once per connection as the app names its statements' : 'each statement parsed, bound and executed unnamed'}, with the app's own values, each client its own
customer made and funded as the HTTP clients' are, \`\\gset\` carrying the quote's id on); the rows floor, the
same script with the ledger function's journal written by plain SQL (the journal row, the two balances, the three
house postings and the five entries as common table expressions, none of the function's key claim, account look-up,
overdraft refusal or balance-after walk); pgbench's
built-in tpcb-like (its own database, \`pgbench -i -s ${PGBENCH_SCALE}\`); then the HTTP floor, the same HTTP clients
against bench/trading/bare-server.ts, a node:http server in its own process that sends the script's statements through
pg, named and prepared as the app's, its own 32 customers made as the others are, with no framework, session, CSRF
check, validation or module around them. ${PGBENCH_THREADS} pgbench threads, ${Math.round(SECONDS)} s each. Before each run the bench waits
until the app's mail sender has sent every trade mail the run before left in the outbox, so no run pays for another's.
Statements per execution are PostgreSQL's own count (\`pg_stat_statements\`, reset before each run: every top-level
statement on the app's database, the ticks and the roll-up too, a few a second, but the outbox sender's, counted
apart; BEGIN and COMMIT are counted when
sent as the app sends them, without parameters, but not when pgbench sends them in the extended protocol, hence the
script's two fewer).

| Clients | HTTP executions/s | own SQL TPS | tpcb-like TPS | HTTP ÷ own SQL (≥ ${GOALS.httpOverOwnSql}) | own SQL ÷ tpcb-like (≥ ${GOALS.ownSqlOverTpcb}) | statements / execution (≤ ${GOALS.statements}) | CPU ms / execution, app + PostgreSQL (≤ ${GOALS.cpuMs}) |
|---:|---:|---:|---:|---|---|---|---|
${floorRows.join('\n')}

| Engine | Clients | Executions | Executions/s | p50 ms | p99 ms | Errors | app CPU ms | PostgreSQL CPU ms | client CPU ms | machine busy (cores) |
|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|
${httpRows.join('\n')}

| pgbench | Clients | Transactions | TPS | p50 ms | p99 ms | Errors | PostgreSQL CPU ms/tx | pgbench CPU ms/tx | machine busy (cores) |
|---|---:|---:|---:|---:|---:|---|---:|---:|---:|
${pgbenchRows.join('\n')}

${hookLines.join('\n')}

${statementsBeside(input.appStatements)}

${short ? whereTheTimeGoes(short) : ''}
PGlite rows have no pgbench beside them: PGlite runs inside the app's process with one connection, so the
clients' statements queue on it one at a time (only the HTTP work around them overlaps), and its CPU is the app's.
`;
}
