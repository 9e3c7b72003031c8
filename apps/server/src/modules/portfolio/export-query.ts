import { sql, type RawBuilder } from 'kysely';
import { TRANSACTION_TYPES, type TransactionType } from '@florin/contracts';
import { JOURNAL_TYPES } from './transactions.js';

/**
 * `units` counts of the smallest unit as a decimal with the asset's `scale`
 * places, as fromMinorUnits writes it ("1.50000000", "-0.05", "7"). The
 * divisor carries `scale` places itself, so the division is exact at any
 * scale (numeric division would otherwise stop at 16 significant digits).
 */
export function decimalOf(units: RawBuilder<unknown>, scale: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`round(${units}::numeric / round(10::numeric ^ ${scale}, ${scale}), ${scale})::text`;
}

/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, a
 * tab or a carriage return) gets a quote mark in front, as csvCell does — but
 * a plain negative number stays a number. An empty cell becomes NULL, which
 * COPY writes as nothing (an empty string it would write as "").
 */
export function csvSafe(cell: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`CASE
    WHEN ${cell} ~ ${sql.lit('^[-=+@\t\r]')} AND ${cell} !~ ${sql.lit('^-?[0-9]+(\\.[0-9]+)?$')}
      THEN ${sql.lit("'")} || ${cell}
    ELSE NULLIF(${cell}, '') END`;
}

/** A decimal the journal's metadata recorded, or NULL when it recorded none (or something else). */
function recordedDecimal(key: string): RawBuilder<string> {
  const value = sql`j.metadata->>${sql.lit(key)}`;
  return sql<string>`CASE WHEN ${value} ~ ${sql.lit('^-?[0-9]+(\\.[0-9]+)?$')} THEN ${value} END`;
}

/**
 * `key` mapped through `pairs` as a CASE of literals, `otherwise` when none
 * matches: evaluated in the row, with no join (a VALUES list joined per row
 * costs a hash table a row).
 */
function caseOf(
  key: RawBuilder<unknown>,
  pairs: [string | number, RawBuilder<unknown>][],
  otherwise: RawBuilder<unknown> = sql`NULL`,
): RawBuilder<unknown> {
  const arms = pairs.map(([when, then]) => sql`WHEN ${sql.lit(when)} THEN ${then}`);
  return sql`CASE ${key} ${sql.join(arms, sql` `)} ELSE ${otherwise} END`;
}

/** One batch of the export: the newest `limit` journals with an id below `before` (any id when absent). */
export type HistoryWindow = { before?: string; limit: number };

/** Whose file: the customer and their accounts (listUserAccounts' ids), whose entries it folds. */
export type HistorySource = { userId: string; accountIds: readonly string[] };

/** A literal id (COPY takes no parameters), checked to be digits. */
function idLiteral(id: string, what: string): RawBuilder<unknown> {
  if (!/^\d+$/.test(id)) throw new Error(`not a ${what} id: ${id}`);
  return sql.lit(BigInt(id));
}

/**
 * The customer's legs of each journal, folded, newest journal first: their
 * spendable coin and cash, and anything else. Each account's entries are read
 * backwards along the (account_id, journal_id) index, and the accounts'
 * streams merged in journal order (a Merge Append), so the legs come already
 * grouped and ordered: nothing is sorted, the first rows leave at once, and a
 * window's LIMIT stops the reads after its journals. The index carries the
 * amount, so the table is not read; what an account's legs are (its asset,
 * and its kind and its asset's) is read once per account, since an entry is
 * always in its account's asset (a foreign key, migration 0032). An account
 * not the customer's adds nothing.
 */
function legsOf(source: HistorySource, window: HistoryWindow | undefined): RawBuilder<unknown> {
  const user = idLiteral(source.userId, 'user');
  if (window && (!Number.isSafeInteger(window.limit) || window.limit < 1))
    throw new Error(`not a batch size: ${window.limit}`);
  const below =
    window?.before === undefined ? sql`` : sql`AND e.journal_id < ${idLiteral(window.before, 'journal')}`;
  const branches = source.accountIds.map((id) => {
    const account = idLiteral(id, 'account');
    return sql`(SELECT e.journal_id, e.amount,
        (SELECT a.asset FROM accounts a WHERE a.id = ${account}) AS asset,
        (SELECT CASE WHEN a.kind <> 'available' THEN 'other' WHEN s.kind = 'coin' THEN 'coin' ELSE 'cash' END
          FROM accounts a JOIN assets s ON s.code = a.asset WHERE a.id = ${account}) AS leg
      FROM entries e
      WHERE e.account_id = ${account} ${below}
        AND EXISTS (SELECT FROM accounts a WHERE a.id = ${account} AND a.owner_user_id = ${user})
      ORDER BY e.journal_id DESC)`;
  });
  // Each branch is in journal order; the ORDER BY of their UNION makes it a merge, not a sort. No
  // accounts, no legs: a branch that reads nothing keeps the query's shape.
  const merged =
    branches.length > 1
      ? sql`${sql.join(branches, sql` UNION ALL `)} ORDER BY journal_id DESC`
      : (branches[0] ??
        sql`SELECT e.journal_id, e.amount, e.asset, NULL::text AS leg FROM entries e WHERE false`);
  return sql`SELECT m.journal_id,
      max(m.asset) FILTER (WHERE m.leg = 'coin') AS coin_asset,
      sum(m.amount) FILTER (WHERE m.leg = 'coin') AS coin_amount,
      max(m.asset) FILTER (WHERE m.leg = 'cash') AS cash_asset,
      sum(m.amount) FILTER (WHERE m.leg = 'cash') AS cash_amount,
      max(m.asset) FILTER (WHERE m.leg = 'other') AS other_asset,
      sum(m.amount) FILTER (WHERE m.leg = 'other') AS other_amount
    FROM (${merged}) AS m
    GROUP BY m.journal_id
    ORDER BY m.journal_id DESC ${window ? sql`LIMIT ${sql.lit(window.limit)}` : sql``}`;
}

