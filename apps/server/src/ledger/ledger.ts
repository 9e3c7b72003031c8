import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError } from '@florin/contracts';
import type { AssetCode } from '@florin/domain';
import type { DB, HoldStatus } from '../db/schema.js';
import {
  accountKey,
  getBalance,
  resolveAccounts,
  type AccountRef,
  type Balance,
  type Executor,
  type ResolvedAccount,
  type UserAccountRef,
} from './accounts.js';
import type { JournalKind } from './journal-kinds.js';

/** One leg of a journal: the signed change to the account's balance (credit +, debit −). */
export type Posting = { account: AccountRef; amount: bigint };

export type JournalInput = {
  idempotencyKey: string;
  kind: JournalKind;
  /** The domain row the movement belongs to, e.g. "withdrawal:42". */
  reference?: string;
  metadata?: Record<string, unknown>;
  postings: Posting[];
};

export type JournalResult = { journalId: string; replayed: boolean };

export type HoldInput = {
  idempotencyKey: string;
  account: UserAccountRef;
  amount: bigint;
  reason: string;
  reference?: string;
};

export type HoldResult = { holdId: string; replayed: boolean };

export type PostHoldInput = Omit<JournalInput, 'postings'> & {
  holdId: string;
  /** How much of the hold this posting uses; the hold's account must be debited exactly this much. */
  amount: bigint;
  postings: Posting[];
  /** Release what is left of the hold after this posting (a limit order that closes). */
  releaseRest?: boolean;
};

export type ReleaseResult = { status: HoldStatus; released: bigint; replayed: boolean };

/** A mistake in the calling code (an unbalanced journal), never a customer's doing. */
export class LedgerProgrammingError extends Error {}

type AccountChange = { account: ResolvedAccount; delta: bigint; releaseHeld: bigint };

function hashRequest(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? item.toString() : item,
  );
  return createHash('sha256').update(text).digest('hex');
}

function withTransaction<T>(db: Executor, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}

function assertBalanced(postings: readonly Posting[]): void {
  if (postings.length < 2) throw new LedgerProgrammingError('a journal needs at least two postings');
  const sums = new Map<AssetCode, bigint>();
  for (const posting of postings) {
    if (posting.amount === 0n) throw new LedgerProgrammingError('a posting of zero');
    sums.set(posting.account.asset, (sums.get(posting.account.asset) ?? 0n) + posting.amount);
  }
  for (const [asset, sum] of sums) {
    if (sum !== 0n) throw new LedgerProgrammingError(`journal does not balance in ${asset}: ${sum}`);
  }
}

/**
 * The only code that changes a balance. Each method runs inside the caller's
 * transaction when given one (so the journal commits with its domain row), or
 * opens its own.
 */
export type Ledger = ReturnType<typeof createLedger>;

