import { sql } from 'kysely';
import { AppError } from '@florin/contracts';
import { withTransaction } from '../db/index.js';
import { accountKey, resolveAccounts, type Executor, type ResolvedAccount } from './accounts.js';
import type { PostHoldInput } from './holds.js';
import {
  assertBalanced,
  assertSameRequest,
  hashRequest,
  LedgerProgrammingError,
  toJson,
  type JournalResult,
  type Posting,
} from './journals.js';

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
export async function postHolds(
  db: Executor,
  inputs: readonly PostHoldInput[],
  houseCache: Map<string, ResolvedAccount>,
): Promise<JournalResult[]> {
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
        assertSameRequest(prior, hashes[index] ?? '');
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
                             ${houseDeltas.map(([, amount]) => amount.toString())}::numeric[])`.execute(trx);

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
}
