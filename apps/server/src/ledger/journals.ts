import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { AppError } from '@florin/contracts';
import type { AssetCode } from '@florin/domain';
import { isUserAccount, type AccountRef, type Executor } from './accounts.js';
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

/** A mistake in the calling code (an unbalanced journal), never a customer's doing. */
export class LedgerProgrammingError extends Error {}

/** JSON with bigints as decimal strings: amounts in metadata and request hashes. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

/**
 * The hash an idempotency key is stored with, for the ledger's journals and holds and for the domain
 * rows of http/idempotency.ts: a copy of the request hashes the same, any other request differently.
 */
export function hashRequest(value: unknown): string {
  return createHash('sha256').update(toJson(value)).digest('hex');
}

/** What a key stored must come from this request: the same key with another request is a 409 (LEDGER.md). */
export function assertSameRequest(stored: { request_hash: string | null }, requestHash: string): void {
  if (stored.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
}

export function assertBalanced(postings: readonly Posting[]): void {
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
 * Posts a journal through ledger_post_journal (migration 0005): one
 * statement claims the key, locks and updates the customer accounts in id
 * order, appends the house deltas and writes the entries.
 */
export async function callPostJournal(
  db: Executor,
  input: Omit<JournalInput, 'postings'> & { postings: readonly Posting[] },
  requestHash: string,
  hold?: { id: string; accountId: string; release: bigint },
): Promise<JournalResult> {
  try {
    const result = await postJournalSql(input, requestHash, hold).execute(db);
    const row = result.rows[0];
    if (!row) throw new LedgerProgrammingError('ledger_post_journal returned nothing');
    return { journalId: row.journal_id, replayed: row.replayed };
  } catch (error) {
    throw ledgerErrorOf(error);
  }
}

/** The call of ledger_post_journal, as a statement or the body of a caller's common table expression. */
function postJournalSql(
  input: Omit<JournalInput, 'postings'> & { postings: readonly Posting[] },
  requestHash: string,
  hold?: { id: string; accountId: string; release: bigint },
) {
  const refs = input.postings.map((posting) => posting.account);
  const owned = (ref: AccountRef) => (isUserAccount(ref) ? ref : undefined);
  return sql<{ journal_id: string; replayed: boolean }>`
    SELECT journal_id, replayed FROM ledger_post_journal(
      ${input.idempotencyKey}, ${requestHash}, ${input.kind}, ${input.reference ?? null},
      ${hold?.id ?? null}::bigint, ${toJson(input.metadata ?? {})}::jsonb,
      ${refs.map((ref) => ref.asset)}::text[],
      ${refs.map((ref) => ref.kind)}::text[],
      ${refs.map((ref) => owned(ref)?.ownerUserId ?? null)}::integer[],
      ${refs.map((ref) => owned(ref)?.reference ?? '')}::text[],
      ${input.postings.map((posting) => posting.amount.toString())}::numeric[],
      ${hold?.accountId ?? null}::bigint, ${hold ? hold.release.toString() : null}::numeric
    )`;
}

/** ledger_post_journal's refusals as the customer's errors; anything else as it was. */
function ledgerErrorOf(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FL001') return new AppError('INSUFFICIENT_FUNDS');
  if (code === 'FL002') return new AppError('IDEMPOTENCY_CONFLICT');
  return error;
}

/**
 * Posts a journal inside the caller's own statement (issue 43: an instant trade's journal and trades row are
 * one round trip). `write` gets the call for a common table expression (its rows: journal_id, replayed) and
 * runs the statement; the ledger's refusals come out as postJournal's do.
 */
export async function postJournalWithin<T>(
  input: JournalInput,
  write: (journal: RawBuilder<{ journal_id: string; replayed: boolean }>) => Promise<T>,
): Promise<T> {
  assertBalanced(input.postings);
  try {
    return await write(postJournalSql(input, hashRequest({ ...input, idempotencyKey: undefined })));
  } catch (error) {
    throw ledgerErrorOf(error);
  }
}

/** Posts a balanced multi-leg journal once per idempotency key. */
export async function postJournal(db: Executor, input: JournalInput): Promise<JournalResult> {
  assertBalanced(input.postings);
  // One statement: atomic on its own, or part of the caller's transaction.
  return callPostJournal(db, input, hashRequest({ ...input, idempotencyKey: undefined }));
}
