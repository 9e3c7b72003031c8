import { sql, type Transaction } from 'kysely';
import { AppError } from '@florin/contracts';
import { MAX_MINOR_UNITS } from '@florin/domain';
import { withTransaction } from '../db/index.js';
import type { DB, HoldStatus } from '../db/schema.js';
import {
  accountKey,
  resolveAccounts,
  type Executor,
  type ResolvedAccount,
  type UserAccountRef,
} from './accounts.js';
import type { HoldReason } from './hold-reasons.js';
import {
  assertBalanced,
  assertSameRequest,
  callPostJournal,
  hashRequest,
  LedgerProgrammingError,
  type JournalInput,
  type JournalResult,
  type Posting,
} from './journals.js';

export type HoldInput = {
  idempotencyKey: string;
  account: UserAccountRef;
  amount: bigint;
  reason: HoldReason;
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

/** Sets funds aside (a pending withdrawal, an open limit order): they stay posted but cannot be spent. */
export async function placeHold(
  db: Executor,
  input: HoldInput,
  houseCache: Map<string, ResolvedAccount>,
): Promise<HoldResult> {
  if (input.amount <= 0n) throw new LedgerProgrammingError('a hold must be positive');
  // More than any NUMERIC(40,0) balance can be (a price × quantity the contracts each allow): no balance covers it.
  if (input.amount > MAX_MINOR_UNITS) throw new AppError('INSUFFICIENT_FUNDS');
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
      assertSameRequest(existing, requestHash);
      return { holdId: existing.id, replayed: true };
    }
    const updated = await sql`
      UPDATE accounts SET held = held + ${input.amount.toString()}::numeric
      WHERE id = ${account.id} AND posted - held - ${input.amount.toString()}::numeric >= 0`.execute(trx);
    if (updated.numAffectedRows !== 1n) throw new AppError('INSUFFICIENT_FUNDS');
    return { holdId: inserted.id, replayed: false };
  });
}

/**
 * Spends `amount` of a pending hold through a journal (a withdrawal paid,
 * a limit order filled). The hold's account must be debited exactly
 * `amount`; with `releaseRest` the remainder is freed and the hold closes.
 */
export async function postHold(
  db: Executor,
  input: PostHoldInput,
  houseCache: Map<string, ResolvedAccount>,
): Promise<JournalResult> {
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
      assertSameRequest(earlier, requestHash);
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
}

/**
 * Frees what is left of a hold (a withdrawal rejected or cancelled, an
 * order cancelled or expired). Resolves once: releasing it again with the
 * same outcome is a no-op, with another outcome a conflict.
 */
export async function releaseHold(
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
}
