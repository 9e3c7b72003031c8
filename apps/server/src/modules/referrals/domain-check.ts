import { sql } from 'kysely';
import type { DomainCheck } from '../../ledger/index.js';

/** Invariant 8 for referrals: every commission and claim matches its ledger effect. */
export const referralsDomainCheck: DomainCheck = {
  name: 'referrals',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'commission for trade ' || c.trade_id || ' does not match its journal' AS message
      FROM referral_commissions c
      LEFT JOIN journals j ON j.id = c.journal_id
      WHERE (c.journal_id IS NOT NULL AND (j.id IS NULL OR j.kind <> 'affiliate_commission'
               OR j.idempotency_key <> 'referral_commission:trade:' || c.trade_id
               OR c.amount <= 0
               OR NOT EXISTS (SELECT 1 FROM entries e JOIN accounts a ON a.id = e.account_id
                              WHERE e.journal_id = j.id AND a.kind = 'affiliate'
                                AND a.owner_user_id = c.referrer_user_id AND e.amount = c.amount)))
         OR (c.journal_id IS NULL AND EXISTS (SELECT 1 FROM journals x
               WHERE x.idempotency_key = 'referral_commission:trade:' || c.trade_id))
      UNION ALL
      SELECT 'claim ' || c.id || ' is ' || c.status || ' but its hold is ' || h.status
        || ' with ' || count(j.id) || ' journals'
      FROM affiliate_claims c
      JOIN holds h ON h.id = c.hold_id
      LEFT JOIN journals j ON j.hold_id = c.hold_id
      GROUP BY c.id, c.status, h.status, h.amount, c.amount, c.journal_id
      HAVING NOT (
        h.amount = c.amount AND (
          (c.status = 'paid' AND h.status = 'posted' AND count(j.id) = 1
            AND bool_and(j.id = c.journal_id AND j.kind = 'affiliate_claim'))
          OR (c.status = 'rejected' AND h.status = 'voided' AND count(j.id) = 0)
          OR (c.status = 'waiting' AND h.status = 'pending' AND count(j.id) = 0)
        )
      )`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
