import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { tradingSteps } from './trading.test-kit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const { drive, trader, quote, execute } = tradingSteps(() => t);

/** "begin", "insert trades", "select trade_quotes for update", … from a statement's text. */
function label(text: string): string {
  const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? '?';
  const table = /\b(?:into|from|update)\s+"?(\w+)"?/i.exec(text)?.[1];
  const forUpdate = /\bfor update\b/i.test(text) ? ' for update' : '';
  return `${verb}${table ? ` ${table}` : ''}${forUpdate}`;
}

type Query = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Every statement the app sends passes pg's Client#query (PostgreSQL) or PGlite's query (the dialects call
 * them): while `work` runs, each is labelled and listed, as bench/trading/server.ts counts them.
 */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const owners = [pg.Client.prototype, Object.getPrototypeOf(PGlite.prototype) as object];
  const originals = owners.map((owner) => Reflect.get(owner, 'query') as Query);
  owners.forEach((owner, index) => {
    const original = originals[index] as Query;
    Reflect.set(owner, 'query', function (this: unknown, ...args: unknown[]) {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
      seen.push(typeof text === 'string' ? label(text) : '?');
      return original.apply(this, args);
    });
  });
  try {
    await work();
  } finally {
    owners.forEach((owner, index) => Reflect.set(owner, 'query', originals[index]));
  }
  return seen;
}

describe('the statements of an instant execution (issue 43)', () => {
  it('quotes and executes in few statements', async () => {
    const customer = await trader({ gbp: 100_000n });
    await drive('20000');
    // A first quote and order warm what the app may cache (sessions, coins); the second pair is counted.
    const first = await quote(customer, { quantity: '0.01' });
    const firstOrder = await execute(customer, first.id);
    expect(firstOrder.statusCode, firstOrder.body).toBe(200);

    let offerId = '';
    const quoting = await statementsOf(async () => {
      offerId = (await quote(customer, { quantity: '0.01' })).id;
    });
    const ordering = await statementsOf(async () => {
      const response = await execute(customer, offerId);
      expect(response.statusCode, response.body).toBe(200);
    });
    console.log(`quote ${quoting.length}: ${quoting.join(', ')}`);
    console.log(`order ${ordering.length}: ${ordering.join(', ')}`);
    // Issue 43 measured 12 and 16 on PostgreSQL (26 with the mail's send and two NOTIFYs). The quote reads the customer and every fact it decides on in one
    // statement, then writes itself (beside the session and coins, which the caches answer where they listen).
    const cached = ['select sessions', 'select coins'];
    expect(quoting.filter((statement) => !cached.includes(statement))).toHaveLength(2);
    expect(quoting.at(-1)).toBe('insert trade_quotes');
    // The order locks its quote and customer together, then writes the journal, the trade, the quote's use and
    // the trade's mail and notification in one statement; the outbox's sender sends the mail, and the source of
    // wealth is checked only over the threshold. With the one NOTIFY of its events, 7 an execution.
    const uncached = ordering.filter((statement) => !cached.includes(statement));
    expect(uncached).toEqual([
      'begin',
      'select trade_quotes for update',
      'with ledger_post_journal',
      'commit',
    ]);
  });
});