export function createLedger() {
  const houseCache = new Map<string, ResolvedAccount>();

  /** Inserts the journal row, or finds the earlier one with this key. */
  async function claimKey(
    trx: Transaction<DB>,
    input: Omit<JournalInput, 'postings'>,
    requestHash: string,
    holdId: string | null,
  ): Promise<{ journalId: string; replayed: boolean }> {
    // ON CONFLICT waits for a concurrent insert of the same key to commit or
    // roll back, so two requests with one key never both get past here.
    const inserted = await trx
      .insertInto('journals')
      .values({
        idempotency_key: input.idempotencyKey,
        request_hash: requestHash,
        kind: input.kind,
        reference: input.reference ?? null,
        hold_id: holdId,
        metadata: JSON.stringify(input.metadata ?? {}),
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { journalId: inserted.id, replayed: false };
    const existing = await trx
      .selectFrom('journals')
      .select(['id', 'request_hash'])
      .where('idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirstOrThrow();
    if (existing.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
    return { journalId: existing.id, replayed: true };
  }

  /**
   * Applies the postings: customer accounts locked in id order and updated in
   * one statement that refuses an overdraft; house accounts left unlocked,
   * their postings appended to house_balance_deltas; then the entries.
   */
  async function applyPostings(
    trx: Transaction<DB>,
    journalId: string,
    postings: readonly Posting[],
    heldReleases: ReadonlyMap<string, bigint> = new Map(),
  ): Promise<void> {
    const accounts = await resolveAccounts(
      trx,
      postings.map((posting) => posting.account),
      houseCache,
    );
    const changes = new Map<string, AccountChange>();
    for (const posting of postings) {
      const account = accounts.get(accountKey(posting.account));
      if (!account) throw new LedgerProgrammingError('unresolved account');
      const change = changes.get(account.id) ?? { account, delta: 0n, releaseHeld: 0n };
      change.delta += posting.amount;
      changes.set(account.id, change);
    }
    for (const [accountId, release] of heldReleases) {
      const change = changes.get(accountId);
      if (!change)
        throw new LedgerProgrammingError('a hold released on an account the journal does not touch');
      change.releaseHeld += release;
    }

    const customer = [...changes.values()].filter((change) => !change.account.isHouse);
    const balanceAfter = new Map<string, bigint>();
    if (customer.length > 0) {
      const values = sql.join(
        customer.map(
          (change) =>
            sql`(${change.account.id}::bigint, ${change.delta.toString()}::numeric, ${change.releaseHeld.toString()}::numeric)`,
        ),
      );
      // Row locks in id order, so two journals never wait on each other in a circle.
      if (customer.length > 1) {
        const ids = customer.map((change) => change.account.id);
        await trx
          .selectFrom('accounts')
          .select('id')
          .where('id', 'in', ids)
          .orderBy('id')
          .forUpdate()
          .execute();
      }
      // The WHERE refuses an overdraft without raising, so we can say why.
      const updated = await sql<{ id: string; posted: string }>`
        UPDATE accounts AS a
        SET posted = a.posted + c.delta, held = a.held - c.release
        FROM (VALUES ${values}) AS c (id, delta, release)
        WHERE a.id = c.id
          AND a.held - c.release >= 0
          AND (NOT a.non_negative OR a.posted + c.delta - (a.held - c.release) >= 0)
        RETURNING a.id, a.posted`.execute(trx);
      if (updated.rows.length !== customer.length) throw new AppError('INSUFFICIENT_FUNDS');
      for (const row of updated.rows) balanceAfter.set(row.id, BigInt(row.posted));
    }

    const house = [...changes.values()].filter((change) => change.account.isHouse && change.delta !== 0n);
    if (house.length > 0) {
      await trx
        .insertInto('house_balance_deltas')
        .values(house.map((change) => ({ account_id: change.account.id, amount: change.delta.toString() })))
        .execute();
    }

    // balance_after per entry: walk back from the account's final balance.
    const running = new Map<string, bigint>();
    for (const [id, after] of balanceAfter) running.set(id, after - (changes.get(id)?.delta ?? 0n));
    await trx
      .insertInto('entries')
      .values(
        postings.map((posting) => {
          const account = accounts.get(accountKey(posting.account)) as ResolvedAccount;
          let after: string | null = null;
          const before = running.get(account.id);
          if (before !== undefined) {
            running.set(account.id, before + posting.amount);
            after = (before + posting.amount).toString();
          }
          return {
            journal_id: journalId,
            account_id: account.id,
            asset: account.asset,
            amount: posting.amount.toString(),
            balance_after: after,
          };
        }),
      )
      .execute();
  }

  async function lockPendingHold(trx: Transaction<DB>, holdId: string) {
    const hold = await trx
      .selectFrom('holds')
      .select(['id', 'account_id', 'amount', 'remaining', 'status'])
      .where('id', '=', holdId)
      .forUpdate()
      .executeTakeFirst();
    if (!hold) throw new AppError('NOT_FOUND', 'Hold not found.');
    return { ...hold, amount: BigInt(hold.amount), remaining: BigInt(hold.remaining) };
  }

  return {
    /** Posts a balanced multi-leg journal once per idempotency key. */
    async postJournal(db: Executor, input: JournalInput): Promise<JournalResult> {
      assertBalanced(input.postings);
      const requestHash = hashRequest({ ...input, idempotencyKey: undefined });
      return withTransaction(db, async (trx) => {
        const claim = await claimKey(trx, input, requestHash, null);
        if (!claim.replayed) await applyPostings(trx, claim.journalId, input.postings);
        return claim;
      });
    },

    /** Sets funds aside (a pending withdrawal, an open limit order): they stay posted but cannot be spent. */
    async placeHold(db: Executor, input: HoldInput): Promise<HoldResult> {
      if (input.amount <= 0n) throw new LedgerProgrammingError('a hold must be positive');
      const requestHash = hashRequest({ ...input, idempotencyKey: undefined });
      return withTransaction(db, async (trx) => {
        const [account] = (
          await resolveAccounts(trx, [input.account], houseCache)
        ).values() as IterableIterator<ResolvedAccount>;
        if (!account) throw new LedgerProgrammingError('unresolved account');
        const inserted = await trx
          .insertInto('holds')
          .values({
            idempotency_key: input.idempotencyKey,
            request_hash: requestHash,
            account_id: account.id,
            amount: input.amount.toString(),
            remaining: input.amount.toString(),
            status: 'pending',
            reason: input.reason,
            reference: input.reference ?? null,
          })
          .onConflict((oc) => oc.column('idempotency_key').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) {
          const existing = await trx
            .selectFrom('holds')
            .select(['id', 'request_hash'])
            .where('idempotency_key', '=', input.idempotencyKey)
            .executeTakeFirstOrThrow();
          if (existing.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
          return { holdId: existing.id, replayed: true };
        }
        const updated = await sql`
          UPDATE accounts SET held = held + ${input.amount.toString()}::numeric
          WHERE id = ${account.id} AND posted - held - ${input.amount.toString()}::numeric >= 0`.execute(trx);
        if (updated.numAffectedRows !== 1n) throw new AppError('INSUFFICIENT_FUNDS');
        return { holdId: inserted.id, replayed: false };
      });
    },

    /**
     * Spends `amount` of a pending hold through a journal (a withdrawal paid,
     * a limit order filled). The hold's account must be debited exactly
     * `amount`; with `releaseRest` the remainder is freed and the hold closes.
     */
    async postHold(db: Executor, input: PostHoldInput): Promise<JournalResult> {
      assertBalanced(input.postings);
      if (input.amount <= 0n) throw new LedgerProgrammingError('a hold posting must be positive');
      const requestHash = hashRequest({ ...input, idempotencyKey: undefined });
      return withTransaction(db, async (trx) => {
        const claim = await claimKey(trx, input, requestHash, input.holdId);
        if (claim.replayed) return claim;
        const hold = await lockPendingHold(trx, input.holdId);
        if (hold.status !== 'pending') throw new AppError('CONFLICT', 'This hold is already resolved.');
        if (input.amount > hold.remaining) throw new AppError('INSUFFICIENT_FUNDS');
        const accounts = await resolveAccounts(
          trx,
          input.postings.map((posting) => posting.account),
          houseCache,
        );
        const debited = input.postings
          .filter((posting) => accounts.get(accountKey(posting.account))?.id === hold.account_id)
          .reduce((sum, posting) => sum + posting.amount, 0n);
        if (debited !== -input.amount) {
          throw new LedgerProgrammingError(`hold account debited ${-debited}, expected ${input.amount}`);
        }
        const remaining = hold.remaining - input.amount;
        const release = input.releaseRest ? remaining : 0n;
        const closes = remaining - release === 0n;
        await trx
          .updateTable('holds')
          .set({
            remaining: (remaining - release).toString(),
            ...(closes ? { status: 'posted' as const, resolved_at: new Date() } : {}),
          })
          .where('id', '=', hold.id)
          .execute();
        await applyPostings(
          trx,
          claim.journalId,
          input.postings,
          new Map([[hold.account_id, input.amount + release]]),
        );
        return claim;
      });
    },

    /**
     * Frees what is left of a hold (a withdrawal rejected or cancelled, an
     * order cancelled or expired). Resolves once: releasing it again with the
     * same outcome is a no-op, with another outcome a conflict.
     */
    async releaseHold(
      db: Executor,
      input: { holdId: string; outcome: 'voided' | 'expired' },
    ): Promise<ReleaseResult> {
      return withTransaction(db, async (trx) => {
        const hold = await lockPendingHold(trx, input.holdId);
        if (hold.status !== 'pending') {
          if (hold.status === input.outcome) return { status: hold.status, released: 0n, replayed: true };
          throw new AppError('CONFLICT', 'This hold is already resolved.');
        }
        // A hold that was partly spent before it closed counts as posted.
        const outcome: HoldStatus = hold.remaining === hold.amount ? input.outcome : 'posted';
        await trx
          .updateTable('holds')
          .set({ remaining: '0', status: outcome, resolved_at: new Date() })
          .where('id', '=', hold.id)
          .execute();
        const updated = await sql`
          UPDATE accounts SET held = held - ${hold.remaining.toString()}::numeric
          WHERE id = ${hold.account_id}`.execute(trx);
        if (updated.numAffectedRows !== 1n) throw new LedgerProgrammingError('hold account missing');
        return { status: outcome, released: hold.remaining, replayed: false };
      });
    },

    getBalance(db: Executor, ref: AccountRef): Promise<Balance> {
      return getBalance(db, ref);
    },
  };
}

/**
 * Folds the house postings appended since the last roll-up into
 * accounts.posted, atomically: the rows deleted are exactly the rows added.
 */
export async function rollUpHouseBalances(db: Kysely<DB>): Promise<void> {
  await sql`
    WITH moved AS (DELETE FROM house_balance_deltas RETURNING account_id, amount),
         totals AS (SELECT account_id, sum(amount) AS amount FROM moved GROUP BY account_id)
    UPDATE accounts SET posted = accounts.posted + totals.amount
    FROM totals WHERE accounts.id = totals.account_id`.execute(db);
}
