/**
 * The SQL of one instant execution as a pgbench script (issue 43): the floor of that SQL on this server,
 * with no app around it. One entry a statement, in the order the app sends them (with its caches warm), so
 * that when the app's instant path changes, updating this file is a few lines a statement; run.ts prints
 * the app's statements beside these, and a divergence shows there.
 *
 * pgbench variables: `user_id` is the client's own customer (made and funded through the app's paths, as
 * the HTTP clients' are), `qid` a fresh quote id; the rest come from the app's own warm execution
 * (`scriptValues`): the quote's amounts, the mail's texts, the notices. `\gset` carries what a statement
 * returns (the quote id, the journal id, the mail's id) into the statements after it.
 */
import type { Statement } from './capture.js';

type ScriptStatement = { sql: string; gset?: string };

const USER_COLUMNS = `"id", "first_name", "email", "status", "block_status", "is_sow_reset", "terminated_at", "platform", "custom_fee_percent", "login_notifications", "loginout_notifications"`;

/** The facts a quote decides on, each its module's subquery (decision 134), selected with the customer. */
const FACTS = [
  `(SELECT json_build_object('accountType', u.account_type, 'hasDetails', u.details_submitted_at IS NOT NULL, 'hasAnswers', EXISTS (SELECT 1 FROM kyc_answers a WHERE a.user_id = u.id), 'hasCompany', EXISTS (SELECT 1 FROM companies c WHERE c.user_id = u.id), 'handedIn', u.verification_completed_at IS NOT NULL, 'terminated_at', u.terminated_at, 'documents', coalesce((SELECT json_agg(json_build_object('id', d.id::text, 'key', d.key, 'status', d.status, 'director_id', d.director_id) ORDER BY d.seq) FROM kyc_documents d WHERE d.user_id = u.id AND d.status <> 'superseded'), '[]'), 'directors', coalesce((SELECT json_agg(json_build_object('id', cd.id, 'status', cd.status) ORDER BY cd.seq) FROM company_directors cd JOIN companies c ON c.id = cd.company_id WHERE c.user_id = u.id AND cd.deleted_at IS NULL), '[]')) FROM users u WHERE u.id = :user_id) as "fact_0"`,
  `EXISTS (SELECT 1 FROM investor_profiles WHERE user_id = :user_id AND completed_at IS NOT NULL) as "fact_1"`,
  `coalesce((SELECT gbp_value FROM trading_volumes WHERE user_id = :user_id AND year = extract(year FROM now())::integer), 0)::text as "fact_2"`,
  `(SELECT max(discount_percent)::text FROM promo_redemptions WHERE user_id = :user_id AND ends_at > now()) as "fact_3"`,
  `(SELECT json_build_object('posted', (posted + CASE WHEN accounts.is_house THEN coalesce((select sum(d.amount) from house_balance_deltas d where d.account_id = accounts.id), 0) ELSE 0 END)::text, 'held', held::text) FROM accounts WHERE asset = :fiat AND kind = 'available' AND owner_user_id = :user_id AND reference = '') as "fact_4"`,
];

/** POST /api/v1/quotes: the customer with every fact in one read, then the quote. */
const QUOTE: ScriptStatement[] = [
  { sql: `select ${USER_COLUMNS}, ${FACTS.join(', ')} from "users" where "id" = :user_id` },
  {
    sql: `insert into "trade_quotes" ("id", "user_id", "side", "asset", "fiat", "price", "quantity", "notional", "fee", "total", "fee_percent", "expires_at") values (:qid, :user_id, :side, :asset, :fiat, :price, :quantity, :notional, :fee, :total, :fee_percent, now() + interval '35 seconds') returning *`,
    gset: 'q_',
  },
];

/** The order's lock: the quote and the customer, with whether the source-of-wealth question may follow. */
const LOCK = `select "trade_quotes".*, trade_quotes.expires_at <= now() as "expired", EXISTS (SELECT 1 FROM users u JOIN kyc_answers a ON a.user_id = u.id WHERE u.id = :user_id AND u.is_sow_reset = 0 AND u.terminated_at IS NULL AND a.trades_over_threshold = 0) as "may_be_asked", "users"."first_name", "users"."email", "users"."status", "users"."block_status", "users"."is_sow_reset", "users"."terminated_at", "users"."platform", "users"."custom_fee_percent", "users"."login_notifications", "users"."loginout_notifications" from "trade_quotes" inner join "users" on "users"."id" = "trade_quotes"."user_id" where "trade_quotes"."id" = :q_id and "users"."id" = :user_id for update`;

/**
 * The ledger's journal of a buy (the customer pays the total, the house inventory sells the coin, the fee is
 * revenue) as the app posts it: through the ledger function, which claims the key, finds the accounts, refuses
 * an overdraft and records each balance after. (pgbench reads `:name` even inside a literal, hence
 * 'trade:' || 'quote:'.)
 */
