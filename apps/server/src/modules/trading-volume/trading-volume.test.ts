import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TradingTermsSchema } from '@florin/contracts';
import { formatAmount } from '@florin/domain';
import { migrateToLatest, migrateUpTo } from '../../db/migrate.js';
import { checkLedger, createLedger } from '../../ledger/index.js';
import { DOMAIN_CHECKS } from '../../ops/domain-checks.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createTestDatabase } from '../../test/database.js';
import { available, createTestUser, expectLedgerToHold } from '../../test/ledger.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { liveCustomer, type FiatCustomer } from '../fiat/fiat.test-kit.js';
import { createTradingVolumes, tradingVolumeDomainCheck } from './service.js';

let t: TestApp;
let paths: MoneyPaths;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});

const thisYear = new Date().getUTCFullYear();

/** A live customer holding `gbp` (pounds) from a bank transfer; a trading account when `platform` is 2. */
async function customer(gbp: string, platform: 1 | 2 = 1): Promise<FiatCustomer> {
  const made = await liveCustomer(t);
  if (platform === 2)
    await db().updateTable('users').set({ platform: 2 }).where('id', '=', made.id).execute();
  await paths.bankDeposit(made, gbp);
  return made;
}

/** The customer's running totals, year by year. */
async function totalsOf(userId: number) {
  return db()
    .selectFrom('trading_volumes')
    .select(['year', 'gbp_value'])
    .where('user_id', '=', userId)
    .orderBy('year')
    .execute();
}

/** What the customer's trades this year add up to, from the trades themselves. */
async function tradesThisYear(userId: number): Promise<{ count: number; sum: string }> {
  const row = await sql<{ count: number; sum: string }>`
    SELECT count(*)::int AS count, coalesce(sum(gbp_value), 0)::text AS sum FROM trades
    WHERE user_id = ${userId} AND created_at >= date_trunc('year', now())`.execute(db());
  return row.rows[0] ?? { count: 0, sum: '0' };
}

async function termsOf(trader: FiatCustomer) {
  const response = await trader.browser.get('/api/v1/trading/terms');
  expect(response.statusCode, response.body).toBe(200);
  return TradingTermsSchema.parse(response.json<{ data: unknown }>().data);
}

describe('the tier volume as a running total (issue 43)', () => {
  it('adds instant, market and limit trades to their customer’s total for the year as they are written', async () => {
    await paths.drive('20000');
    const instant = await customer('5000.00');
    const trading = await customer('5000.00', 2);
    const resting = await customer('5000.00', 2);
    const volumes = createTradingVolumes(db());
    expect(await totalsOf(instant.id)).toEqual([]);
    expect(await volumes.volumeThisYear(instant.id)).toBe(0n);

    await paths.instant(instant, { side: 'buy', quantity: '0.01' });
    await paths.instant(instant, { side: 'buy', quantity: '0.02' });
    await paths.instant(instant, { side: 'sell', quantity: '0.01' });
    await paths.market(trading, 'buy', { crypto_amount: '0.01' });
    // Two customers' resting buys crossed by one tick: one fill pass, one upsert for both.
    await paths.placeOrder(trading, { side: 1, order_qty: '0.01', price: '19500' });
    await paths.placeOrder(resting, { side: 1, order_qty: '0.02', price: '19500' });
    await paths.drive('18000');

    for (const [trader, trades] of [
      [instant, 3],
      [trading, 2],
      [resting, 1],
    ] as const) {
      const { count, sum } = await tradesThisYear(trader.id);
      expect(count).toBe(trades);
      expect(BigInt(sum)).toBeGreaterThan(0n);
      expect(await totalsOf(trader.id)).toEqual([{ year: thisYear, gbp_value: sum }]);
      expect(await volumes.volumeThisYear(trader.id)).toBe(BigInt(sum));
      expect((await termsOf(trader)).volume_gbp).toBe(formatAmount(BigInt(sum), 'GBP'));
    }
    await expectLedgerToHold(db());
  });

  it('moves the customer up a tier once the year’s volume passes £50,000, and over the source-of-wealth threshold', async () => {
    await paths.drive('20000');
    const trader = await customer('60000.00');
    const volumes = createTradingVolumes(db());
    expect(await termsOf(trader)).toMatchObject({ tier: 1, volume_gbp: '0.00' });

    await paths.instant(trader, { side: 'buy', quantity: '2.5' });
    const { sum } = await tradesThisYear(trader.id);
    expect(BigInt(sum)).toBeGreaterThan(5_000_000n);
    const terms = await termsOf(trader);
    expect(terms).toMatchObject({ tier: 2, volume_gbp: formatAmount(BigInt(sum), 'GBP') });
    expect(terms.coins.find((coin) => coin.coin_id === 'btc')).toMatchObject({ fee_percent: '1.15' });
    expect(await volumes.listOverSourceOfWealthThreshold([trader.id])).toEqual([trader.id]);
    await expectLedgerToHold(db());
  });

  it('follows a trade dated back by hand into last year, as a correction would', async () => {
    await paths.drive('20000');
    const trader = await customer('5000.00');
    const { trade } = await paths.instant(trader, { side: 'buy', quantity: '0.01' });
    await paths.instant(trader, { side: 'buy', quantity: '0.02' });
    const before = await tradesThisYear(trader.id);

    await sql`UPDATE trades SET created_at = created_at - interval '1 year' WHERE id = ${trade.id}`.execute(
      db(),
    );

    const after = await tradesThisYear(trader.id);
    expect(after.count).toBe(1);
    const moved = (BigInt(before.sum) - BigInt(after.sum)).toString();
    expect(await totalsOf(trader.id)).toEqual([
      { year: thisYear - 1, gbp_value: moved },
      { year: thisYear, gbp_value: after.sum },
    ]);
    expect(await createTradingVolumes(db()).volumeThisYear(trader.id)).toBe(BigInt(after.sum));
    await expectLedgerToHold(db());
  });
});

