/**
 * One customer with a long history, written set-based (INSERT … SELECT over
 * generate_series) straight into journals and entries, with every account's
 * balance set to the sum of its entries, so checkLedger passes afterwards.
 * The postings are the ones the app's flows make (shared/LEDGER.md): a GBP
 * deposit is Dr bank / Cr user; a buy is Dr user:GBP cost+fee / Cr
 * inventory:GBP cost / Cr fee_revenue:GBP fee; Dr inventory:COIN qty / Cr
 * user:COIN qty (a sell mirrors it); a withdrawal is Dr user / Cr bank
 * amount−fee / Cr withdrawal_fee_revenue fee; a coin deposit is Dr custody / Cr user.
 *
 * The mix, per 100 journals in id order: 11 GBP deposits (£1,000–£1,996), 40 BTC buys, 20 ETH buys,
 * 15 BTC sells, 10 ETH sells (BTC at £50,000, ETH at £2,000, 0.5% fee rounded up to the penny),
 * 2 GBP withdrawals (£50–£51 with a £5 fee) and 2 BTC deposits from outside. Every 100 starts with a
 * deposit and buys more than it sells, so no balance is ever negative along the way. Each trade also
 * has its trades row (a market order in GBP), whose figures the history shows.
 */
import type pg from 'pg';

export type SeedStep = { step: string; seconds: number; rows?: number };
export type Seeded = { userId: number; accounts: Record<'GBP' | 'BTC' | 'ETH', string>; steps: SeedStep[] };

