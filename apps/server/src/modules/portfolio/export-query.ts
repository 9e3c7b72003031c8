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

/** Pairs as a VALUES list of literals. */
function valuesOf(rows: [string | number, string | number][]): RawBuilder<unknown> {
  return sql.join(rows.map(([key, value]) => sql`(${sql.lit(key)}, ${sql.lit(value)})`));
}

/** One batch of the export: the newest `limit` journals with an id below `before` (any id when absent). */
export type HistoryWindow = { before?: string; limit: number };

/**
 * A batch's journals: each of the customer's accounts' newest `limit` ids
 * below `before` from the (account_id, journal_id) index, merged, the newest
 * `limit` of them kept (a journal on two accounts counts once). Every entry
 * of the customer's with an id from the oldest of them up to `before` belongs
 * to one of them, so the legs are read as that range of each account's index.
 */
function batchOf(user: RawBuilder<unknown>, window: HistoryWindow) {
  if (!Number.isSafeInteger(window.limit) || window.limit < 1)
    throw new Error(`not a batch size: ${window.limit}`);
  if (window.before !== undefined && !/^\d+$/.test(window.before))
    throw new Error(`not a journal id: ${window.before}`);
  const below =
    window.before === undefined ? sql`` : sql`AND e.journal_id < ${sql.lit(BigInt(window.before))}`;
  const limit = sql.lit(window.limit);
  return {
    with: sql`WITH batch AS (
      SELECT DISTINCT recent.journal_id FROM accounts a
      CROSS JOIN LATERAL (
        SELECT e.journal_id FROM entries e WHERE e.account_id = a.id ${below}
        ORDER BY e.journal_id DESC LIMIT ${limit}
      ) AS recent
      WHERE a.owner_user_id = ${user}
      ORDER BY recent.journal_id DESC LIMIT ${limit}
    )`,
    range: sql`${below} AND e.journal_id >= (SELECT min(journal_id) FROM batch)`,
  };
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
 * With a `window`, only the newest `limit` journals older than `before` (all
 * of them when `before` is absent): one batch of the export, found from each
 * account's newest ids in the (account_id, journal_id) index, as the paged
 * history finds a page, so the first rows come without the whole history
 * being grouped and sorted. Without one, every row at once.
 */
export function historyCsvQuery(
  userId: string,
  labels: Readonly<Record<TransactionType, string>> = TRANSACTION_TYPES,
  window?: HistoryWindow,
): RawBuilder<unknown> {
  if (!/^\d+$/.test(userId)) throw new Error(`not a user id: ${userId}`);
  const user = sql.lit(BigInt(userId));
  const journals = window ? batchOf(user, window) : { with: sql``, range: sql`` };
  const labelRows = valuesOf(Object.entries(labels).map(([type, label]) => [Number(type), label]));
  const kinds = valuesOf(Object.entries(JOURNAL_TYPES).map(([kind, type]) => [kind, type]));
  const trade = sql`(t.id IS NOT NULL AND legs.coin_asset IS NOT NULL AND legs.coin_amount IS NOT NULL)`;
  const absolute = decimalOf(sql`abs(r.units)`, sql`r.scale`);
  return sql`${journals.with}
    SELECT to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      ${csvSafe(sql`labels.label`)},
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
    FROM (
      -- The customer's legs of each journal, folded: their spendable coin and cash, and anything else.
      SELECT e.journal_id,
        max(e.asset) FILTER (WHERE a.kind = 'available' AND s.kind = 'coin') AS coin_asset,
        sum(e.amount) FILTER (WHERE a.kind = 'available' AND s.kind = 'coin') AS coin_amount,
        max(e.asset) FILTER (WHERE a.kind = 'available' AND s.kind = 'fiat') AS cash_asset,
        sum(e.amount) FILTER (WHERE a.kind = 'available' AND s.kind = 'fiat') AS cash_amount,
        max(e.asset) FILTER (WHERE a.kind <> 'available') AS other_asset,
        sum(e.amount) FILTER (WHERE a.kind <> 'available') AS other_amount
      FROM accounts a
      JOIN entries e ON e.account_id = a.id
      JOIN assets s ON s.code = e.asset
      WHERE a.owner_user_id = ${user} ${journals.range}
      GROUP BY e.journal_id
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
        CASE WHEN k.is_trade THEN CASE WHEN k.units > 0 THEN 1 ELSE 2 END
          ELSE coalesce(kinds.type, 11) END AS type
      FROM (SELECT 1) AS one
      LEFT JOIN (VALUES ${kinds}) AS kinds (kind, type) ON kinds.kind = j.kind
    ) AS r
    JOIN (VALUES ${labelRows}) AS labels (type, label) ON labels.type = r.type
    ORDER BY j.id DESC`;
}