const LEDGER_JOURNAL = `"journal" as (SELECT journal_id, replayed FROM ledger_post_journal('trade:' || 'quote:' || :q_id::text, :request_hash, 'trade', 'quote:' || :q_id::text, NULL::bigint, :metadata::jsonb, ARRAY[:fiat, :fiat, :asset, :asset, :fiat]::text[], ARRAY['available', 'inventory', 'inventory', 'available', 'fee_revenue']::text[], ARRAY[:user_id, NULL, NULL, :user_id, NULL]::integer[], ARRAY['', '', '', '', '']::text[], ARRAY[:minus_total, :notional, :minus_quantity, :quantity, :fee]::numeric[], NULL::bigint, NULL::numeric))`;

/**
 * The same journal's rows written by plain SQL, none of the function's work around them: the journal, the two
 * customer balances, the three house postings and the five entries. The floor of the rows themselves.
 */
const PLAIN_JOURNAL = [
  `"j" as (insert into journals (idempotency_key, request_hash, kind, reference, hold_id, metadata) values ('trade:' || 'quote:' || :q_id::text, :request_hash, 'trade', 'quote:' || :q_id::text, NULL, :metadata::jsonb) returning id)`,
  `"fa" as (update accounts set posted = posted - :total::numeric where owner_user_id = :user_id and asset = :fiat and kind = 'available' and reference = '' returning id, asset, posted)`,
  `"ca" as (update accounts set posted = posted + :quantity::numeric where owner_user_id = :user_id and asset = :asset and kind = 'available' and reference = '' returning id, asset, posted)`,
  `"h" as (select id, asset, case when kind = 'fee_revenue' then :fee::numeric when asset = :fiat then :notional::numeric else -1 * :quantity::numeric end as amount from accounts where owner_user_id is null and reference = '' and ((kind = 'inventory' and asset in (:fiat, :asset)) or (kind = 'fee_revenue' and asset = :fiat)))`,
  `"d" as (insert into house_balance_deltas (account_id, amount) select id, amount from h)`,
  `"e" as (insert into entries (journal_id, account_id, asset, amount, balance_after) select (select id from j), id, asset, -1 * :total::numeric, posted from fa union all select (select id from j), id, asset, :quantity::numeric, posted from ca union all select (select id from j), id, asset, amount, NULL from h)`,
  `"journal" as (select id as journal_id from j)`,
].join(', ');

/**
 * POST /api/v1/order: the quote and customer locked; then one statement: the journal, the mail for the sender
 * and the notification, the trade taking the journal's id, the tier volume, the quote used up.
 */
const order = (journal: string): ScriptStatement[] => [
  { sql: 'begin' },
  { sql: LOCK },
  {
    sql: `with ${journal}, "also_0" as (insert into "mail_outbox" ("user_id", "event", "to_address", "subject", "text_body", "html_body", "reply_to", "next_attempt_at") values (:user_id, :mail_event, :mail_to, :mail_subject, :mail_text, :mail_html, NULL, now())), "also_1" as (insert into "notifications" ("user_id", "event", "subject") values (:user_id, :mail_event, :notice_subject)), "inserted" as (insert into "trades" ("user_id", "kind", "side", "asset", "fiat", "price", "quantity", "notional", "fee", "total", "fee_percent", "gbp_value", "quote_id", "order_id", "idempotency_key", "request_hash", "journal_id") SELECT * FROM unnest(ARRAY[:user_id]::integer[], ARRAY['instant']::text[], ARRAY[:side]::text[], ARRAY[:asset]::text[], ARRAY[:fiat]::text[], ARRAY[:price]::text[], ARRAY[:quantity]::numeric[], ARRAY[:notional]::numeric[], ARRAY[:fee]::numeric[], ARRAY[:total]::numeric[], ARRAY[:fee_percent]::text[], ARRAY[:gbp_value]::numeric[], ARRAY[:q_id]::text[], ARRAY[NULL]::bigint[], ARRAY[NULL]::text[], ARRAY[NULL]::text[], ARRAY[(SELECT journal_id FROM journal)]::bigint[]) returning *), "volumes" as (INSERT INTO trading_volumes (user_id, year, gbp_value) SELECT user_id, extract(year FROM created_at)::integer, sum(gbp_value) FROM "inserted" GROUP BY 1, 2 ORDER BY 1, 2 ON CONFLICT (user_id, year) DO UPDATE SET gbp_value = trading_volumes.gbp_value + excluded.gbp_value RETURNING user_id, gbp_value), "used" as (update "trade_quotes" set "executed_at" = now() where "id" in (select "inserted"."quote_id" from "inserted")) select "inserted".*, (SELECT max(volumes.gbp_value)::text FROM volumes WHERE volumes.user_id = inserted.user_id) as "year_volume" from "inserted"`,
  },
  { sql: 'commit' },
];

/** After the commit: the customer's pages told, both events in one NOTIFY. The mail is the sender job's. */
const AFTER: ScriptStatement[] = [{ sql: `SELECT pg_notify(:channel, :notice)` }];

