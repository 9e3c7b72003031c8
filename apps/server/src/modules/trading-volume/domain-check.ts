import { sql } from 'kysely';
import type { DomainCheck } from '../../ledger/index.js';

/**
 * Invariant 8 for the tier volume (issue 43): each customer's running total for a
 * year is the sum of that year's trades, and no year with trades lacks its total.
 * An insert of trades that forgot its upsert, or a total edited by hand, shows here.
 */
export const tradingVolumeDomainCheck: DomainCheck = {
  name: 'trading volume',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT CASE WHEN v.user_id IS NULL
          THEN 'customer ' || t.user_id || ' traded ' || t.gbp_value || ' pence in ' || t.year || ' but has no total for it'
          ELSE 'customer ' || v.user_id || '''s total for ' || v.year || ' is ' || v.gbp_value
            || ' pence but their trades that year sum to ' || coalesce(t.gbp_value, 0)
        END AS message
      FROM trading_volumes v
      FULL JOIN (
        SELECT user_id, extract(year FROM created_at)::integer AS year, sum(gbp_value) AS gbp_value
        FROM trades GROUP BY 1, 2
      ) t ON t.user_id = v.user_id AND t.year = v.year
      WHERE v.user_id IS NULL OR v.gbp_value <> coalesce(t.gbp_value, 0)
      ORDER BY coalesce(v.user_id, t.user_id), coalesce(v.year, t.year)`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
