import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { ORDER_HOLD_REASONS, WITHDRAWAL_HOLD_REASONS } from '../../ledger/index.js';

/**
 * The one definition of a customer's balance in an asset, which every screen
 * and the API read: what they can spend or withdraw now (available), what
 * open orders and pending withdrawals hold back (each its own line), what is
 * locked in term deposits, and the total of the four. Counts of the asset's
 * smallest unit.
 */
export type CustomerBalance = {
  available: bigint;
  heldByOrders: bigint;
  heldByWithdrawals: bigint;
  /** Every pending hold on the spendable account: the two lines above, whatever reason a later hold has too. */
  held: bigint;
  termDeposit: bigint;
  /** available + held + termDeposit: everything the customer owns in the asset. */
  total: bigint;
};

export const NO_BALANCE: CustomerBalance = {
  available: 0n,
  heldByOrders: 0n,
  heldByWithdrawals: 0n,
  held: 0n,
  termDeposit: 0n,
  total: 0n,
};

type Row = {
  asset: string;
  posted: string;
  held: string;
  term: string;
  orders: string;
  withdrawals: string;
};

/**
 * The customer's balances by asset code, in one statement (one row per asset
 * they have an account in): the ledger's posted and held, split by the
 * pending holds' reasons, plus their term accounts. `executor` may be a
 * transaction that has just moved money.
 */
export async function readCustomerBalances(
  executor: Kysely<DB>,
  userId: number | string,
  asset?: string,
): Promise<Map<string, CustomerBalance>> {
  const onlyAsset = asset === undefined ? sql`` : sql`AND a.asset = ${asset}`;
  const result = await sql<Row>`
    SELECT a.asset,
      (coalesce(sum(a.posted) FILTER (WHERE a.kind = 'available'), 0))::text AS posted,
      (coalesce(sum(a.held) FILTER (WHERE a.kind = 'available'), 0))::text AS held,
      (coalesce(sum(a.posted) FILTER (WHERE a.kind = 'term'), 0))::text AS term,
      (coalesce(sum(h.orders), 0))::text AS orders,
      (coalesce(sum(h.withdrawals), 0))::text AS withdrawals
    FROM accounts a
    LEFT JOIN LATERAL (
      SELECT sum(remaining) FILTER (WHERE reason IN (${sql.join(ORDER_HOLD_REASONS)})) AS orders,
        sum(remaining) FILTER (WHERE reason IN (${sql.join(WITHDRAWAL_HOLD_REASONS)})) AS withdrawals
      FROM holds WHERE account_id = a.id AND status = 'pending' AND a.kind = 'available'
    ) h ON true
    WHERE a.owner_user_id = ${String(userId)} AND a.kind IN ('available', 'term') ${onlyAsset}
    GROUP BY a.asset`.execute(executor);
  const balances = new Map<string, CustomerBalance>();
  for (const row of result.rows) {
    const posted = BigInt(row.posted);
    const held = BigInt(row.held);
    const termDeposit = BigInt(row.term);
    balances.set(row.asset, {
      available: posted - held,
      heldByOrders: BigInt(row.orders),
      heldByWithdrawals: BigInt(row.withdrawals),
      held,
      termDeposit,
      total: posted + termDeposit,
    });
  }
  return balances;
}
