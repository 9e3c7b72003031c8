/**
 * Resting limit orders: placed over HTTP by many customers, then crossed by one tick and timed until
 * every fill has committed, with PostgreSQL watched meanwhile.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Database } from '../../apps/server/src/db/index.js';
import { sampleWaits, type WaitSample } from '../ledger/probes.js';
import { percentile } from '../ledger/workloads.js';
import { loadAverages, log } from '../support.js';
import { ask, countingStatements, topStatements, totalOf, type Server } from './app-process.js';
import { markBeforeFills, measureFillsFloor, type FillsFloor } from './fills-floor.js';
import { post } from './instant-client.js';
import { mailSent } from './mail-sent.js';
import type { CrossResult, Customer } from './protocol.js';
import {
  CROSSING_MID,
  FILL_TIMEOUT_MS,
  ORDER_CUSTOMERS,
  ORDER_FUNDING_PENCE,
  ORDER_QUANTITY,
  ORDERS,
  PLACING_CLIENTS,
} from './settings.js';

type Placing = { orders: number; seconds: number; perSecond: number; p50: number; p99: number };

/** ORDERS limit buys, spread evenly over the customers, placed by PLACING_CLIENTS connections. */
async function placeOrders(server: Server, customers: Customer[]): Promise<Placing> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: PLACING_CLIENTS }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let index = next++; index < ORDERS; index = next++) {
          const customer = customers[index % customers.length]!;
          const t0 = performance.now();
          const reply = await post(
            agent,
            server.url,
            '/api/v1/crypto/limit_order',
            customer,
            {
              coin_id: 'btc',
              side: 1,
              order_type: 2,
              order_qty: ORDER_QUANTITY,
              price: String(15_000 + (index % 100)),
            },
            { 'idempotency-key': `bench-${randomBytes(12).toString('hex')}` },
          );
          if (reply.status !== 200) throw new Error(`limit order: HTTP ${reply.status} ${reply.body}`);
          latencies.push(performance.now() - t0);
          if ((index + 1) % 2000 === 0) log(`placed ${index + 1} limit orders`);
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    orders: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}

/** pg_stat_user_tables per table: sequential scans, the rows they read, index scans. */
type TableScans = Map<string, { seq: number; seqRows: number; idx: number }>;

function scansBetween(
  before: TableScans,
  after: TableScans,
): [string, { seq: number; seqRows: number; idx: number }][] {
  return [...after]
    .map(([table, now]) => {
      const then = before.get(table) ?? { seq: 0, seqRows: 0, idx: 0 };
      return [
        table,
        { seq: now.seq - then.seq, seqRows: now.seqRows - then.seqRows, idx: now.idx - then.idx },
      ] as [string, { seq: number; seqRows: number; idx: number }];
    })
    .filter(([, delta]) => delta.seq > 0 || delta.idx > 0)
    .sort((a, b) => b[1].seqRows - a[1].seqRows);
}

export type Fills = {
  engine: string;
  placing: Placing;
  customers: number;
  result: CrossResult;
  postgresCpu: number | null;
  transactions: number | null;
  waits: WaitSample | null;
  statements: [string, number][] | null;
  waitedMs: [string, number][] | null;
  scans: [string, { seq: number; seqRows: number; idx: number }][] | null;
  /** The same rows inserted by psql after the fills (fills-floor.ts); null when not asked for. */
  floor: FillsFloor | null;
  /** The floor's time ÷ the fills' (tick to last commit): the fills' speed as a share of the rows' (goal ≥ 0.5). */
  floorRatio: number | null;
};

/** Where the floor is taken: the app's database, by URL for psql and through `db` for the marks. */
export type FloorTarget = { url: string; db: Database['db'] };

/** What crossOrders reads of PostgreSQL around the fills. */
export type FillProbes = {
  cpu: () => number;
  commits: () => Promise<number>;
  waits: () => () => Promise<WaitSample>;
  tables: () => Promise<TableScans>;
};

/** The probes on the app's database `florin_bench`, read through `monitor` (its own connection). */
export function probesOn(monitor: Database, cpu: () => number): FillProbes {
  return {
    cpu,
    commits: async () =>
      Number(
        (
          await sql<{ commits: string }>`
            SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = 'florin_bench'`.execute(
            monitor.db,
          )
        ).rows[0]?.commits ?? 0,
      ),
    waits: () => sampleWaits(monitor.db, 'florin_bench'),
    tables: async () => {
      const rows = await sql<{ table: string; seq: string; seq_rows: string; idx: string }>`
        SELECT relname AS table, seq_scan::text AS seq, seq_tup_read::text AS seq_rows,
          coalesce(idx_scan, 0)::text AS idx
        FROM pg_stat_user_tables`.execute(monitor.db);
      return new Map(
        rows.rows.map((row) => [
          row.table,
          { seq: Number(row.seq), seqRows: Number(row.seq_rows), idx: Number(row.idx) },
        ]),
      );
    },
  };
}

