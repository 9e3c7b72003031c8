import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTION_TYPES } from '@florin/contracts';
import { fromMinorUnits } from '@florin/domain';
import { csvLine, parseCsv } from '../../http/csv.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { liveCustomer } from '../fiat/fiat.test-kit.js';
import { csvSafe, decimalOf, historyCsvQuery } from './export-query.js';
import { historySourceOf } from './history.js';
import { crlfLineEnds } from './line-ends.js';
import { createPortfolioRepository } from './repository.js';

/**
 * Issue 43: the export's rows are written by the database's COPY, so the
 * CSV-injection escaping csvCell does in JS is done in SQL. No free text a
 * customer or payer typed reaches the file (its cells are the type's label,
 * asset codes, a trade's price, figures and the journal's id); the escaping is
 * proven here on the cells it guards, and on the label path of the real query.
 */

let t: TestApp;
let paths: MoneyPaths;

beforeAll(async () => {
  t = await createTestApp();
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});

async function readAll(stream: AsyncIterable<unknown>): Promise<string> {
  const toCrlf = crlfLineEnds();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(toCrlf(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Cells a spreadsheet would run, cells CSV must quote, and plain numbers that must stay numbers. */
const HOSTILE_CELLS = [
  '=HYPERLINK("https://evil.example","Refund")',
  '+44 20 7946 0000',
  "-2+3+cmd|' /C calc'!A0",
  '@SUM(A1:A9)',
  '\t=1+1',
  '\r=1+1',
  '-1',
  '-0.05',
  '-12.50000000',
  '-1e5',
  '-',
  'a,b',
  'say "hi"',
  'two\nlines',
  'two\r\nlines',
  "'already quoted",
  'Zürich €',
  'plain',
];

describe('the CSV export written by COPY', () => {
  it('escapes formula-like cells and quotes cells in SQL exactly as csvLine does', async () => {
    const rows = HOSTILE_CELLS.map((cell, index) => [cell, HOSTILE_CELLS.at(-1 - index)!]);
    const values = sql.join(
      rows.map(([a, b], index) => sql`(${sql.lit(index)}, ${sql.lit(a)}, ${sql.lit(b)})`),
    );
    const copied = await readAll(
      t.database.copyCsv(sql`
        SELECT ${csvSafe(sql`a`)}, ${csvSafe(sql`b`)}
        FROM (VALUES ${values}) AS cells (n, a, b) ORDER BY n`),
    );
    expect(copied).toBe(rows.map((row) => csvLine(row)).join(''));
    expect(parseCsv(copied)[0]).toEqual([`'${HOSTILE_CELLS[0]}`, 'plain']);
  });

  it('puts a formula-like label through the escaping on the real query, keeping a plain negative amount', async () => {
    const customer = await liveCustomer(t);
    await paths.bankDeposit(customer, '250.00');
    const labels = { ...TRANSACTION_TYPES, 5: '=HYPERLINK("https://evil.example")', 11: '@cmd' };
    const source = await historySourceOf(createPortfolioRepository(t.database.db), String(customer.id));
    const text = await readAll(t.database.copyCsv(historyCsvQuery(source, labels)));
    const [row] = parseCsv(text);
    expect(row?.slice(1, 4)).toEqual([`'=HYPERLINK("https://evil.example")`, 'GBP', '250.00']);
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
  });

  it('writes amounts as fromMinorUnits does, exact to 18 places however large', async () => {
    const cases: [bigint, number][] = [
      [1_234_567_890_123_456_789n, 18],
      [123_456_789_012_345_678_901_234_567_890_123_456_789n, 18],
      [1n, 18],
      [-(10n ** 20n) - 3n, 18],
      [0n, 8],
      [-5n, 2],
      [7n, 0],
    ];
    const values = sql.join(
      cases.map(([units, scale], n) => sql`(${sql.lit(n)}, ${sql.lit(units)}, ${sql.lit(scale)})`),
    );
    const text = await readAll(
      t.database.copyCsv(
        sql`SELECT ${decimalOf(sql`units`, sql`scale`)} FROM (VALUES ${values}) AS c (n, units, scale) ORDER BY n`,
      ),
    );
    expect(text).toBe(cases.map(([units, scale]) => `${fromMinorUnits(units, scale)}\r\n`).join(''));
  });

  it('refuses a query with bind parameters, which COPY cannot take', () => {
    expect(() => t.database.copyCsv(sql`SELECT ${'a value'}`)).toThrow(/sql\.lit/);
  });

  it('turns LF line ends into CRLF wherever the chunks split, leaving a line break inside a quoted cell', () => {
    const copied = Buffer.from('a,"x\ny ""z"""\n"q\n",b\nplain,1\n');
    const expected = 'a,"x\ny ""z"""\r\n"q\n",b\r\nplain,1\r\n';
    for (let split = 0; split <= copied.length; split += 1) {
      const toCrlf = crlfLineEnds();
      const joined = Buffer.concat([toCrlf(copied.subarray(0, split)), toCrlf(copied.subarray(split))]);
      expect(joined.toString(), `split at ${split}`).toBe(expected);
    }
  });
});