const STATEMENTS = [...QUOTE, ...order(LEDGER_JOURNAL), ...AFTER];
/** The rows floor (issue 43): the execution's statements with its journal's rows written by plain SQL. */
const ROWS_STATEMENTS = [...QUOTE, ...order(PLAIN_JOURNAL), ...AFTER];

/** The script's statements, as the report lists them beside the app's. */
export const scriptStatements = (): string[] => STATEMENTS.map((statement) => statement.sql);

/** A script statement for a driver: `$n` parameters, `names[n - 1]` the pgbench variable each stands for. */
export type Parameterized = { text: string; names: string[] };

/** The script's statements as pg sends them: each `:name` (not a `::` cast) a numbered parameter. */
export function parameterizedStatements(): Parameterized[] {
  return STATEMENTS.map(({ sql }) => {
    const names: string[] = [];
    const text = sql.replace(/(?<![:\w]):([a-z_][a-z0-9_]*)/g, (_, name: string) => {
      if (!names.includes(name)) names.push(name);
      return `$${names.indexOf(name) + 1}`;
    });
    return { text, names };
  });
}

/**
 * The script's text; `userIds[n]` is pgbench client n's customer. `rows`: the rows floor's, the journal written
 * by plain SQL instead of the ledger function.
 */
export function executionScript(userIds: readonly number[], shape: 'own' | 'rows' = 'own'): string {
  const cases = userIds.map((id, client) => `WHEN :client_id = ${client} THEN ${id}`).join(' ');
  return [
    `\\set user_id CASE ${cases} ELSE -1 END`,
    '\\set qid random(1, 9223372036854775806)',
    '\\set minus_total -1 * :total',
    '\\set minus_quantity -1 * :quantity',
    ...(shape === 'rows' ? ROWS_STATEMENTS : STATEMENTS).map((statement) =>
      statement.gset ? `${statement.sql}\n\\gset ${statement.gset}` : `${statement.sql};`,
    ),
  ].join('\n');
}

/**
 * The columns of an `insert into "table" ("a", "b", …) values ($n, $m, …)` the app sent, by name, on its own or
 * inside a statement of several (the trade's mail is a common table expression of the trade's statement).
 */
function insertedValues(statements: Statement[], table: string): Record<string, string | null> {
  const pattern = new RegExp(`insert into "${table}" \\(([^)]*)\\) values \\(([^)]*)\\)`, 'i');
  for (const statement of statements) {
    const found = pattern.exec(statement.text);
    if (!found?.[1] || !found[2]) continue;
    const names = found[1].split(',').map((name) => name.trim().replace(/"/g, ''));
    const params = found[2].split(',').map((param) => Number(/\$(\d+)/.exec(param)?.[1] ?? 0));
    return Object.fromEntries(
      names.map((name, index) => [name, statement.values[(params[index] ?? 0) - 1] ?? null]),
    );
  }
  throw new Error(
    `the app's execution sent no \`insert into ${table} (…) values\`: update bench/trading/execution-script.ts`,
  );
}

/**
 * The values the script sends as pgbench variables (`-D`), taken from the app's own warm execution, so the
 * script's rows are the app's: the same amounts, the same mail and notices.
 */
export function scriptValues(statements: Statement[]): Record<string, string> {
  const quote = insertedValues(statements, 'trade_quotes');
  const mail = insertedValues(statements, 'mail_outbox');
  const notice = insertedValues(statements, 'notifications');
  const notifies = statements.filter((item) => /pg_notify/i.test(item.text)).map((item) => item.values);
  const text = (value: string | null | undefined, what: string) => {
    if (value === null || value === undefined) throw new Error(`the app's execution sent no ${what}`);
    return value;
  };
  return {
    side: text(quote.side, 'quote side'),
    asset: text(quote.asset, 'quote asset'),
    fiat: text(quote.fiat, 'quote fiat'),
    price: text(quote.price, 'quote price'),
    quantity: text(quote.quantity, 'quote quantity'),
    notional: text(quote.notional, 'quote notional'),
    fee: text(quote.fee, 'quote fee'),
    total: text(quote.total, 'quote total'),
    fee_percent: text(quote.fee_percent, 'quote fee percent'),
    // The bench trades BTC/GBP: a trade's value in pounds is its notional.
    gbp_value: text(quote.notional, 'quote notional'),
    superseded: 'superseded',
    request_hash: '0'.repeat(64),
    metadata: JSON.stringify({
      side: quote.side,
      price: quote.price,
      symbol: `${quote.asset}/${quote.fiat}`,
    }),
    mail_event: text(mail.event, 'mail event'),
    mail_to: text(mail.to_address, 'mail address'),
    mail_subject: text(mail.subject, 'mail subject'),
    mail_text: text(mail.text_body, 'mail text'),
    mail_html: text(mail.html_body, 'mail html'),
    notice_subject: text(notice.subject, 'notification subject'),
    channel: text(notifies[0]?.[0], 'pg_notify channel'),
    notice: text(notifies[0]?.[1], 'pg_notify payload'),
  };
}