export async function crossOrders(
  server: Server,
  probes?: FillProbes,
  floorOn?: FloorTarget,
): Promise<Fills> {
  const engine = server.engine === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const made = await ask(
    server,
    {
      type: 'customers',
      count: ORDER_CUSTOMERS,
      platform: 2,
      gbpPence: String(ORDER_FUNDING_PENCE),
      label: 'l',
    },
    'customers',
  );
  log(`${engine}: ${made.customers.length} trading customers made in ${made.seconds.toFixed(1)} s`);
  const placing = await placeOrders(server, made.customers);
  log(
    `${engine}: ${placing.orders} limit orders placed over HTTP in ${placing.seconds.toFixed(1)} s = ` +
      `${placing.perSecond.toFixed(0)}/s (${PLACING_CLIENTS} clients), p50 ${placing.p50.toFixed(1)} ms, p99 ${placing.p99.toFixed(1)} ms`,
  );
  // A settled moment: the tick after the last placement has swept (finding nothing) before the crossing one.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  log(`${engine}: one tick to mid ${CROSSING_MID} crosses all ${ORDERS} (load average ${loadAverages()})`);
  const mark = floorOn ? await markBeforeFills(floorOn.db) : null;
  const cpu0 = probes?.cpu();
  const commits0 = await probes?.commits();
  const tables0 = await probes?.tables();
  const stopWaits = probes?.waits();
  const {
    value: { result },
    statements,
    waitedMs,
  } = await countingStatements(server, () =>
    ask(
      server,
      { type: 'cross', mid: CROSSING_MID, expected: ORDERS, timeoutMs: FILL_TIMEOUT_MS },
      'crossed',
    ),
  );
  const waits = stopWaits ? await stopWaits() : null;
  const postgresCpu = probes && cpu0 !== undefined ? probes.cpu() - cpu0 : null;
  const commits = probes && commits0 !== undefined ? (await probes.commits()) - commits0 : null;
  // PostgreSQL flushes table statistics about once a second.
  if (probes) await new Promise((resolve) => setTimeout(resolve, 1500));
  const scans = probes && tables0 ? scansBetween(tables0, await probes.tables()) : null;
  if (scans)
    log(
      `${engine}: table scans during the fills ${scans
        .slice(0, 8)
        .map(([table, d]) => `${table}: ${d.seq} seq (${d.seqRows} rows), ${d.idx} idx`)
        .join('; ')}`,
    );
  log(
    `${engine}: ${result.filled} filled, ${result.stillOpen} still open; all committed ${result.allCommittedMs.toFixed(0)} ms after the tick ` +
      `(filled_at: first ${result.firstFillMs.toFixed(0)} ms, last ${result.lastFillMs.toFixed(0)} ms; tick itself ${result.tickMs.toFixed(1)} ms); ` +
      `CPU s: app ${result.appCpuSeconds.toFixed(1)}, PostgreSQL ${postgresCpu === null ? '–' : postgresCpu.toFixed(1)}; ` +
      `transactions committed ${commits ?? '–'} (${result.polls} of them the benchmark's polls)`,
  );
  if (waits) log(`${engine}: backends during the fills ${JSON.stringify(waits.events)}`);
  if (statements)
    log(
      `${engine}: ${(totalOf(statements) / Math.max(1, result.filled)).toFixed(1)} statements per fill: ${topStatements(statements, Math.max(1, result.filled), 30)}`,
    );
  // The fills' 10,000 mails are the sender's; the floor is taken once they are sent, with nothing beside it.
  if (floorOn) await mailSent(floorOn.db);
  const floor = floorOn && mark ? await measureFillsFloor(floorOn.url, mark, probes?.cpu) : null;
  const floorRatio = floor ? floor.milliseconds / result.allCommittedMs : null;
  if (floor)
    log(
      `${engine}: the same rows inserted by psql in ${floor.milliseconds.toFixed(0)} ms (${JSON.stringify(floor.rows)}); ` +
        `fills ÷ floor ${floorRatio?.toFixed(2)}; with the orders, holds and balances changed too ${floor.withUpdatesMilliseconds?.toFixed(0) ?? '–'} ms`,
    );
  return {
    engine,
    placing,
    customers: made.customers.length,
    result,
    postgresCpu,
    // The polls, and four more reads of the benchmark's around them.
    transactions: commits === null ? null : commits - result.polls - 4,
    waits,
    statements,
    waitedMs,
    scans,
    floor,
    floorRatio,
  };
}
