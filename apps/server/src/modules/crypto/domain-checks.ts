import { sql } from 'kysely';
import type { DomainCheck } from '../../ledger/index.js';

/**
 * Invariant 8 for crypto deposits (shared/LEDGER.md): each deposit's status
 * matches its journals (pending and dropped: none; credited straight from
 * the chain or in suspense: its chain key's journal; assigned or returned
 * from suspense: that one and the staff journal), and every journal a
 * deposit reference names belongs to a deposit that has it.
 */
export const cryptoDomainCheck: DomainCheck = {
  name: 'crypto',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'crypto deposit ' || d.id || ' (' || d.status || ') has journals '
        || coalesce(string_agg(j.idempotency_key, ', '), 'none') AS message
      FROM crypto_deposits d
      LEFT JOIN journals j ON j.reference = 'crypto_deposit:' || d.id AND j.kind = 'crypto_deposit'
      GROUP BY d.id, d.status, d.asset, d.txid, d.output, d.resolved_at, d.journal_id
      HAVING NOT (
        (d.status IN ('pending', 'dropped') AND count(j.id) = 0 AND d.journal_id IS NULL)
        OR (
          d.status IN ('credited', 'suspense', 'returned')
          AND bool_or(j.idempotency_key = 'crypto_deposit:' || d.asset || ':' || d.txid || ':' || d.output
            AND j.id = d.journal_id) IS TRUE
          AND count(j.id) = CASE WHEN d.status = 'suspense' OR (d.status = 'credited' AND d.resolved_at IS NULL) THEN 1 ELSE 2 END
          AND (d.status <> 'credited' OR d.resolved_at IS NULL
            OR bool_or(j.idempotency_key = 'crypto_deposit_assign:' || d.id) IS TRUE)
          AND (d.status <> 'returned' OR bool_or(j.idempotency_key = 'crypto_deposit_return:' || d.id) IS TRUE)
        )
      )
      UNION ALL
      SELECT 'journal ' || j.id || ' names ' || j.reference || ', which has no such deposit'
      FROM journals j
      LEFT JOIN crypto_deposits d ON j.reference = 'crypto_deposit:' || d.id
      WHERE j.kind = 'crypto_deposit' AND j.reference LIKE 'crypto_deposit:%'
        AND (d.id IS NULL OR d.status IN ('pending', 'dropped'))`.execute(db);
    return result.rows.map((row) => row.message);
  },
};

/**
 * Invariant 8 for crypto withdrawals (shared/LEDGER.md): held while open,
 * one settle journal once sent, the hold voided or expired and no journal
 * when it ends unsent.
 */
export const cryptoWithdrawalDomainCheck: DomainCheck = {
  name: 'crypto withdrawals',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'crypto withdrawal ' || w.id || ' is ' || w.status || ' but its hold is ' || h.status
        || ' with ' || count(j.id) || ' journals' AS message
      FROM crypto_withdrawals w
      JOIN holds h ON h.id = w.hold_id
      LEFT JOIN journals j ON j.hold_id = w.hold_id
      GROUP BY w.id, w.status, h.status, w.journal_id
      HAVING NOT (
        (w.status IN ('sent', 'confirmed') AND h.status = 'posted' AND count(j.id) = 1 AND w.journal_id IS NOT NULL
          AND bool_and(j.id = w.journal_id AND j.kind = 'crypto_withdrawal'))
        OR (w.status IN ('rejected', 'cancelled') AND h.status = 'voided' AND count(j.id) = 0)
        OR (w.status = 'expired' AND h.status = 'expired' AND count(j.id) = 0)
        OR (w.status IN ('awaiting_code', 'verified', 'pending', 'approved') AND h.status = 'pending'
          AND count(j.id) = 0)
      )`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
