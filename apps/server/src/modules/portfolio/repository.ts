import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { HistoryFilter } from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import { readCustomerBalances } from './customer-balances.js';

export type UserAccountRow = { id: string; asset: string; kind: string; posted: string; held: string };

/**
 * One journal as the customer's history sees it: their legs folded in SQL
 * (amounts are signed counts of the asset's smallest unit, as text).
 */
export type HistoryJournal = {
  journal_id: string;
  journal_kind: string;
  /** From the journal's metadata: the fee taken and the GBP valuation recorded, decimal strings. */
  fee: string | null;
  gbp_value: string | null;
  /** A trade's own figures from its trades row (null for any other movement): counts of minor units, price decimal. */
  trade: {
    fiat: string;
    price: string;
    notional: string;
    fee: string;
    total: string;
    gbp_value: string;
  } | null;
  /** ISO 8601 in UTC, to the millisecond (formatted by the database: no Date made per row). */
  created_at: string;
  /** The customer's spendable coin leg and cash leg (a trade has both; other movements one of them). */
  coin_asset: string | null;
  coin_amount: string | null;
  cash_asset: string | null;
  cash_amount: string | null;
  /** Their legs outside the spendable accounts (a term deposit), for a movement with no spendable leg. */
  other_asset: string | null;
  other_amount: string | null;
};

/** A withdrawal whose hold is still pending: requested, not yet paid or sent (amounts in minor units, as text). */
export type PendingWithdrawalRow = {
  kind: 'fiat' | 'crypto';
  id: string;
  asset: string;
  amount: string;
  fee: string;
  status: string;
  /** ISO 8601 in UTC, to the millisecond. */
  created_at: string;
};

export type HistoryScope = {
  accounts: readonly UserAccountRow[];
  filters: readonly HistoryFilter[];
  assetKinds: ReadonlyMap<string, 'fiat' | 'coin'>;
};

const TRADE_KINDS = ['trade', 'limit_order_fill'];

/** The SQL condition a filter puts on one entry (alias e) of its journal (alias j). */
function filterCondition(filter: HistoryFilter, isCoinAccount: boolean): RawBuilder<boolean> | null {
  switch (filter) {
    case 'buy':
      return isCoinAccount ? sql<boolean>`(j.kind IN (${sql.join(TRADE_KINDS)}) AND e.amount > 0)` : null;
    case 'sell':
      return isCoinAccount ? sql<boolean>`(j.kind IN (${sql.join(TRADE_KINDS)}) AND e.amount < 0)` : null;
    case 'deposit':
      return sql<boolean>`j.kind IN ('fiat_deposit', 'crypto_deposit')`;
    case 'withdraw':
      return sql<boolean>`j.kind IN ('fiat_withdrawal', 'crypto_withdrawal')`;
  }
}

/**
 * The newest `limit` journals of one account that pass the filters, newest
 * first, from the (account_id, journal_id) index; null when no filter can
 * match on this account (a fiat account has no buys of its own).
 */
function accountJournals(account: UserAccountRow, scope: HistoryScope, limit: number) {
  const isCoin = scope.assetKinds.get(account.asset) === 'coin' && account.kind === 'available';
  const conditions = scope.filters.map((filter) => filterCondition(filter, isCoin)).filter((c) => c !== null);
  if (scope.filters.length > 0 && conditions.length === 0) return null;
  const filtered = conditions.length > 0 ? sql`AND (${sql.join(conditions, sql` OR `)})` : sql``;
  const joinJournals = conditions.length > 0 ? sql`JOIN journals j ON j.id = e.journal_id` : sql``;
  return sql`(SELECT e.journal_id FROM entries e ${joinJournals}
    WHERE e.account_id = ${account.id} ${filtered}
    ORDER BY e.journal_id DESC LIMIT ${limit})`;
}