describe('the ledger checker’s trading-volume check', () => {
  it('reports a total that is not its year’s trades, and a year of trades without a total', async () => {
    await paths.drive('20000');
    const trader = await customer('5000.00');
    await paths.instant(trader, { side: 'buy', quantity: '0.01' });
    const { sum } = await tradesThisYear(trader.id);
    const total = db().updateTable('trading_volumes').where('user_id', '=', trader.id);

    // The one row a test writes by hand: to see the checker catch it.
    await total.set({ gbp_value: sql`gbp_value + 1` }).execute();
    const broken = await checkLedger(db(), DOMAIN_CHECKS);
    expect(broken.violations).toEqual([
      {
        invariant: 8,
        message: `trading volume: customer ${trader.id}'s total for ${thisYear} is ${BigInt(sum) + 1n} pence but their trades that year sum to ${sum}`,
      },
    ]);
    await total.set({ gbp_value: sql`gbp_value - 1` }).execute();
    await expectLedgerToHold(db());

    const rolledBack = new Error('rolled back');
    const missing = db()
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('trading_volumes').where('user_id', '=', trader.id).execute();
        expect(await tradingVolumeDomainCheck.run(trx)).toEqual([
          `customer ${trader.id} traded ${sum} pence in ${thisYear} but has no total for it`,
        ]);
        throw rolledBack;
      });
    await expect(missing).rejects.toBe(rolledBack);
    await expectLedgerToHold(db());
  });
});

describe('migration 0035', () => {
  it('backfills each customer’s totals from the trades written before it, year by year', async () => {
    const { db: before, close } = await createTestDatabase({ unmigrated: true });
    try {
      await migrateUpTo(before, '0034-mail-outbox');
      const ledger = createLedger();
      const user = await createTestUser(before);
      // Trades as the release before 0035 wrote them: a trade journal and its row, one this year, two last year.
      const trades = [
        { gbp: 2_000n, at: sql<Date>`now()` },
        { gbp: 3_000n, at: sql<Date>`now() - interval '1 year'` },
        { gbp: 500n, at: sql<Date>`now() - interval '1 year'` },
      ];
      for (const [index, trade] of trades.entries()) {
        const { journalId } = await ledger.postJournal(before, {
          idempotencyKey: `trade:${user}:backfill-${index}`,
          kind: 'trade',
          postings: [
            { account: { asset: 'GBP', kind: 'bank' }, amount: -trade.gbp },
            { account: available(user, 'GBP'), amount: trade.gbp },
          ],
        });
        await sql`
          INSERT INTO trades (user_id, kind, side, asset, fiat, price, quantity, notional, fee, total, fee_percent,
                              gbp_value, idempotency_key, journal_id, created_at)
          VALUES (${Number(user)}, 'market', 'sell', 'BTC', 'GBP', '20000', 1000, ${trade.gbp.toString()}, 0,
                  ${trade.gbp.toString()}, '0', ${trade.gbp.toString()}, ${`backfill-${index}`}, ${journalId},
                  ${trade.at})`.execute(before);
      }

      await migrateToLatest(before);

      expect(
        await before
          .selectFrom('trading_volumes')
          .select(['year', 'gbp_value'])
          .where('user_id', '=', Number(user))
          .orderBy('year')
          .execute(),
      ).toEqual([
        { year: thisYear - 1, gbp_value: '3500' },
        { year: thisYear, gbp_value: '2000' },
      ]);
      expect(await tradingVolumeDomainCheck.run(before)).toEqual([]);
    } finally {
      await close();
    }
  });
});
