import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export type Violation = { invariant: number; message: string };
export type CheckResult = { ok: boolean; violations: Violation[]; checkedAt: Date };

/**
 * A domain module's own check that its rows match their ledger effect
 * (invariant 8: a paid withdrawal has exactly one settle journal, …).
 * It returns one message per row that does not.
 */
export type DomainCheck = { name: string; run: (db: Kysely<DB>) => Promise<string[]> };

const APPEND_ONLY_TRIGGERS = [
  'journals_append_only',
  'journals_no_truncate',
  'entries_append_only',
  'entries_no_truncate',
];

/** The SQL behind each invariant of shared/LEDGER.md; every query returns the rows that break it. */
const INVARIANTS: { invariant: number; query: ReturnType<typeof sql<{ message: string }>> }[] = [
  {
    invariant: 1,
    query: sql`
      SELECT 'journal ' || journal_id || ' sums to ' || sum(amount) || ' ' || asset AS message
      FROM entries GROUP BY journal_id, asset HAVING sum(amount) <> 0
      UNION ALL
      SELECT 'journal ' || j.id || ' has fewer than two entries'
      FROM journals j LEFT JOIN entries e ON e.journal_id = j.id
      GROUP BY j.id HAVING count(e.id) < 2
      UNION ALL
      SELECT 'entry ' || e.id || ' is in ' || e.asset || ' on a ' || a.asset || ' account'
      FROM entries e JOIN accounts a ON a.id = e.account_id WHERE e.asset <> a.asset
      UNION ALL
      -- No foreign key since migration 0039 (decision 136): the checker proves it.
      SELECT 'entry ' || e.id || ' is in journal ' || e.journal_id || ', which does not exist'
      FROM entries e LEFT JOIN journals j ON j.id = e.journal_id WHERE j.id IS NULL`,
  },
  {
    invariant: 2,
    query: sql`
      SELECT 'balances in ' || a.asset || ' sum to ' || sum(a.posted + coalesce(d.amount, 0)) AS message
      FROM accounts a
      LEFT JOIN (SELECT account_id, sum(amount) AS amount FROM house_balance_deltas GROUP BY account_id) d
        ON d.account_id = a.id
      GROUP BY a.asset HAVING sum(a.posted + coalesce(d.amount, 0)) <> 0`,
  },
  {
    invariant: 3,
    query: sql`
      SELECT 'account ' || a.id || ' holds ' || (a.posted + coalesce(d.amount, 0)) || ' but its entries sum to ' || coalesce(e.amount, 0) AS message
      FROM accounts a
      LEFT JOIN (SELECT account_id, sum(amount) AS amount FROM entries GROUP BY account_id) e ON e.account_id = a.id
      LEFT JOIN (SELECT account_id, sum(amount) AS amount FROM house_balance_deltas GROUP BY account_id) d
        ON d.account_id = a.id
      WHERE a.posted + coalesce(d.amount, 0) <> coalesce(e.amount, 0)
      UNION ALL
      SELECT 'house deltas on customer account ' || d.account_id
      FROM house_balance_deltas d JOIN accounts a ON a.id = d.account_id WHERE NOT a.is_house`,
  },
  {
    invariant: 4,
    query: sql`
      SELECT 'account ' || id || ' is overdrawn: posted ' || posted || ', held ' || held AS message
      FROM accounts WHERE (non_negative AND posted - held < 0) OR held < 0
      UNION ALL
      SELECT 'customer account ' || id || ' lost its non-negative rule' FROM accounts WHERE NOT is_house AND NOT non_negative`,
  },
  {
    invariant: 5,
    query: sql`
      SELECT 'account ' || a.id || ' holds ' || a.held || ' but its pending holds add up to ' || coalesce(h.remaining, 0) AS message
      FROM accounts a
      LEFT JOIN (SELECT account_id, sum(remaining) AS remaining FROM holds WHERE status = 'pending' GROUP BY account_id) h
        ON h.account_id = a.id
      WHERE a.held <> coalesce(h.remaining, 0)
      UNION ALL
      SELECT 'hold ' || id || ' is ' || status || ' with ' || remaining || ' left'
      FROM holds WHERE status <> 'pending' AND (remaining <> 0 OR resolved_at IS NULL)
      UNION ALL
      -- No foreign key since migration 0039 (decision 136): the checker proves it.
      SELECT 'journal ' || j.id || ' posts hold ' || j.hold_id || ', which does not exist'
      FROM journals j LEFT JOIN holds h ON h.id = j.hold_id WHERE j.hold_id IS NOT NULL AND h.id IS NULL`,
  },
  {
    invariant: 6,
    query: sql`
      SELECT 'trigger ' || expected.name || ' is missing or disabled' AS message
      FROM unnest(${APPEND_ONLY_TRIGGERS}::text[]) AS expected (name)
      WHERE NOT EXISTS (
        SELECT 1 FROM pg_trigger t WHERE t.tgname = expected.name AND t.tgenabled <> 'D'
      )`,
  },
  {
    invariant: 7,
    query: sql`
      SELECT 'idempotency key ' || idempotency_key || ' has ' || count(*) || ' journals' AS message
      FROM journals GROUP BY idempotency_key HAVING count(*) > 1`,
  },
];

/** Runs every invariant (and the domain modules' checks) and lists what breaks. */
export async function checkLedger(
  db: Kysely<DB>,
  domainChecks: readonly DomainCheck[] = [],
): Promise<CheckResult> {
  const violations: Violation[] = [];
  // One snapshot for all queries, so a journal committing mid-check cannot look unbalanced.
  await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      for (const { invariant, query } of INVARIANTS) {
        const result = await query.execute(trx);
        for (const row of result.rows) violations.push({ invariant, message: row.message });
      }
    });
  for (const check of domainChecks) {
    for (const message of await check.run(db))
      violations.push({ invariant: 8, message: `${check.name}: ${message}` });
  }
  return { ok: violations.length === 0, violations, checkedAt: new Date() };
}

export function describeViolations(result: CheckResult): string {
  return result.violations.map((v) => `invariant ${v.invariant}: ${v.message}`).join('\n');
}