export function createPortfolioRepository(db: Kysely<DB>) {
  /**
   * One page of the customer's journals, newest first, in one round trip: the
   * page's ids come from each account's newest few, merged, so the database
   * never sorts a whole history; their legs are folded into one row each.
   */
  async function listJournals(
    userId: string,
    scope: HistoryScope,
    options: { limit: number; offset: number },
  ): Promise<HistoryJournal[]> {
    const perAccount = options.offset + options.limit;
    const parts = scope.accounts
      .map((account) => accountJournals(account, scope, perAccount))
      .filter((part) => part !== null);
    if (parts.length === 0) return [];
    const result = await sql<HistoryJournal>`
      WITH page AS (
        SELECT DISTINCT journal_id FROM (${sql.join(parts, sql` UNION ALL `)}) AS recent
        ORDER BY journal_id DESC LIMIT ${options.limit} OFFSET ${options.offset}
      )
      SELECT j.id::text AS journal_id, j.kind AS journal_kind,
        j.metadata->>'fee' AS fee, j.metadata->>'gbp_value' AS gbp_value,
        -- A trade's figures are what its row recorded (trades_journal: one row at most, so no entry is doubled).
        CASE WHEN t.id IS NULL THEN NULL ELSE json_build_object('fiat', t.fiat, 'price', t.price,
          'notional', t.notional::text, 'fee', t.fee::text, 'total', t.total::text,
          'gbp_value', t.gbp_value::text) END AS trade,
        to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
        max(e.asset) FILTER (WHERE a.kind = 'available' AND s.kind = 'coin') AS coin_asset,
        (sum(e.amount) FILTER (WHERE a.kind = 'available' AND s.kind = 'coin'))::text AS coin_amount,
        max(e.asset) FILTER (WHERE a.kind = 'available' AND s.kind = 'fiat') AS cash_asset,
        (sum(e.amount) FILTER (WHERE a.kind = 'available' AND s.kind = 'fiat'))::text AS cash_amount,
        max(e.asset) FILTER (WHERE a.kind <> 'available') AS other_asset,
        (sum(e.amount) FILTER (WHERE a.kind <> 'available'))::text AS other_amount
      FROM page
      JOIN journals j ON j.id = page.journal_id
      JOIN entries e ON e.journal_id = j.id
      JOIN accounts a ON a.id = e.account_id AND a.owner_user_id = ${userId}
      JOIN assets s ON s.code = e.asset
      LEFT JOIN trades t ON t.journal_id = j.id AND t.user_id = ${userId}
      GROUP BY j.id, t.id
      ORDER BY j.id DESC`.execute(db);
    return result.rows;
  }

  return {
    /**
     * The customer's withdrawals that still hold money, newest first: the same
     * set the balance's held_withdrawals adds up (their holds are pending).
     */
    async listPendingWithdrawals(userId: string, asset?: string): Promise<PendingWithdrawalRow[]> {
      const onlyAsset = asset === undefined ? sql`` : sql`WHERE w.asset = ${asset}`;
      const result = await sql<PendingWithdrawalRow>`
        SELECT w.kind, w.id, w.asset, w.amount, w.fee, w.status,
          to_char(w.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
        FROM (
          SELECT 'fiat' AS kind, id::text AS id, currency AS asset, amount::text AS amount, fee::text AS fee,
            status::text AS status, created_at, hold_id
          FROM fiat_withdrawals WHERE user_id = ${Number(userId)}
          UNION ALL
          SELECT 'crypto', id::text, asset, amount::text, fee::text, status::text, created_at, hold_id
          FROM crypto_withdrawals WHERE user_id = ${Number(userId)}
        ) w
        JOIN holds h ON h.id = w.hold_id AND h.status = 'pending'
        ${onlyAsset}
        ORDER BY w.created_at DESC, w.kind, w.id DESC`.execute(db);
      return result.rows;
    },

    /** The customer's balance in each asset they have an account in (customer-balances.ts). */
    balancesOf(userId: string) {
      return readCustomerBalances(db, userId);
    },

    /** The customer's own accounts (available, held, term deposits) with their balances. */
    listUserAccounts(userId: string, asset?: string): Promise<UserAccountRow[]> {
      let query = db
        .selectFrom('accounts')
        .select(['id', 'asset', 'kind', 'posted', 'held'])
        .where('owner_user_id', '=', userId)
        .orderBy('id');
      if (asset) query = query.where('asset', '=', asset);
      return query.execute();
    },

    /** Asset code → fiat or coin, and how each is shown (coin_id, currency symbol). */
    async listAssets() {
      const [assets, coins, currencies] = await Promise.all([
        db.selectFrom('assets').select(['code', 'kind', 'scale']).execute(),
        db
          .selectFrom('coins')
          .select([
            'asset',
            'coin_id',
            'name',
            'active',
            'sort_order',
            'disable_buy',
            'disable_sell',
            'disable_deposit',
            'disable_withdraw',
          ])
          .where('primary', '=', 1)
          .orderBy('sort_order')
          .execute(),
        db
          .selectFrom('currencies')
          .select(['code', 'symbol', 'active', 'sort_order'])
          .orderBy('sort_order')
          .execute(),
      ]);
      return { assets, coins, currencies };
    },

    listJournals,

    async countJournals(scope: HistoryScope): Promise<number> {
      const parts = scope.accounts
        .map((account) => accountJournals(account, scope, 2_147_483_647))
        .filter((part) => part !== null);
      if (parts.length === 0) return 0;
      const result = await sql<{ count: string }>`
        SELECT count(DISTINCT journal_id)::text AS count FROM (${sql.join(parts, sql` UNION ALL `)}) AS all_journals`.execute(
        db,
      );
      return Number(result.rows[0]?.count ?? 0);
    },
  };
}

export type PortfolioRepository = ReturnType<typeof createPortfolioRepository>;
