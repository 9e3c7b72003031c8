import { sql } from 'kysely';
import type { DomainCheck } from '../../ledger/index.js';

/**
 * Invariant 8 for fiat (shared/LEDGER.md): a withdrawal's status matches its
 * hold and journals, and every transfer received has its journal.
 */
export const fiatDomainCheck: DomainCheck = {
  name: 'fiat',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'withdrawal ' || w.id || ' is ' || w.status || ' but its hold is ' || h.status
        || ' with ' || count(j.id) || ' journals' AS message
      FROM fiat_withdrawals w
      JOIN holds h ON h.id = w.hold_id
      LEFT JOIN journals j ON j.hold_id = w.hold_id
      GROUP BY w.id, w.status, h.status, w.journal_id
      HAVING NOT (
        (w.status = 'paid' AND h.status = 'posted' AND count(j.id) = 1 AND w.journal_id IS NOT NULL
          AND bool_and(j.id = w.journal_id AND j.kind = 'fiat_withdrawal'))
        OR (w.status IN ('rejected', 'cancelled') AND h.status = 'voided' AND count(j.id) = 0)
        OR (w.status IN ('pending', 'approved') AND h.status = 'pending' AND count(j.id) = 0)
      )
      UNION ALL
      SELECT 'deposit ' || d.id || ' (' || d.status || ') has journals ' || coalesce(string_agg(j.idempotency_key, ', '), 'none')
      FROM fiat_deposits d
      LEFT JOIN journals j ON j.reference = 'fiat_deposit:' || d.id AND j.kind = 'fiat_deposit'
      GROUP BY d.id, d.status, d.currency, d.bank_transaction_id, d.resolved_by, d.resolved_at
      HAVING NOT (
        bool_or(j.idempotency_key = 'fiat_deposit:' || d.currency || ':' || d.bank_transaction_id) IS TRUE
        AND count(j.id) = CASE WHEN d.status = 'suspense' OR (d.status = 'credited' AND d.resolved_at IS NULL) THEN 1 ELSE 2 END
        AND (d.status <> 'credited' OR d.resolved_at IS NULL OR bool_or(j.idempotency_key = 'fiat_deposit_assign:' || d.id) IS TRUE)
        AND (d.status <> 'returned' OR bool_or(j.idempotency_key = 'fiat_deposit_return:' || d.id) IS TRUE)
      )`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
