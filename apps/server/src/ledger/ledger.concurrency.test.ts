import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { AppError } from '@florin/contracts';
import type { Database } from '../db/index.js';
import { createTestDatabase } from '../test/database.js';
import { available, countRows, createTestUser, expectLedgerToHold, fund, uniqueKey } from '../test/ledger.js';
import { createLedger } from './index.js';

/**
 * Many clients spending the same balance at once. On PostgreSQL (the suite's
 * second run) these are 32 real connections racing; on PGlite they queue on
 * its one connection, which must give the same answers.
 */
const CLIENTS = 32;

let database: Database;
const ledger = createLedger();
const newUser = () => createTestUser(database.db);

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: CLIENTS + 4 });
});
afterEach(async () => {
  await expectLedgerToHold(database.db);
});
afterAll(async () => {
  await database.close();
});

type Outcome = 'ok' | AppError['code'];

async function outcomeOf(work: Promise<unknown>): Promise<Outcome> {
  try {
    await work;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

/** Samples the lowest spendable balance of the given users while the race runs. */
function watchLowestBalance(users: string[]) {
  let lowest: bigint | null = null;
  let running = true;
  const loop = (async () => {
    while (running) {
      const result = await sql<{ lowest: string | null }>`
        SELECT min(posted - held)::text AS lowest FROM accounts WHERE owner_user_id = ANY(${users}::bigint[])`.execute(
        database.db,
      );
      const value = result.rows[0]?.lowest;
      if (value != null && (lowest === null || BigInt(value) < lowest)) lowest = BigInt(value);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return lowest;
  };
}

function spend(from: string, to: string, amount: bigint, key = uniqueKey('race')) {
  return ledger.postJournal(database.db, {
    idempotencyKey: key,
    kind: 'adjustment',
    postings: [
      { account: available(from, 'GBP'), amount: -amount },
      { account: available(to, 'GBP'), amount },
    ],
  });
}

it(`lets exactly one of ${CLIENTS} clients spend a customer's whole balance`, async () => {
  const payer = await newUser();
  const payees = await Promise.all(Array.from({ length: CLIENTS }, newUser));
  await fund(ledger, database.db, payer, 'GBP', 10_000n);
  const stopWatching = watchLowestBalance([payer]);
  const outcomes = await Promise.all(payees.map((payee) => outcomeOf(spend(payer, payee, 10_000n))));
  const lowest = await stopWatching();

  expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
  expect(outcomes.filter((o) => o === 'INSUFFICIENT_FUNDS')).toHaveLength(CLIENTS - 1);
  expect((await ledger.getBalance(database.db, available(payer, 'GBP'))).posted).toBe(0n);
  expect(lowest === null || lowest >= 0n).toBe(true);
});

it(`keeps two customers whole, never negative, when ${CLIENTS} clients send money both ways at once`, async () => {
  const [alice, bob] = [await newUser(), await newUser()];
  await fund(ledger, database.db, alice, 'GBP', 10_000n);
  await fund(ledger, database.db, bob, 'GBP', 10_000n);
  const stopWatching = watchLowestBalance([alice, bob]);
  // Half the clients send 30.00 from Alice to Bob, half from Bob to Alice:
  // opposite lock orders if the ledger did not sort, so a deadlock would show.
  const outcomes = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) =>
      outcomeOf(i % 2 === 0 ? spend(alice, bob, 3_000n) : spend(bob, alice, 3_000n)),
    ),
  );
  const lowest = await stopWatching();
  const succeeded = outcomes.filter((o) => o === 'ok').length;
  expect(outcomes.every((o) => o === 'ok' || o === 'INSUFFICIENT_FUNDS')).toBe(true);
  const aliceBalance = (await ledger.getBalance(database.db, available(alice, 'GBP'))).posted;
  const bobBalance = (await ledger.getBalance(database.db, available(bob, 'GBP'))).posted;
  expect(aliceBalance + bobBalance).toBe(20_000n);
  expect(aliceBalance >= 0n && bobBalance >= 0n).toBe(true);
  expect(await countRows(database.db, 'journals')).toBeGreaterThanOrEqual(succeeded);
  expect(succeeded).toBeGreaterThanOrEqual(3);
  expect(lowest === null || lowest >= 0n).toBe(true);
});

it(`places exactly as many holds as the balance covers when ${CLIENTS} clients race`, async () => {
  const user = await newUser();
  await fund(ledger, database.db, user, 'BTC', 100_000_000n);
  const outcomes = await Promise.all(
    Array.from({ length: CLIENTS }, () =>
      outcomeOf(
        ledger.placeHold(database.db, {
          idempotencyKey: uniqueKey('hold-race'),
          account: available(user, 'BTC'),
          amount: 30_000_000n,
          reason: 'fiat_withdrawal',
        }),
      ),
    ),
  );
  expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3);
  expect(await ledger.getBalance(database.db, available(user, 'BTC'))).toEqual({
    posted: 100_000_000n,
    held: 90_000_000n,
    available: 10_000_000n,
  });
});

it(`executes one idempotency key once when ${CLIENTS} clients send it at the same moment`, async () => {
  const [payer, payee] = [await newUser(), await newUser()];
  await fund(ledger, database.db, payer, 'GBP', 100_000n);
  const key = uniqueKey('same-key');
  const journalsBefore = await countRows(database.db, 'journals');
  const results = await Promise.all(Array.from({ length: CLIENTS }, () => spend(payer, payee, 2_500n, key)));

  expect(results.filter((r) => !r.replayed)).toHaveLength(1);
  expect(new Set(results.map((r) => r.journalId)).size).toBe(1);
  expect(await countRows(database.db, 'journals')).toBe(journalsBefore + 1);
  expect((await ledger.getBalance(database.db, available(payer, 'GBP'))).posted).toBe(97_500n);
  expect((await ledger.getBalance(database.db, available(payee, 'GBP'))).posted).toBe(2_500n);
});
