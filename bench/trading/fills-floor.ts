/**
 * The fills' floor (issue 43): the very rows the crossing tick's fills wrote (journals, entries, trades,
 * notifications, mail, house deltas), inserted again by `psql` into the same tables in one transaction and
 * rolled back. Same tables, indexes, keys and triggers, same row counts and shapes: what PostgreSQL needs to
 * write those rows at all, beside which the fills are measured.
 */
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Database } from '../../apps/server/src/db/index.js';

const run = promisify(execFile);

/** Where each table stood before the tick: the fills' rows are those after it. */
export type FloorMark = {
  journals: string;
  entries: string;
  trades: string;
  notifications: string;
  mail: string;
  houseDeltas: string;
};

export type FillsFloor = {
  /** Rows a table, as the fills wrote them and the floor inserted them again. */
  rows: Record<string, number>;
  /** From the first insert to the last, as PostgreSQL's clock saw it (the copies staged before, the rollback after). */
  milliseconds: number;
  /** PostgreSQL's CPU over the whole psql run (staging and rollback included); null without a probe. */
  postgresCpuSeconds: number | null;
  /** The same inserts with the orders, holds and balances the fills changed changed again (the fastest run). */
  withUpdatesMilliseconds?: number;
};

/** The tables' high-water marks, read before the tick. */
export async function markBeforeFills(db: Database['db']): Promise<FloorMark> {
  const row = await sql<FloorMark>`
    SELECT (SELECT coalesce(max(id), 0) FROM journals)::text AS journals,
      (SELECT coalesce(max(id), 0) FROM entries)::text AS entries,
      (SELECT coalesce(max(seq), 0) FROM trades)::text AS trades,
      (SELECT coalesce(max(seq), 0) FROM notifications)::text AS notifications,
      (SELECT coalesce(max(id), 0) FROM mail_outbox)::text AS mail,
      (SELECT coalesce(max(id), 0) FROM house_balance_deltas)::text AS "houseDeltas"`.execute(db);
  const mark = row.rows[0];
  if (!mark) throw new Error('no marks');
  return mark;
}

/**
 * The rows a fill also changes: its order (filled), its hold (posted) and its customer's two balances. Put
 * back first as they stood before the fills (untimed), then changed as the fills changed them, each table
 * in one statement.
 */
const UPDATES = {
  stage: `
CREATE TEMP TABLE floor_orders AS SELECT id, hold_id FROM orders WHERE id IN (SELECT -order_id FROM floor_trades);
CREATE TEMP TABLE floor_holds AS SELECT id, account_id, amount FROM holds WHERE id IN (SELECT hold_id FROM floor_orders);
CREATE TEMP TABLE floor_accounts AS
  SELECT e.account_id AS id, sum(e.amount) AS delta,
    coalesce((SELECT sum(h.amount) FROM floor_holds h WHERE h.account_id = e.account_id), 0) AS release
  FROM floor_entries e WHERE e.balance_after IS NOT NULL GROUP BY e.account_id;`,
  putBack: `
UPDATE orders SET status = 'open', filled_at = NULL WHERE id IN (SELECT id FROM floor_orders);
UPDATE holds h SET status = 'pending', remaining = h.amount, resolved_at = NULL WHERE id IN (SELECT id FROM floor_holds);
UPDATE accounts a SET posted = a.posted - f.delta, held = a.held + f.release FROM floor_accounts f WHERE a.id = f.id;`,
  holds: `UPDATE holds h SET remaining = 0, status = 'posted', resolved_at = now() FROM floor_holds f WHERE h.id = f.id;`,
  accounts: `UPDATE accounts a SET posted = a.posted + f.delta, held = a.held - f.release FROM floor_accounts f WHERE a.id = f.id;`,
  orders: `UPDATE orders o SET status = 'filled', filled_at = now() FROM floor_orders f WHERE o.id = f.id;`,
};

/**
 * The psql script: the fills' rows copied into temporary tables with every unique value made new (ids and
 * sequence numbers negated, which no row has; the journals' keys suffixed), then inserted into the real
 * tables in one transaction, timed, and rolled back. `withUpdates`: the orders, holds and balances the
 * fills changed are changed again in the same transaction, in the fills' order.
 */
