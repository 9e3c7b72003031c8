import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError } from '@florin/contracts';
import type { AssetCode } from '@florin/domain';
import type { DB, HoldStatus } from '../db/schema.js';
import {
  accountKey,
  getBalance,
  isUserAccount,
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

/** JSON with bigints as decimal strings: amounts in metadata and request hashes. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

function hashRequest(value: unknown): string {
  return createHash('sha256').update(toJson(value)).digest('hex');
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

  /**
   * Posts a journal through ledger_post_journal (migration 0005): one
   * statement claims the key, locks and updates the customer accounts in id
   * order, appends the house deltas and writes the entries.
   */
  async function callPostJournal(
    db: Executor,
    input: Omit<JournalInput, 'postings'> & { postings: readonly Posting[] },
    requestHash: string,
    hold?: { id: string; accountId: string; release: bigint },
  ): Promise<JournalResult> {
    const refs = input.postings.map((posting) => posting.account);
    const owned = (ref: AccountRef) => (isUserAccount(ref) ? ref : undefined);
    try {
      const result = await sql<{ journal_id: string; replayed: boolean }>`
        SELECT journal_id, replayed FROM ledger_post_journal(
          ${input.idempotencyKey}, ${requestHash}, ${input.kind}, ${input.reference ?? null},
          ${hold?.id ?? null}::bigint, ${toJson(input.metadata ?? {})}::jsonb,
          ${refs.map((ref) => ref.asset)}::text[],
          ${refs.map((ref) => ref.kind)}::text[],
          ${refs.map((ref) => owned(ref)?.ownerUserId ?? null)}::integer[],
          ${refs.map((ref) => owned(ref)?.reference ?? '')}::text[],
          ${input.postings.map((posting) => posting.amount.toString())}::numeric[],
          ${hold?.accountId ?? null}::bigint, ${hold ? hold.release.toString() : null}::numeric
        )`.execute(db);
      const row = result.rows[0];
      if (!row) throw new LedgerProgrammingError('ledger_post_journal returned nothing');
      return { journalId: row.journal_id, replayed: row.replayed };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FL001') throw new AppError('INSUFFICIENT_FUNDS');
      if (code === 'FL002') throw new AppError('IDEMPOTENCY_CONFLICT');
      throw error;
    }
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
      // One statement: atomic on its own, or part of the caller's transaction.
      return callPostJournal(db, input, hashRequest({ ...input, idempotencyKey: undefined }));
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
        // The hold's row lock serialises everything done to it; only then is
        // "has this key been used?" a question with a lasting answer.
        const hold = await lockPendingHold(trx, input.holdId);
        const earlier = await trx
          .selectFrom('journals')
          .select(['id', 'request_hash'])
          .where('idempotency_key', '=', input.idempotencyKey)
          .executeTakeFirst();
        if (earlier) {
          if (earlier.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
          return { journalId: earlier.id, replayed: true };
        }
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
        return callPostJournal(trx, input, requestHash, {
          id: hold.id,
          accountId: hold.account_id,
          release: input.amount + release,
        });
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
