import { sql } from 'kysely';
import type { DomainCheck } from '../../ledger/index.js';

/**
 * Invariant 8 for trading (shared/LEDGER.md): every trade has its journal
 * (an instant trade's keyed by its quote), its customer, coin and currency, and
 * a fill its customer's order; an open order holds, a filled one
 * posted its hold once, a cancelled or expired one released it with nothing
 * posted.
 */
export const tradingDomainCheck: DomainCheck = {
  name: 'trading',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'trade ' || t.id || ' has no journal of its kind' AS message
      FROM trades t
      LEFT JOIN journals j ON j.id = t.journal_id
      WHERE j.id IS NULL
        OR (t.kind IN ('instant', 'market') AND j.kind <> 'trade')
        OR (t.kind IN ('limit', 'stop') AND j.kind <> 'limit_order_fill')
        OR (t.quote_id IS NOT NULL AND j.idempotency_key <> 'trade:quote:' || t.quote_id)
      UNION ALL
      -- The keys migration 0039 dropped (decision 136): the customer, the coin, the currency and the order exist.
      SELECT 'trade ' || t.id || ' names a customer, coin, currency or order that does not exist, or another customer''s order'
      FROM trades t
      LEFT JOIN users u ON u.id = t.user_id
      LEFT JOIN assets coin ON coin.code = t.asset
      LEFT JOIN assets fiat ON fiat.code = t.fiat
      LEFT JOIN orders o ON o.id = t.order_id
      WHERE u.id IS NULL OR coin.code IS NULL OR fiat.code IS NULL
        OR (t.order_id IS NOT NULL AND (o.id IS NULL OR o.user_id <> t.user_id))
      UNION ALL
      SELECT 'order ' || o.id || ' is ' || o.status || ' but its hold is ' || h.status
        || ' with ' || count(j.id) || ' journals'
      FROM orders o
      JOIN holds h ON h.id = o.hold_id
      LEFT JOIN journals j ON j.hold_id = o.hold_id
      GROUP BY o.id, o.status, h.status
      HAVING NOT (
        (o.status = 'open' AND h.status = 'pending' AND count(j.id) = 0)
        OR (o.status = 'filled' AND h.status = 'posted' AND count(j.id) = 1)
        OR (o.status = 'cancelled' AND h.status = 'voided' AND count(j.id) = 0)
        OR (o.status = 'expired' AND h.status = 'expired' AND count(j.id) = 0)
      )`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
