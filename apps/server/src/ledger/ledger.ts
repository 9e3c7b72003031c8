import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import {
  balanceFact,
  getBalance,
  type AccountRef,
  type Balance,
  type Executor,
  type ResolvedAccount,
} from './accounts.js';
import { postHolds } from './hold-batch.js';
import {
  placeHold,
  postHold,
  releaseHold,
  type HoldInput,
  type HoldResult,
  type PostHoldInput,
  type ReleaseResult,
} from './holds.js';
import { postJournal, postJournalWithin, type JournalInput, type JournalResult } from './journals.js';

export type { HoldInput, HoldResult, PostHoldInput, ReleaseResult } from './holds.js';
export { LedgerProgrammingError, type JournalInput, type JournalResult, type Posting } from './journals.js';

/**
 * The only code that changes a balance. Each method runs inside the caller's
 * transaction when given one (so the journal commits with its domain row), or
 * opens its own.
 */
export type Ledger = ReturnType<typeof createLedger>;

export function createLedger() {
  const houseCache = new Map<string, ResolvedAccount>();

  return {
    /** Posts a balanced multi-leg journal once per idempotency key. */
    postJournal(db: Executor, input: JournalInput): Promise<JournalResult> {
      return postJournal(db, input);
    },

    /** A journal posted by the caller's own statement (see journals.ts). */
    postJournalWithin,

    /** Sets funds aside (a pending withdrawal, an open limit order): they stay posted but cannot be spent. */
    placeHold(db: Executor, input: HoldInput): Promise<HoldResult> {
      return placeHold(db, input, houseCache);
    },

    /**
     * Spends `amount` of a pending hold through a journal (a withdrawal paid,
     * a limit order filled). The hold's account must be debited exactly
     * `amount`; with `releaseRest` the remainder is freed and the hold closes.
     */
    postHold(db: Executor, input: PostHoldInput): Promise<JournalResult> {
      return postHold(db, input, houseCache);
    },

    /** postHold for many holds at once, all or nothing (see hold-batch.ts). */
    postHolds(db: Executor, inputs: readonly PostHoldInput[]): Promise<JournalResult[]> {
      return postHolds(db, inputs, houseCache);
    },

    /** Frees what is left of a hold; resolves once (see holds.ts). */
    releaseHold(
      db: Executor,
      input: { holdId: string; outcome: 'voided' | 'expired' },
    ): Promise<ReleaseResult> {
      return releaseHold(db, input);
    },

    getBalance(db: Executor, ref: AccountRef): Promise<Balance> {
      return getBalance(db, ref);
    },

    /** getBalance of a customer's account as a fact of another module's statement. */
    balanceFact,
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
