import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@florin/contracts';
import type { Database } from '../db/index.js';
import { migrateToLatest, migrateUpTo } from '../db/migrate.js';
import { createTestDatabase } from '../test/database.js';
import { available, countRows, createTestUser, expectLedgerToHold, fund, uniqueKey } from '../test/ledger.js';
import { checkLedger, createLedger, LedgerProgrammingError, rollUpHouseBalances } from './index.js';
import { buyFill, rejection } from './ledger.test-kit.js';

let database: Database;
const ledger = createLedger();
const newUser = () => createTestUser(database.db);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await expectLedgerToHold(database.db);
});
afterAll(async () => {
  await database.close();
});

describe('journals', () => {
  it('credits a customer and debits the bank in one balanced journal, recording each balance after', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 10_000n);
    await fund(ledger, database.db, user, 'GBP', 2_550n);
    expect(await ledger.getBalance(database.db, available(user, 'GBP'))).toEqual({
      posted: 12_550n,
      held: 0n,
      available: 12_550n,
    });
    const entries = await database.db
      .selectFrom('entries')
      .innerJoin('accounts', 'accounts.id', 'entries.account_id')
      .select(['entries.amount', 'entries.balance_after'])
      .where('accounts.owner_user_id', '=', user)
      .orderBy('entries.id')
      .execute();
    expect(entries).toEqual([
      { amount: '10000', balance_after: '10000' },
      { amount: '2550', balance_after: '12550' },
    ]);
  });

  it('refuses a journal that does not balance, and writes nothing', async () => {
    const before = await countRows(database.db, 'journals');
    await expect(
      ledger.postJournal(database.db, {
        idempotencyKey: uniqueKey(),
        kind: 'adjustment',
        postings: [
          { account: { asset: 'GBP', kind: 'bank' }, amount: -100n },
          { account: available(await newUser(), 'GBP'), amount: 101n },
        ],
      }),
    ).rejects.toThrow(LedgerProgrammingError);
    await expect(
      ledger.postJournal(database.db, {
        idempotencyKey: uniqueKey(),
        kind: 'adjustment',
        postings: [
          { account: { asset: 'GBP', kind: 'bank' }, amount: -100n },
          { account: available(await newUser(), 'BTC'), amount: 100n },
        ],
      }),
    ).rejects.toThrow(/does not balance/);
    expect(await countRows(database.db, 'journals')).toBe(before);
  });

  it('refuses an overdraft with INSUFFICIENT_FUNDS and leaves every balance as it was', async () => {
    const [payer, payee] = [await newUser(), await newUser()];
    await fund(ledger, database.db, payer, 'GBP', 5_000n);
    const error = await rejection(
      ledger.postJournal(database.db, {
        idempotencyKey: uniqueKey(),
        kind: 'adjustment',
        postings: [
          { account: available(payer, 'GBP'), amount: -5_001n },
          { account: available(payee, 'GBP'), amount: 5_001n },
        ],
      }),
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('INSUFFICIENT_FUNDS');
    expect((await ledger.getBalance(database.db, available(payer, 'GBP'))).posted).toBe(5_000n);
    expect((await ledger.getBalance(database.db, available(payee, 'GBP'))).posted).toBe(0n);
  });

  it('executes a key once: the same request replays the first result, a different one is a conflict', async () => {
    const user = await newUser();
    const request = {
      idempotencyKey: uniqueKey(),
      kind: 'fiat_deposit' as const,
      reference: 'deposit:1',
      postings: [
        { account: { asset: 'GBP' as const, kind: 'bank' as const }, amount: -700n },
        { account: available(user, 'GBP'), amount: 700n },
      ],
    };
    const first = await ledger.postJournal(database.db, request);
    const again = await ledger.postJournal(database.db, request);
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ journalId: first.journalId, replayed: true });

    const conflict = await rejection(
      ledger.postJournal(database.db, {
        ...request,
        postings: [
          { account: { asset: 'GBP', kind: 'bank' }, amount: -701n },
          { account: available(user, 'GBP'), amount: 701n },
        ],
      }),
    );
    expect((conflict as AppError).code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await ledger.getBalance(database.db, available(user, 'GBP'))).posted).toBe(700n);
  });

  it('moves a 5-leg trade atomically: customer pays cost plus fee, receives the coin', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 100_000n);
    const trade = await ledger.postJournal(database.db, {
      idempotencyKey: uniqueKey('trade'),
      kind: 'trade',
      // Amounts in metadata are bigints like everywhere else; they are stored as decimal strings.
      metadata: { quote: 'q1', price: '27000.00', fee: 375n },
      postings: [
        { account: available(user, 'GBP'), amount: -(27_000n + 375n) },
        { account: { asset: 'GBP', kind: 'inventory' }, amount: 27_000n },
        { account: { asset: 'GBP', kind: 'fee_revenue' }, amount: 375n },
        { account: { asset: 'BTC', kind: 'inventory' }, amount: -1_000_000n },
        { account: available(user, 'BTC'), amount: 1_000_000n },
      ],
    });
    expect((await ledger.getBalance(database.db, available(user, 'GBP'))).posted).toBe(72_625n);
    expect((await ledger.getBalance(database.db, available(user, 'BTC'))).posted).toBe(1_000_000n);
    const journal = await database.db
      .selectFrom('journals')
      .select('metadata')
      .where('id', '=', trade.journalId)
      .executeTakeFirstOrThrow();
    expect(journal.metadata).toEqual({ quote: 'q1', price: '27000.00', fee: '375' });
    expect(
      (await ledger.getBalance(database.db, { asset: 'GBP', kind: 'fee_revenue' })).posted,
    ).toBeGreaterThanOrEqual(375n);
  });

  it('keeps journals and entries append-only: UPDATE, DELETE and TRUNCATE are refused by the database', async () => {
    await fund(ledger, database.db, await newUser(), 'GBP', 1n);
    await expect(sql`UPDATE entries SET amount = amount + 1`.execute(database.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`DELETE FROM journals`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE entries CASCADE`.execute(database.db)).rejects.toThrow(/append-only/);
  });

  it('refuses, in the database itself, an entry in another asset than its account, and one on no account', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 500n);
    const { journal_id, account_id } = await database.db
      .selectFrom('entries')
      .innerJoin('accounts', 'accounts.id', 'entries.account_id')
      .select(['entries.journal_id', 'entries.account_id'])
      .where('accounts.owner_user_id', '=', user)
      .executeTakeFirstOrThrow();
    const entriesBefore = await countRows(database.db, 'entries');
    // The GBP account credited in bitcoin: balanced or not, the asset is not the account's.
    await expect(
      sql`INSERT INTO entries (journal_id, account_id, asset, amount) VALUES (${journal_id}, ${account_id}, 'BTC', 1)`.execute(
        database.db,
      ),
    ).rejects.toThrow(/entries_account_asset_fkey/);
    await expect(
      sql`INSERT INTO entries (journal_id, account_id, asset, amount) VALUES (${journal_id}, -1, 'GBP', 1)`.execute(
        database.db,
      ),
    ).rejects.toThrow(/entries_account_asset_fkey/);
    expect(await countRows(database.db, 'entries')).toBe(entriesBefore);
  });

  it('keeps a ledger written before the account-and-asset key whole when the key arrives (migration 0032)', async () => {
    const { db, close } = await createTestDatabase({ unmigrated: true });
    try {
      await migrateUpTo(db, '0031-referral-commission-closed');
      const user = await createTestUser(db);
      await fund(ledger, db, user, 'GBP', 700n);
      await fund(ledger, db, user, 'BTC', 3n);

      await migrateToLatest(db);

      await expectLedgerToHold(db);
      expect(await countRows(db, 'entries')).toBe(4);
      await fund(ledger, db, user, 'GBP', 50n);
      expect(await ledger.getBalance(db, available(user, 'GBP'))).toMatchObject({ posted: 750n });
    } finally {
      await close();
    }
  });
});

describe('holds', () => {
  it('sets funds aside so they cannot be spent twice, then spends part and releases the rest', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 10_000n);
    const { holdId } = await ledger.placeHold(database.db, {
      idempotencyKey: uniqueKey('hold'),
      account: available(user, 'GBP'),
      amount: 8_000n,
      reason: 'limit_order',
      reference: 'order:1',
    });
    expect(await ledger.getBalance(database.db, available(user, 'GBP'))).toEqual({
      posted: 10_000n,
      held: 8_000n,
      available: 2_000n,
    });
    const spendHeld = await rejection(
      ledger.postJournal(database.db, {
        idempotencyKey: uniqueKey(),
        kind: 'adjustment',
        postings: [
          { account: available(user, 'GBP'), amount: -2_001n },
          { account: { asset: 'GBP', kind: 'bank' }, amount: 2_001n },
        ],
      }),
    );
    expect((spendHeld as AppError).code).toBe('INSUFFICIENT_FUNDS');

    await ledger.postHold(database.db, {
      holdId,
      idempotencyKey: uniqueKey('fill'),
      kind: 'limit_order_fill',
      amount: 3_000n,
      postings: [
        { account: available(user, 'GBP'), amount: -3_000n },
        { account: { asset: 'GBP', kind: 'inventory' }, amount: 3_000n },
      ],
    });
    expect(await ledger.getBalance(database.db, available(user, 'GBP'))).toEqual({
      posted: 7_000n,
      held: 5_000n,
      available: 2_000n,
    });
    const released = await ledger.releaseHold(database.db, { holdId, outcome: 'voided' });
    expect(released).toEqual({ status: 'posted', released: 5_000n, replayed: false });
    expect(await ledger.getBalance(database.db, available(user, 'GBP'))).toEqual({
      posted: 7_000n,
      held: 0n,
      available: 7_000n,
    });
  });

  it('refuses a hold larger than what is available', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'BTC', 50_000n);
    const error = await rejection(
      ledger.placeHold(database.db, {
        idempotencyKey: uniqueKey(),
        account: available(user, 'BTC'),
        amount: 50_001n,
        reason: 'fiat_withdrawal',
      }),
    );
    expect((error as AppError).code).toBe('INSUFFICIENT_FUNDS');
    expect((await ledger.getBalance(database.db, available(user, 'BTC'))).held).toBe(0n);
  });

  it('resolves a hold once: a second release with the same outcome is a no-op, spending it afterwards a conflict', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 5_000n);
    const { holdId } = await ledger.placeHold(database.db, {
      idempotencyKey: uniqueKey(),
      account: available(user, 'GBP'),
      amount: 5_000n,
      reason: 'fiat_withdrawal',
    });
    expect(await ledger.releaseHold(database.db, { holdId, outcome: 'voided' })).toEqual({
      status: 'voided',
      released: 5_000n,
      replayed: false,
    });
    expect(await ledger.releaseHold(database.db, { holdId, outcome: 'voided' })).toEqual({
      status: 'voided',
      released: 0n,
      replayed: true,
    });
    const expire = await rejection(ledger.releaseHold(database.db, { holdId, outcome: 'expired' }));
    expect((expire as AppError).code).toBe('CONFLICT');
    const post = await rejection(
      ledger.postHold(database.db, {
        holdId,
        idempotencyKey: uniqueKey(),
        kind: 'fiat_withdrawal',
        amount: 5_000n,
        postings: [
          { account: available(user, 'GBP'), amount: -5_000n },
          { account: { asset: 'GBP', kind: 'bank' }, amount: 5_000n },
        ],
      }),
    );
    expect((post as AppError).code).toBe('CONFLICT');
    expect(await ledger.getBalance(database.db, available(user, 'GBP'))).toEqual({
      posted: 5_000n,
      held: 0n,
      available: 5_000n,
    });
  });

  it('pays a withdrawal from its hold: customer debited, bank and fee revenue credited', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 10_000n);
    const { holdId } = await ledger.placeHold(database.db, {
      idempotencyKey: uniqueKey(),
      account: available(user, 'GBP'),
      amount: 3_000n,
      reason: 'fiat_withdrawal',
      reference: 'withdrawal:9',
    });
    const paid = {
      holdId,
      idempotencyKey: uniqueKey('paid'),
      kind: 'fiat_withdrawal' as const,
      amount: 3_000n,
      postings: [
        { account: available(user, 'GBP'), amount: -3_000n },
        { account: { asset: 'GBP' as const, kind: 'bank' as const }, amount: 2_500n },
        { account: { asset: 'GBP' as const, kind: 'withdrawal_fee_revenue' as const }, amount: 500n },
      ],
    };
    await ledger.postHold(database.db, paid);
    expect((await ledger.postHold(database.db, paid)).replayed).toBe(true);
    expect(await ledger.getBalance(database.db, available(user, 'GBP'))).toEqual({
      posted: 7_000n,
      held: 0n,
      available: 7_000n,
    });
    const hold = await database.db
      .selectFrom('holds')
      .selectAll()
      .where('id', '=', holdId)
      .executeTakeFirstOrThrow();
    expect(hold.status).toBe('posted');
    expect(hold.remaining).toBe('0');
  });

  it('refuses a hold posting that does not debit the hold’s own account by exactly the amount', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 1_000n);
    const { holdId } = await ledger.placeHold(database.db, {
      idempotencyKey: uniqueKey(),
      account: available(user, 'GBP'),
      amount: 1_000n,
      reason: 'fiat_withdrawal',
    });
    await expect(
      ledger.postHold(database.db, {
        holdId,
        idempotencyKey: uniqueKey(),
        kind: 'fiat_withdrawal',
        amount: 1_000n,
        postings: [
          { account: { asset: 'GBP', kind: 'suspense' }, amount: -1_000n },
          { account: { asset: 'GBP', kind: 'bank' }, amount: 1_000n },
        ],
      }),
    ).rejects.toThrow(LedgerProgrammingError);
    await ledger.releaseHold(database.db, { holdId, outcome: 'voided' });
  });
});

describe('holds posted in a batch', () => {
  async function holdOf(user: string, amount: bigint): Promise<string> {
    const { holdId } = await ledger.placeHold(database.db, {
      idempotencyKey: uniqueKey('order'),
      account: available(user, 'GBP'),
      amount,
      reason: 'limit_order',
    });
    return holdId;
  }
  it('posts several customers’ holds at once, releasing what each did not use, with each balance after in order', async () => {
    const [ann, bob] = [await newUser(), await newUser()];
    await fund(ledger, database.db, ann, 'GBP', 10_000n);
    await fund(ledger, database.db, bob, 'GBP', 3_000n);
    const inputs = [
      buyFill(ann, await holdOf(ann, 4_000n), 3_500n, 10n),
      buyFill(bob, await holdOf(bob, 3_000n), 3_000n, 7n),
      buyFill(ann, await holdOf(ann, 2_000n), 1_000n, 3n),
    ];
    const results = await ledger.postHolds(database.db, inputs);
    expect(results.map((result) => result.replayed)).toEqual([false, false, false]);
    expect(new Set(results.map((result) => result.journalId)).size).toBe(3);
    expect(await ledger.getBalance(database.db, available(ann, 'GBP'))).toEqual({
      posted: 5_500n,
      held: 0n,
      available: 5_500n,
    });
    expect((await ledger.getBalance(database.db, available(ann, 'BTC'))).posted).toBe(13n);
    expect((await ledger.getBalance(database.db, available(bob, 'GBP'))).posted).toBe(0n);
    const holds = await database.db
      .selectFrom('holds')
      .select(['status', 'remaining'])
      .where(
        'id',
        'in',
        inputs.map((input) => input.holdId),
      )
      .execute();
    expect(holds).toEqual(inputs.map(() => ({ status: 'posted', remaining: '0' })));
    const annGbp = await database.db
      .selectFrom('entries')
      .innerJoin('accounts', 'accounts.id', 'entries.account_id')
      .select(['entries.amount', 'entries.balance_after'])
      .where('accounts.owner_user_id', '=', ann)
      .where('accounts.asset', '=', 'GBP')
      .orderBy('entries.id')
      .execute();
    expect(annGbp).toEqual([
      { amount: '10000', balance_after: '10000' },
      { amount: '-3500', balance_after: '6500' },
      { amount: '-1000', balance_after: '5500' },
    ]);
    // A retried pass replays each journal and moves nothing.
    const again = await ledger.postHolds(database.db, inputs);
    expect(again).toEqual(results.map((result) => ({ ...result, replayed: true })));
    expect((await ledger.getBalance(database.db, available(ann, 'GBP'))).posted).toBe(5_500n);
  });

  it('posts none of the batch when one hold is already resolved', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 5_000n);
    const open = await holdOf(user, 2_000n);
    const cancelled = await holdOf(user, 2_000n);
    await ledger.releaseHold(database.db, { holdId: cancelled, outcome: 'voided' });
    const journals = await countRows(database.db, 'journals');
    const error = await rejection(
      ledger.postHolds(database.db, [buyFill(user, open, 2_000n, 5n), buyFill(user, cancelled, 2_000n, 5n)]),
    );
    expect((error as AppError).code).toBe('CONFLICT');
    expect(await countRows(database.db, 'journals')).toBe(journals);
    expect(await ledger.getBalance(database.db, available(user, 'GBP'))).toEqual({
      posted: 5_000n,
      held: 2_000n,
      available: 3_000n,
    });
  });
});

describe('house balances and the checker', () => {
  it('rolls house postings up into their balances without changing any total', async () => {
    await fund(ledger, database.db, await newUser(), 'ETH', 10n ** 19n);
    const before = await ledger.getBalance(database.db, { asset: 'ETH', kind: 'custody' });
    await rollUpHouseBalances(database.db);
    const after = await ledger.getBalance(database.db, { asset: 'ETH', kind: 'custody' });
    expect(after).toEqual(before);
    const pending = await database.db.selectFrom('house_balance_deltas').select('id').execute();
    expect(pending).toEqual([]);
  });

  it('finds money created outside the ledger, and names the account', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 100n);
    // A balance changed without a journal: exactly what the checker exists to catch.
    await sql`UPDATE accounts SET posted = posted + 1 WHERE owner_user_id = ${user}`.execute(database.db);
    const result = await checkLedger(database.db);
    expect(result.ok).toBe(false);
    expect(result.violations.map((v) => v.invariant).sort()).toEqual([2, 3]);
    expect(result.violations.find((v) => v.invariant === 3)?.message).toMatch(
      /holds 101 but its entries sum to 100/,
    );
    await sql`UPDATE accounts SET posted = posted - 1 WHERE owner_user_id = ${user}`.execute(database.db);
  });

  it('finds a held amount that no pending hold explains', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 100n);
    await sql`UPDATE accounts SET held = 40 WHERE owner_user_id = ${user}`.execute(database.db);
    const result = await checkLedger(database.db);
    expect(result.violations).toEqual([
      {
        invariant: 5,
        message: expect.stringMatching(/holds 40 but its pending holds add up to 0/) as string,
      },
    ]);
    await sql`UPDATE accounts SET held = 0 WHERE owner_user_id = ${user}`.execute(database.db);
  });

  it('refuses, in the database itself, a customer balance below zero even if code tried', async () => {
    const user = await newUser();
    await fund(ledger, database.db, user, 'GBP', 100n);
    await expect(
      sql`UPDATE accounts SET posted = -1 WHERE owner_user_id = ${user}`.execute(database.db),
    ).rejects.toThrow(/accounts_no_overdraft/);
  });
});
