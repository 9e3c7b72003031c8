import { sql } from 'kysely';
import type { DomainCheck } from '../../ledger/index.js';

/**
 * Invariant 8 for term deposits (shared/LEDGER.md): a live deposit has its
 * lock journal, no maturity journal and its amount in its term account; an
 * expired one also has exactly one maturity journal and an empty term
 * account; every term deposit journal belongs to a deposit.
 */
export const termDepositDomainCheck: DomainCheck = {
  name: 'term-deposits',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'term deposit ' || d.id || ' is ' || d.status || ' with ' || d.locks || ' lock and '
        || d.maturities || ' maturity journals and ' || coalesce(d.balance, 0) || ' in its term account' AS message
      FROM (
        SELECT t.id, t.status, t.amount,
          (SELECT count(*) FROM journals j WHERE j.idempotency_key = 'term_deposit:lock:' || t.id
            AND j.kind = 'term_deposit_lock') AS locks,
          (SELECT count(*) FROM journals j WHERE j.idempotency_key = 'term_deposit:maturity:' || t.id
            AND j.kind = 'term_deposit_maturity') AS maturities,
          (SELECT a.posted FROM accounts a WHERE a.kind = 'term' AND a.owner_user_id = t.user_id
            AND a.reference = t.id::text AND a.asset = t.asset) AS balance
        FROM term_deposits t
      ) d
      WHERE NOT (d.locks = 1 AND (
        (d.status = 'live' AND d.maturities = 0 AND coalesce(d.balance, 0) = d.amount)
        OR (d.status = 'expired' AND d.maturities = 1 AND coalesce(d.balance, 0) = 0)))
      UNION ALL
      SELECT 'journal ' || j.id || ' (' || j.kind || ') belongs to no term deposit'
      FROM journals j
      WHERE j.idempotency_key LIKE 'term\\_deposit:%'
        AND NOT EXISTS (SELECT 1 FROM term_deposits t WHERE j.reference = 'term_deposit:' || t.id)`.execute(
      db,
    );
    return result.rows.map((row) => row.message);
  },
};
