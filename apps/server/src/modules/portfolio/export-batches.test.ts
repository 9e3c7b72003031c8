import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { liveCustomer, readyBankAccount } from '../fiat/fiat.test-kit.js';
import { historyCsvQuery } from './export-query.js';
import { createPortfolioHistory, historySourceOf } from './history.js';
import { crlfLineEnds } from './line-ends.js';
import { createPortfolioRepository } from './repository.js';

/**
 * The export is sent in keyset batches (a COPY each for the next journals older than the last one
 * sent), so its first rows go out at once. Whatever the batch size, the file is the one COPY of
 * the whole history would write: the same rows in the same order, none twice, none missing where
 * one batch ends and the next begins, a trade (on the customer's cash and coin accounts) included.
 */

let t: TestApp;
let paths: MoneyPaths;

beforeAll(async () => {
  t = await createTestApp();
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await expectLedgerToHold(t.database.db);
  await t.close();
});

async function readText(stream: AsyncIterable<unknown>, toCrlf?: (chunk: Buffer) => Buffer): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(toCrlf ? toCrlf(chunk as Buffer) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('the history export in batches', () => {
  it('writes the same file whatever the batch size, a trade at a batch boundary included', async () => {
    const customer = await liveCustomer(t);
    const other = await liveCustomer(t);
    await readyBankAccount(t, customer);
    await paths.drive('20000');
    await paths.bankDeposit(customer, '1000.00');
    await paths.instant(customer, { side: 'buy', quantity: '0.01' });
    // Another customer's journal between the customer's own: never in their file.
    await paths.bankDeposit(other, '999.00');
    await paths.coinDeposit(customer, 'btc', '0.5');
    await paths.instant(customer, { side: 'sell', quantity: '0.02' });
    await paths.instant(customer, { side: 'buy', quantity: '0.03' });
    await paths.payWithdrawal((await paths.fiatWithdrawal(customer, '50.00')).id);
    await paths.instant(customer, { side: 'sell', quantity: '0.01' });

    let copies = 0;
    const history = createPortfolioHistory({
      repository: createPortfolioRepository(t.database.db),
      copyCsv: (query) => {
        copies += 1;
        return t.database.copyCsv(query);
      },
    });
    const userId = String(customer.id);
    const source = await historySourceOf(createPortfolioRepository(t.database.db), userId);
    const whole = await readText(t.database.copyCsv(historyCsvQuery(source)), crlfLineEnds());
    const oneBatch = await readText(history.exportCsv(userId));
    const [header, ...lines] = oneBatch.split('\r\n');
    expect(lines.join('\r\n')).toBe(whole);

    const rows = parse<Record<string, string>>(oneBatch, { columns: true });
    expect(rows.map((row) => row.type)).toEqual([
      'Sell',
      'Withdraw',
      'Buy',
      'Sell',
      'Deposit',
      'Buy',
      'Deposit',
    ]);
    const ids = rows.map((row) => BigInt(row.reference!));
    expect(ids.every((id, at) => at === 0 || id < ids[at - 1]!)).toBe(true);

    for (const size of [1, 2, 3, 4, 6, 7]) {
      copies = 0;
      expect(
        await readText(history.exportCsv(userId, { first: size, most: size })),
        `batches of ${size}`,
      ).toBe(oneBatch);
      // A COPY per batch, and one more that finds nothing older.
      expect(copies, `batches of ${size}`).toBe(Math.ceil(rows.length / size) + 1);
    }
    // Growing batches of 1, 2 and 4 journals: the 7 rows in 3 COPYs, and the one that finds nothing.
    copies = 0;
    expect(await readText(history.exportCsv(userId, { first: 1, most: 4 }))).toBe(oneBatch);
    expect(copies).toBe(4);
    // Batches of 2 end on the Withdraw, Sell and Buy: the Sell's and the Buy's each have a leg on the GBP
    // and on the BTC account, so both accounts' index scans meet that boundary.
    expect([1, 3, 5].map((at) => rows[at]!.type)).toEqual(['Withdraw', 'Sell', 'Buy']);
    expect(header).toBe('date,type,asset,amount,currency,price,gbp_value,fee,net_amount,reference');
  });

  it('writes the header alone for a customer with no history, in batches as at once', async () => {
    const customer = await liveCustomer(t);
    const history = createPortfolioHistory({
      repository: createPortfolioRepository(t.database.db),
      copyCsv: t.database.copyCsv,
    });
    const header = 'date,type,asset,amount,currency,price,gbp_value,fee,net_amount,reference\r\n';
    expect(await readText(history.exportCsv(String(customer.id), { first: 1, most: 1 }))).toBe(header);
    expect(await readText(history.exportCsv(String(customer.id)))).toBe(header);
  });

  it("never folds in another customer's account, even one named beside the customer's own", async () => {
    const customer = await liveCustomer(t);
    const other = await liveCustomer(t);
    await paths.bankDeposit(customer, '120.00');
    await paths.bankDeposit(other, '340.00');
    const repository = createPortfolioRepository(t.database.db);
    const own = await historySourceOf(repository, String(customer.id));
    const theirs = await historySourceOf(repository, String(other.id));
    expect(theirs.accountIds.length).toBeGreaterThan(0);
    const named = { userId: own.userId, accountIds: [...own.accountIds, ...theirs.accountIds] };
    const text = await readText(t.database.copyCsv(historyCsvQuery(named)), crlfLineEnds());
    expect(text).toBe(await readText(t.database.copyCsv(historyCsvQuery(own)), crlfLineEnds()));
    expect(parse(text).map((row: string[]) => row.slice(1, 4))).toEqual([['Deposit', 'GBP', '120.00']]);
  });
});