function floorScript(mark: FloorMark, withUpdates: boolean): string {
  const only = (text: string) => (withUpdates ? text : '');
  const stage = (table: string, copy: string, where: string, changes: string) => `
CREATE TEMP TABLE ${copy} AS SELECT * FROM ${table} WHERE ${where};
UPDATE ${copy} SET ${changes};
SELECT '${table}|' || count(*) FROM ${copy};`;
  return `\\set ON_ERROR_STOP 1
${stage('journals', 'floor_journals', `id > ${mark.journals} AND kind = 'limit_order_fill'`, `id = -id, idempotency_key = idempotency_key || ':floor'`)}
${stage('entries', 'floor_entries', `id > ${mark.entries} AND journal_id IN (SELECT -id FROM floor_journals)`, 'id = -id, journal_id = -journal_id')}
${stage('trades', 'floor_trades', `seq > ${mark.trades} AND kind IN ('limit', 'stop')`, 'id = -id, seq = -seq, journal_id = -journal_id, order_id = -order_id')}
${stage('notifications', 'floor_notifications', `seq > ${mark.notifications} AND event = 'trade_executed'`, 'id = -id, seq = -seq')}
${stage('mail_outbox', 'floor_mail', `id > ${mark.mail} AND event = 'trade_executed'`, 'id = -id')}
${stage('house_balance_deltas', 'floor_house_deltas', `id > ${mark.houseDeltas}`, 'id = -id')}
${only(UPDATES.stage)}
BEGIN;
${only(UPDATES.putBack)}
SELECT extract(epoch FROM clock_timestamp()) AS started \\gset
${only(UPDATES.holds)}
INSERT INTO journals SELECT * FROM floor_journals;
${only(UPDATES.accounts)}
INSERT INTO entries SELECT * FROM floor_entries;
INSERT INTO trades SELECT * FROM floor_trades;
${only(UPDATES.orders)}
INSERT INTO notifications SELECT * FROM floor_notifications;
INSERT INTO mail_outbox SELECT * FROM floor_mail;
INSERT INTO house_balance_deltas SELECT * FROM floor_house_deltas;
SELECT 'ms|' || round(((extract(epoch FROM clock_timestamp()) - :started) * 1000)::numeric, 1);
ROLLBACK;
`;
}

/** Runs of the floor; the fastest is the floor, as a floor is what the server can do at best. */
const FLOOR_RUNS = 3;

/**
 * The floor, by `psql` on the benchmark's database `url`, after the fills: the fastest of FLOOR_RUNS runs
 * (each rolls back, so each inserts the same rows into the same tables).
 */
export async function measureFillsFloor(
  url: string,
  mark: FloorMark,
  cpu?: () => number,
): Promise<FillsFloor> {
  let best: FillsFloor | undefined;
  let withUpdates = Number.POSITIVE_INFINITY;
  for (let round = 0; round < FLOOR_RUNS; round += 1) {
    const floor = await floorRun(url, floorScript(mark, false), cpu);
    if (!best || floor.milliseconds < best.milliseconds) best = floor;
    withUpdates = Math.min(withUpdates, (await floorRun(url, floorScript(mark, true))).milliseconds);
  }
  if (!best) throw new Error('no floor run');
  return { ...best, withUpdatesMilliseconds: withUpdates };
}

async function floorRun(url: string, script: string, cpu?: () => number): Promise<FillsFloor> {
  const cpu0 = cpu?.();
  const started = performance.now();
  const child = run('psql', [url, '-X', '-q', '-A', '-t', '-f', '-'], { maxBuffer: 1 << 20 });
  child.child.stdin?.end(script);
  const { stdout } = await child;
  const wall = performance.now() - started;
  const lines = stdout
    .split('\n')
    .map((line) => line.trim().split('|'))
    .filter((parts) => parts.length === 2);
  const rows = Object.fromEntries(
    lines.filter(([key]) => key !== 'ms').map(([key, value]) => [key ?? '', Number(value)]),
  );
  const ms = lines.find(([key]) => key === 'ms')?.[1];
  if (ms === undefined) throw new Error(`psql gave no time (${wall.toFixed(0)} ms):\n${stdout}`);
  return {
    rows,
    milliseconds: Number(ms),
    postgresCpuSeconds: cpu && cpu0 !== undefined ? cpu() - cpu0 : null,
  };
}
