import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/index.js';
import { createTestDatabase } from '../test/database.js';
import { available, createTestUser, expectLedgerToHold, fund } from '../test/ledger.js';
import { createLedger } from './index.js';

let database: Database;
const ledger = createLedger();

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await expectLedgerToHold(database.db);
});
afterAll(async () => {
  await database.close();
});

type Plan = { 'Relation Name'?: string; 'Actual Loops': number; Plans?: Plan[] };

/** How many times each plan node over house_balance_deltas ran. */
const loopsOverDeltas = (plan: Plan): number[] => [
  ...(plan['Relation Name'] === 'house_balance_deltas' ? [plan['Actual Loops']] : []),
  ...(plan.Plans ?? []).flatMap(loopsOverDeltas),
];

describe("a customer's balance read inside another statement (the quote's facts)", () => {
  it("never sums the house's postings waiting to be rolled up", async () => {
    const user = await createTestUser(database.db);
    await fund(ledger, database.db, user, 'GBP', 2_500n);
    const pending = await database.db.selectFrom('house_balance_deltas').select('id').execute();
    expect(pending.length).toBeGreaterThan(0);

    const fact = ledger.balanceFact(available(user, 'GBP'));
    const explained = await sql<{ 'QUERY PLAN': [{ Plan: Plan }] }>`
      EXPLAIN (ANALYZE, FORMAT JSON) SELECT ${fact.select} AS balance`.execute(database.db);
    // The sum stays in the one definition (a house account needs it) but never runs for a customer's.
    expect(loopsOverDeltas(explained.rows[0]!['QUERY PLAN'][0].Plan)).toEqual([0]);
    const read = await sql<{ balance: unknown }>`SELECT ${fact.select} AS balance`.execute(database.db);
    expect(fact.read(read.rows[0]?.balance ?? null)).toEqual({ posted: 2_500n, held: 0n, available: 2_500n });
    expect(await ledger.getBalance(database.db, available(user, 'GBP'))).toEqual(
      fact.read(read.rows[0]?.balance ?? null),
    );
  });
});
