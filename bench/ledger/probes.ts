import fs from 'node:fs';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from '../../apps/server/src/db/schema.js';
import { processCpu, type PostJournal, type Workload } from './workloads.js';

/** "begin", "insert journals", "select accounts for update", … from a statement's text. */
function label(text: string): string {
  const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? '?';
  const table = /\b(?:into|from|update)\s+"?(\w+)"?/i.exec(text)?.[1];
  const forUpdate = /\bfor update\b/i.test(text) ? ' for update' : '';
  return `${verb}${table ? ` ${table}` : ''}${forUpdate}`;
}

export type StatementCount = { perJournal: number; breakdown: [string, number][] };

/**
 * Round trips the ledger makes per journal, BEGIN and COMMIT included: the
 * journals go one at a time through a pool whose clients count every query.
 */
export async function countStatements(
  url: string,
  post: PostJournal,
  workload: Workload,
  journals: number,
): Promise<StatementCount> {
  const counts = new Map<string, number>();
  let counting = false;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const countingPool = new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== 'connect') return Reflect.get(target, property, receiver) as unknown;
      return async () => {
        const client = await target.connect();
        return new Proxy(client, {
          get(inner, name) {
            const value = Reflect.get(inner, name) as unknown;
            if (name === 'query') {
              return (text: unknown, ...rest: unknown[]) => {
                if (counting && typeof text === 'string') {
                  const key = label(text);
                  counts.set(key, (counts.get(key) ?? 0) + 1);
                }
                return (inner.query as (...args: unknown[]) => unknown).call(inner, text, ...rest);
              };
            }
            return typeof value === 'function'
              ? (value as (...args: unknown[]) => unknown).bind(inner)
              : value;
          },
        });
      };
    },
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: countingPool }) });
  try {
    // Warm the ledger's house-account cache first, as a running server has it.
    for (let i = 0; i < 3; i += 1)
      await post(db, workload.journal(`bench:census-warm:${workload.name}:${i}`));
    counting = true;
    for (let i = 0; i < journals; i += 1)
      await post(db, workload.journal(`bench:census:${workload.name}:${i}`));
    counting = false;
  } finally {
    await db.destroy();
  }
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  return {
    perJournal: total / journals,
    breakdown: [...counts].map(([key, count]) => [key, count / journals] as [string, number]),
  };
}

export type WaitSample = {
  samples: number;
  /** state / wait event → average number of backends of the database in it. */
  events: [string, number][];
  /** lock type and mode → average number of ungranted locks. */
  lockWaits: [string, number][];
};

/**
 * Polls pg_stat_activity and pg_locks while a run goes on. "idle in
 * transaction / Client:ClientRead" means the server waits for the client's
 * next statement mid-transaction; "active" with no wait event is on a CPU.
 * `monitor` must be connected to `database`, so lock targets have names.
 */
export function sampleWaits(monitor: Kysely<DB>, database: string, intervalMs = 50) {
  const events = new Map<string, number>();
  const locks = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const activity = await sql<{ event: string; count: number }>`
        SELECT coalesce(state, '?') || coalesce(' / ' || wait_event_type || ':' || wait_event, '') AS event,
               count(*)::int AS count
        FROM pg_stat_activity
        WHERE datname = ${database} AND pid <> pg_backend_pid() AND backend_type = 'client backend'
        GROUP BY 1`.execute(monitor);
      const waiting = await sql<{ lock: string; count: number }>`
        SELECT l.locktype || ' ' || l.mode || coalesce(' on ' || c.relname, '') AS lock, count(*)::int AS count
        FROM pg_locks l LEFT JOIN pg_class c ON c.oid = l.relation
        WHERE NOT l.granted AND l.pid IN (SELECT pid FROM pg_stat_activity WHERE datname = ${database})
        GROUP BY 1`.execute(monitor);
      samples += 1;
      for (const row of activity.rows) events.set(row.event, (events.get(row.event) ?? 0) + row.count);
      for (const row of waiting.rows) locks.set(row.lock, (locks.get(row.lock) ?? 0) + row.count);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  const average = (map: Map<string, number>) =>
    [...map]
      .map(([key, total]) => [key, total / Math.max(1, samples)] as [string, number])
      .sort((a, b) => b[1] - a[1]);
  return async (): Promise<WaitSample> => {
    running = false;
    await loop;
    return { samples, events: average(events), lockWaits: average(locks) };
  };
}

/** The postmaster's pid: the parent of any backend of the server. */
export async function findPostmaster(db: Kysely<DB>): Promise<number> {
  const result = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);
  const ppid = processCpu(result.rows[0]?.pid ?? 0)?.ppid;
  if (!ppid) throw new Error('cannot find the PostgreSQL server process in /proc');
  return ppid;
}

/**
 * CPU seconds a PostgreSQL server has used so far: the postmaster, its live
 * children (backends, walwriter, autovacuum, …) and the children it reaped.
 */
export function serverCpuSeconds(postmaster: number): number {
  const root = processCpu(postmaster);
  let total = root ? root.own + root.children : 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = processCpu(Number(entry));
    if (child?.ppid === postmaster) total += child.own;
  }
  return total;
}