/**
 * The rows of `Crypto History.csv` (HISTORY_CSV_COLUMNS, without the header),
 * one per journal that moved the customer's money, newest first: what
 * toTransaction makes of listJournals' rows, worked out in SQL so that
 * PostgreSQL's COPY can write the file itself. Every value is a literal
 * (COPY takes no bind parameters); `userId` is the signed-in customer's,
 * `labels` what each type is called (the spec's, unless a test says otherwise).
 *
 * Cells that carry text from a table (the label, the asset and currency
 * codes, a trade's price) go through csvSafe; the others are figures this
 * query formats itself, or recorded decimals it has checked, so they are
 * plain numbers already.
 *
 * `source` names the customer's accounts, whose entries are merged in
 * journal order (legsOf), so no statement sorts: the first rows leave at once
 * with or without a `window`. With one, only the newest `limit` journals older
 * than `before` (all of them when `before` is absent): one batch of the
 * export. Without one, every row in one statement.
 */
export function historyCsvQuery(
  source: HistorySource,
  labels: Readonly<Record<TransactionType, string>> = TRANSACTION_TYPES,
  window?: HistoryWindow,
): RawBuilder<unknown> {
  const user = idLiteral(source.userId, 'user');
  // The escaping of a label is worked out once, on the literal, when the statement is planned.
  const label = caseOf(
    sql`r.type`,
    Object.entries(labels).map(([type, text]) => [Number(type), csvSafe(sql.lit(text))]),
  );
  const kindType = caseOf(
    sql`j.kind`,
    Object.entries(JOURNAL_TYPES).map(([kind, type]) => [kind, sql.lit(type)]),
    sql`11`,
  );
  const trade = sql`(t.id IS NOT NULL AND legs.coin_asset IS NOT NULL AND legs.coin_amount IS NOT NULL)`;
  const absolute = decimalOf(sql`abs(r.units)`, sql`r.scale`);
  return sql`SELECT to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      ${label},
      ${csvSafe(sql`r.asset`)},
      CASE WHEN r.outgoing THEN '-' ELSE '' END || ${absolute},
      ${csvSafe(sql`r.currency`)},
      ${csvSafe(sql`t.price`)},
      CASE WHEN r.is_trade THEN ${decimalOf(sql`t.gbp_value`, sql`2`)}
        WHEN r.asset = 'GBP' THEN ${absolute}
        ELSE ${recordedDecimal('gbp_value')} END,
      CASE WHEN r.is_trade THEN ${decimalOf(sql`t.fee`, sql`r.fiat_scale`)}
        ELSE coalesce(${recordedDecimal('fee')}, '0') END,
      CASE WHEN r.is_trade THEN ${decimalOf(sql`t.total`, sql`r.fiat_scale`)} END,
      j.id::text
    FROM (${legsOf(source, window)}
    ) AS legs
    JOIN journals j ON j.id = legs.journal_id
    -- A trade's figures are what its row recorded (one row per journal at most).
    LEFT JOIN trades t ON t.journal_id = j.id AND t.user_id = ${user}
    LEFT JOIN assets fiat ON fiat.code = t.fiat
    CROSS JOIN LATERAL (
      SELECT ${trade} AS is_trade,
        CASE WHEN ${trade} THEN legs.coin_asset
          ELSE coalesce(legs.coin_asset, legs.cash_asset, legs.other_asset, '') END AS asset,
        CASE WHEN ${trade} THEN legs.coin_amount
          ELSE coalesce(legs.coin_amount, legs.cash_amount, legs.other_amount, 0) END AS units,
        coalesce(fiat.scale, 2) AS fiat_scale
    ) AS k
    LEFT JOIN assets shown ON shown.code = k.asset
    CROSS JOIN LATERAL (
      SELECT k.is_trade, k.asset, k.units, k.fiat_scale,
        coalesce(shown.scale, 0) AS scale,
        -- A sale goes out; any other movement goes out when it takes from the customer.
        CASE WHEN k.is_trade THEN k.units <= 0 ELSE k.units < 0 END AS outgoing,
        CASE WHEN k.is_trade THEN t.fiat WHEN shown.kind = 'fiat' THEN k.asset END AS currency,
        CASE WHEN k.is_trade THEN CASE WHEN k.units > 0 THEN 1 ELSE 2 END ELSE ${kindType} END AS type
    ) AS r
    ORDER BY j.id DESC`;
}