export async function seedHistory(client: pg.Client, journals: number, log: (m: string) => void) {
  const steps: SeedStep[] = [];
  async function step<T extends pg.QueryResultRow>(name: string, text: string, values: unknown[] = []) {
    const started = performance.now();
    const result = await client.query<T>(text, values);
    const seconds = (performance.now() - started) / 1000;
    steps.push({ step: name, seconds, rows: result.rowCount ?? undefined });
    log(`seed: ${name}: ${result.rowCount ?? 0} rows in ${seconds.toFixed(1)} s`);
    return result;
  }

  // Sorts of a few million rows: in memory, not on disk.
  await client.query(`SET work_mem = '512MB'; SET maintenance_work_mem = '512MB'`);
  const user = await step<{ id: number }>(
    'customer',
    `INSERT INTO users (user_identification, first_name, last_name, email, password_hash, referral_code, status)
     VALUES ('BENCH000001', 'Ada', 'Bench', 'ada.bench@example.com', 'not-a-hash', 'BENCHREF', 1)
     RETURNING id`,
  );
  const userId = user.rows[0]!.id;
  const accounts = await step<{ id: string; asset: string }>(
    'customer accounts',
    `INSERT INTO accounts (asset, kind, owner_user_id, is_house, non_negative)
     SELECT asset, 'available', $1, false, true FROM unnest(ARRAY['GBP', 'BTC', 'ETH']) AS asset
     RETURNING id::text, asset`,
    [userId],
  );
  const own = Object.fromEntries(accounts.rows.map((row) => [row.asset, row.id])) as Seeded['accounts'];
  const house = await client.query<{ id: string; asset: string; kind: string }>(
    `SELECT id::text, asset, kind FROM accounts WHERE is_house AND asset IN ('GBP', 'BTC', 'ETH')`,
  );
  const houseId = (asset: string, kind: string) => {
    const row = house.rows.find((r) => r.asset === asset && r.kind === kind);
    if (!row) throw new Error(`no house account ${asset} ${kind}`);
    return row.id;
  };

  await step(
    'plan (one row per journal)',
    `CREATE UNLOGGED TABLE bench_plan AS
     SELECT id, at, kind, side, coin, qty, cash,
       CASE WHEN kind = 'trade' THEN div(cash * 50 + 9999, 10000)
            WHEN kind = 'fiat_withdrawal' THEN 500::numeric END AS fee
     FROM (
       SELECT id, at, kind, side, coin, qty,
         CASE WHEN kind = 'trade' AND coin = 'BTC' THEN div(qty * 5000000 + 99999999, 100000000)
              WHEN kind = 'trade' AND coin = 'ETH' THEN div(qty * 200000 + 999999999999999999, 1000000000000000000)
              WHEN kind = 'fiat_deposit' THEN 100000 + (id % 997) * 100
              WHEN kind = 'fiat_withdrawal' THEN 5000 + id % 100
         END::numeric AS cash
       FROM (
         SELECT id, at, kind, side, coin,
           CASE WHEN coin = 'BTC' AND side = 'buy' THEN 100000 + id % 1000
                WHEN coin = 'BTC' AND side = 'sell' THEN 50000 + id % 1000
                WHEN coin = 'BTC' THEN 200000 + id % 1000
                WHEN coin = 'ETH' AND side = 'buy' THEN 10000000000000000 + (id % 1000) * 1000000000000
                WHEN coin = 'ETH' AND side = 'sell' THEN 5000000000000000 + (id % 1000) * 1000000000000
           END::numeric AS qty
         FROM (
           SELECT id, now() - ($1::bigint - id) * interval '1 minute' AS at,
             CASE WHEN r < 10 OR r = 99 THEN 'fiat_deposit' WHEN r < 95 THEN 'trade'
                  WHEN r < 97 THEN 'fiat_withdrawal' ELSE 'crypto_deposit' END AS kind,
             CASE WHEN r BETWEEN 10 AND 69 THEN 'buy' WHEN r BETWEEN 70 AND 94 THEN 'sell' END AS side,
             CASE WHEN r BETWEEN 10 AND 49 OR r BETWEEN 70 AND 84 OR r IN (97, 98) THEN 'BTC'
                  WHEN r BETWEEN 50 AND 69 OR r BETWEEN 85 AND 94 THEN 'ETH' END AS coin
           FROM (SELECT id, (id - 1) % 100 AS r FROM generate_series(1::bigint, $1::bigint) AS id) AS n
         ) AS k
       ) AS q
     ) AS c`,
    [journals],
  );

  await step(
    'journals',
    `INSERT INTO journals (id, idempotency_key, request_hash, kind, reference, metadata, created_at)
     SELECT id, 'bench-history:' || id, 'bench', kind,
       CASE kind WHEN 'trade' THEN 'quote:bench-' || id ELSE kind || ':bench-' || id END,
       CASE kind
         WHEN 'trade' THEN jsonb_build_object('quoteId', 'bench-' || id, 'side', side,
           'price', CASE coin WHEN 'BTC' THEN '50000.00' ELSE '2000.00' END,
           'qty', qty::text, 'fee', round(fee / 100, 2)::text)
         WHEN 'fiat_withdrawal' THEN jsonb_build_object('payment_reference', 'BENCH-' || id, 'fee', round(fee / 100, 2)::text)
         WHEN 'crypto_deposit' THEN jsonb_build_object('txid', md5(id::text), 'gbp_value', round(qty * 50000 / 100000000, 2)::text)
         ELSE jsonb_build_object('source', 'bank_transfer', 'to', 'customer')
       END,
       at
     FROM bench_plan ORDER BY id`,
  );
  await client.query(`SELECT setval('journals_id_seq', $1::bigint)`, [journals]);
  // Each trade's own row, as the trading module writes it beside its journal: the history and the export
  // take a trade's price, fee, total and GBP value from it.
  await step(
    'trades (one per trade journal)',
    `INSERT INTO trades (user_id, kind, side, asset, fiat, price, quantity, notional, fee, total, fee_percent,
       gbp_value, journal_id, created_at)
     SELECT $1, 'market', side, coin, 'GBP', CASE coin WHEN 'BTC' THEN '50000.00' ELSE '2000.00' END, qty,
       cash, fee, CASE side WHEN 'buy' THEN cash + fee ELSE cash - fee END, '0.5', cash, id, at
     FROM bench_plan WHERE kind = 'trade' ORDER BY id`,
    [userId],
  );

  const customer = (asset: 'GBP' | 'BTC' | 'ETH') => own[asset];
  const inventory = `CASE coin WHEN 'BTC' THEN ${houseId('BTC', 'inventory')} ELSE ${houseId('ETH', 'inventory')} END`;
  const userCoin = `CASE coin WHEN 'BTC' THEN ${customer('BTC')} ELSE ${customer('ETH')} END`;
  const legs = [
    // GBP deposit
    `SELECT id, at, 1 AS ord, ${houseId('GBP', 'bank')} AS account_id, 'GBP' AS asset, -cash AS amount, false AS mine FROM bench_plan WHERE kind = 'fiat_deposit'`,
    `SELECT id, at, 2, ${customer('GBP')}, 'GBP', cash, true FROM bench_plan WHERE kind = 'fiat_deposit'`,
    // buy
    `SELECT id, at, 1, ${customer('GBP')}, 'GBP', -(cash + fee), true FROM bench_plan WHERE side = 'buy'`,
    `SELECT id, at, 2, ${houseId('GBP', 'inventory')}, 'GBP', cash, false FROM bench_plan WHERE side = 'buy'`,
    `SELECT id, at, 3, ${houseId('GBP', 'fee_revenue')}, 'GBP', fee, false FROM bench_plan WHERE side = 'buy'`,
    `SELECT id, at, 4, ${inventory}, coin, -qty, false FROM bench_plan WHERE side = 'buy'`,
    `SELECT id, at, 5, ${userCoin}, coin, qty, true FROM bench_plan WHERE side = 'buy'`,
    // sell
    `SELECT id, at, 1, ${userCoin}, coin, -qty, true FROM bench_plan WHERE side = 'sell'`,
    `SELECT id, at, 2, ${inventory}, coin, qty, false FROM bench_plan WHERE side = 'sell'`,
    `SELECT id, at, 3, ${houseId('GBP', 'inventory')}, 'GBP', -cash, false FROM bench_plan WHERE side = 'sell'`,
    `SELECT id, at, 4, ${customer('GBP')}, 'GBP', cash - fee, true FROM bench_plan WHERE side = 'sell'`,
    `SELECT id, at, 5, ${houseId('GBP', 'fee_revenue')}, 'GBP', fee, false FROM bench_plan WHERE side = 'sell'`,
    // GBP withdrawal
    `SELECT id, at, 1, ${customer('GBP')}, 'GBP', -cash, true FROM bench_plan WHERE kind = 'fiat_withdrawal'`,
    `SELECT id, at, 2, ${houseId('GBP', 'bank')}, 'GBP', cash - fee, false FROM bench_plan WHERE kind = 'fiat_withdrawal'`,
    `SELECT id, at, 3, ${houseId('GBP', 'withdrawal_fee_revenue')}, 'GBP', fee, false FROM bench_plan WHERE kind = 'fiat_withdrawal'`,
    // BTC deposit from outside
    `SELECT id, at, 1, ${houseId('BTC', 'custody')}, 'BTC', -qty, false FROM bench_plan WHERE kind = 'crypto_deposit'`,
    `SELECT id, at, 2, ${customer('BTC')}, 'BTC', qty, true FROM bench_plan WHERE kind = 'crypto_deposit'`,
  ];
  // Entries in journal order, each journal's legs together, as the ledger writes them; a customer
  // entry carries its account's balance after it, a house entry none.
  await step(
    'entries',
    `INSERT INTO entries (journal_id, account_id, asset, amount, balance_after, created_at)
     SELECT id, account_id, asset, amount,
       CASE WHEN mine THEN sum(amount) OVER (PARTITION BY account_id ORDER BY id, ord) END, at
     FROM (${legs.join('\n UNION ALL ')}) AS legs
     ORDER BY id, ord`,
  );
  await step(
    'balances (every account = the sum of its entries)',
    `UPDATE accounts a SET posted = s.total
     FROM (SELECT account_id, sum(amount) AS total FROM entries GROUP BY account_id) AS s
     WHERE a.id = s.account_id`,
  );
  await step('drop the plan', `DROP TABLE bench_plan`);
  // What autovacuum would have done to a history built over two years: statistics and the visibility map.
  await step('vacuum analyze', `VACUUM (ANALYZE) journals, entries, accounts, trades`);
  await client.query(`RESET work_mem; RESET maintenance_work_mem`);
  return { userId, accounts: own, steps } satisfies Seeded;
}
