import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError } from '@florin/contracts';
import { MAX_MINOR_UNITS, type AssetCode } from '@florin/domain';
import { withTransaction } from '../db/index.js';
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
import type { HoldReason } from './hold-reasons.js';
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

/** A mistake in the calling code (an unbalanced journal), never a customer's doing. */
export class LedgerProgrammingError extends Error {}

/** JSON with bigints as decimal strings: amounts in metadata and request hashes. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

function hashRequest(value: unknown): string {
  return createHash('sha256').update(toJson(value)).digest('hex');
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
     * postHold for many holds at once (a tick that fills thousands of limit
     * orders): the same rules, all or nothing, in a fixed number of
     * statements whatever the number of holds — lock the holds, look for
     * replays, resolve the accounts, then one statement each for the holds,
     * the journals, the customer accounts (locked in id order first), the
     * house deltas and the entries. A key used before is a replay, as in
     * postHold. postHold stays the one-journal path: it is one round trip
     * through ledger_post_journal where this is several.
     */
    async postHolds(db: Executor, inputs: readonly PostHoldInput[]): Promise<JournalResult[]> {
      if (inputs.length === 0) return [];
      for (const input of inputs) {
        assertBalanced(input.postings);
        if (input.amount <= 0n) throw new LedgerProgrammingError('a hold posting must be positive');
      }
      if (new Set(inputs.map((input) => input.holdId)).size !== inputs.length)
        throw new LedgerProgrammingError('one hold twice in a batch');
      const hashes = inputs.map((input) => hashRequest({ ...input, idempotencyKey: undefined }));
      return withTransaction(db, async (trx) => {
        const holds = new Map(
          (
            await trx
              .selectFrom('holds')
              .select(['id', 'account_id', 'remaining', 'status'])
              .where('id', '=', sql<string>`any(${inputs.map((input) => input.holdId)}::bigint[])`)
              .orderBy('id')
              .forUpdate()
              .execute()
          ).map((hold) => [hold.id, { ...hold, remaining: BigInt(hold.remaining) }]),
        );
        const earlier = new Map(
          (
            await trx
              .selectFrom('journals')
              .select(['id', 'idempotency_key', 'request_hash'])
              .where(
                'idempotency_key',
                '=',
                sql<string>`any(${inputs.map((input) => input.idempotencyKey)}::text[])`,
              )
              .execute()
          ).map((row) => [row.idempotency_key, row]),
        );
        const results: JournalResult[] = [];
        const fresh: { index: number; input: PostHoldInput; accountId: string; remaining: bigint }[] = [];
        inputs.forEach((input, index) => {
          const prior = earlier.get(input.idempotencyKey);
          if (prior) {
            if (prior.request_hash !== hashes[index]) throw new AppError('IDEMPOTENCY_CONFLICT');
            results[index] = { journalId: prior.id, replayed: true };
            return;
          }
          const hold = holds.get(input.holdId);
          if (!hold) throw new AppError('NOT_FOUND', 'Hold not found.');
          if (hold.status !== 'pending') throw new AppError('CONFLICT', 'This hold is already resolved.');
          if (input.amount > hold.remaining) throw new AppError('INSUFFICIENT_FUNDS');
          fresh.push({ index, input, accountId: hold.account_id, remaining: hold.remaining });
        });
        if (fresh.length === 0) return results;

        const accounts = await resolveAccounts(
          trx,
          fresh.flatMap(({ input }) => input.postings.map((posting) => posting.account)),
          houseCache,
        );
        const idOf = (posting: Posting) => {
          const account = accounts.get(accountKey(posting.account));
          if (!account) throw new LedgerProgrammingError('unresolved account');
          return account;
        };
        // Per customer account: the net change and what leaves `held`; per house account: the delta.
        const customer = new Map<string, { delta: bigint; release: bigint }>();
        const house = new Map<string, bigint>();
        const holdUpdates: { id: string; remaining: bigint }[] = [];
        for (const { input, accountId, remaining } of fresh) {
          const debited = input.postings
            .filter((posting) => idOf(posting).id === accountId)
            .reduce((sum, posting) => sum + posting.amount, 0n);
          if (debited !== -input.amount)
            throw new LedgerProgrammingError(`hold account debited ${-debited}, expected ${input.amount}`);
          const left = remaining - input.amount;
          const release = input.releaseRest ? left : 0n;
          holdUpdates.push({ id: input.holdId, remaining: left - release });
          for (const posting of input.postings) {
            const account = idOf(posting);
            if (account.isHouse) house.set(account.id, (house.get(account.id) ?? 0n) + posting.amount);
            else {
              const sums = customer.get(account.id) ?? { delta: 0n, release: 0n };
              customer.set(account.id, { ...sums, delta: sums.delta + posting.amount });
            }
          }
          const sums = customer.get(accountId) ?? { delta: 0n, release: 0n };
          customer.set(accountId, { ...sums, release: sums.release + input.amount + release });
        }

        await sql`
          UPDATE holds h
          SET remaining = v.remaining,
              status = CASE WHEN v.remaining = 0 THEN 'posted' ELSE h.status END,
              resolved_at = CASE WHEN v.remaining = 0 THEN now() ELSE h.resolved_at END
          FROM unnest(${holdUpdates.map((hold) => hold.id)}::bigint[],
                      ${holdUpdates.map((hold) => hold.remaining.toString())}::numeric[]) AS v (id, remaining)
          WHERE h.id = v.id`.execute(trx);

        const journals = await sql<{ id: string; idempotency_key: string }>`
          INSERT INTO journals (idempotency_key, request_hash, kind, reference, hold_id, metadata)
          SELECT * FROM unnest(
            ${fresh.map(({ input }) => input.idempotencyKey)}::text[],
            ${fresh.map(({ index }) => hashes[index] ?? '')}::text[],
            ${fresh.map(({ input }) => input.kind)}::text[],
            ${fresh.map(({ input }) => input.reference ?? null)}::text[],
            ${fresh.map(({ input }) => input.holdId)}::bigint[],
            ${fresh.map(({ input }) => toJson(input.metadata ?? {}))}::jsonb[])
          RETURNING id, idempotency_key`.execute(trx);
        const journalOf = new Map(journals.rows.map((row) => [row.idempotency_key, row.id]));

        // Customer accounts locked in id order (LEDGER.md), then changed in one statement.
        const customerIds = [...customer.keys()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
        await sql`SELECT id FROM accounts WHERE id = any(${customerIds}::bigint[]) ORDER BY id FOR UPDATE`.execute(
          trx,
        );
        const updated = await sql<{ id: string; posted: string }>`
          UPDATE accounts a SET posted = a.posted + v.delta, held = a.held - v.release
          FROM unnest(${customerIds}::bigint[],
                      ${customerIds.map((id) => customer.get(id)?.delta.toString() ?? '0')}::numeric[],
                      ${customerIds.map((id) => customer.get(id)?.release.toString() ?? '0')}::numeric[])
            AS v (id, delta, release)
          WHERE a.id = v.id
            AND a.held - v.release >= 0
            AND (NOT a.non_negative OR a.posted + v.delta - (a.held - v.release) >= 0)
          RETURNING a.id, a.posted`.execute(trx);
        if (updated.rows.length !== customerIds.length) throw new AppError('INSUFFICIENT_FUNDS');

        const houseDeltas = [...house].filter(([, amount]) => amount !== 0n);
        if (houseDeltas.length > 0)
          await sql`
            INSERT INTO house_balance_deltas (account_id, amount)
            SELECT * FROM unnest(${houseDeltas.map(([id]) => id)}::bigint[],
                                 ${houseDeltas.map(([, amount]) => amount.toString())}::numeric[])`.execute(
            trx,
          );

        // Each customer entry carries the balance after it: walk back from the balance just written.
        const entries = fresh.flatMap(({ input }) =>
          input.postings.map((posting) => ({
            journalId: journalOf.get(input.idempotencyKey) ?? '',
            account: idOf(posting),
            amount: posting.amount,
            balanceAfter: null as bigint | null,
          })),
        );
        const balance = new Map(updated.rows.map((row) => [row.id, BigInt(row.posted)]));
        for (const entry of [...entries].reverse()) {
          const after = balance.get(entry.account.id);
          if (after === undefined) continue;
          entry.balanceAfter = after;
          balance.set(entry.account.id, after - entry.amount);
        }
        await sql`
          INSERT INTO entries (journal_id, account_id, asset, amount, balance_after)
          SELECT * FROM unnest(${entries.map((entry) => entry.journalId)}::bigint[],
                               ${entries.map((entry) => entry.account.id)}::bigint[],
                               ${entries.map((entry) => entry.account.asset)}::text[],
                               ${entries.map((entry) => entry.amount.toString())}::numeric[],
                               ${entries.map((entry) => entry.balanceAfter?.toString() ?? null)}::numeric[])`.execute(
          trx,
        );

        for (const { index, input } of fresh) {
          const journalId = journalOf.get(input.idempotencyKey);
          if (!journalId) throw new LedgerProgrammingError('journal not written');
          results[index] = { journalId, replayed: false };
        }
        return results;
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
