import { createHash } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { AppError } from '@florin/contracts';
import type { AssetCode } from '@florin/domain';
import {
  accountKey,
  isUserAccount,
  resolveAccounts,
  type Executor,
  type ResolvedAccount,
} from '../../apps/server/src/ledger/accounts.js';
import type { JournalInput, JournalResult, Posting } from '../../apps/server/src/ledger/index.js';

/**
 * A PROTOTYPE of postJournal for the benchmark, not used by the app: the whole
 * journal in one set-based SQL statement (one round trip, no BEGIN/COMMIT of
 * its own), run as is (mode 'statement', planned on every call) or inside a
 * PL/pgSQL function (mode 'function', planned once per connection). It was
 * written against the first, 7–8-statement ledger; the app has since moved to
 * the PL/pgSQL function ledger_post_journal (migration 0005). What differs from
 * that function: house account ids come from the Node-side cache instead of a
 * look-up per posting, customer accounts are found in one join and locked and
 * updated by one statement (SELECT … ORDER BY id FOR UPDATE, then one UPDATE),
 * and the overdraft is refused by the accounts_no_overdraft CHECK. The rules:
 * - the journal row is claimed first (ON CONFLICT on the idempotency key, which
 *   waits for a concurrent insert of the same key), and nothing else happens
 *   when the key was already used;
 * - customer accounts are locked in id order, so two journals never wait on
 *   each other in a circle;
 * - house accounts are never locked: their postings go to house_balance_deltas;
 * - an overdraft fails the whole statement, so nothing of the journal is left.
 * Like ledger_post_journal, an overdraft inside a caller's transaction aborts
 * that transaction; unlike it, a customer account seen for the first time costs
 * two more round trips. Does not do postHold's hold release.
 */
function hashRequest(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? item.toString() : item,
  );
  return createHash('sha256').update(text).digest('hex');
}

function assertBalanced(postings: readonly Posting[]): void {
  if (postings.length < 2) throw new Error('a journal needs at least two postings');
  const sums = new Map<AssetCode, bigint>();
  for (const posting of postings) {
    if (posting.amount === 0n) throw new Error('a posting of zero');
    sums.set(posting.account.asset, (sums.get(posting.account.asset) ?? 0n) + posting.amount);
  }
  for (const [asset, sum] of sums) {
    if (sum !== 0n) throw new Error(`journal does not balance in ${asset}: ${sum}`);
  }
}

/**
 * The whole journal. $1–$7: the postings as parallel arrays (order, house
 * account id or null for a customer's, asset, kind, owner, reference, amount);
 * $8–$12: idempotency key, request hash, kind, reference, metadata.
 */
export const JOURNAL_STATEMENT = `
  WITH p AS (
    SELECT * FROM unnest($1::int[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::numeric[])
      AS p (ord, house_id, asset, kind, owner, reference, amount)
  ),
  resolved AS (
    SELECT p.ord, coalesce(p.house_id, a.id) AS account_id, p.asset, p.amount, p.house_id IS NULL AS customer
    FROM p LEFT JOIN accounts a
      ON p.house_id IS NULL AND a.asset = p.asset AND a.kind = p.kind
      AND a.owner_user_id = p.owner AND a.reference = p.reference
  ),
  j AS (
    INSERT INTO journals (idempotency_key, request_hash, kind, reference, hold_id, metadata)
    SELECT $8::text, $9::text, $10::text, $11::text, NULL, $12::jsonb
    WHERE NOT EXISTS (SELECT 1 FROM resolved WHERE account_id IS NULL)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id
  ),
  changes AS (
    SELECT account_id AS id, sum(amount) AS delta FROM resolved WHERE customer GROUP BY account_id
  ),
  locked AS MATERIALIZED (
    SELECT a.id FROM accounts a
    WHERE a.id IN (SELECT id FROM changes) AND EXISTS (SELECT 1 FROM j)
    ORDER BY a.id
    FOR UPDATE
  ),
  upd AS (
    UPDATE accounts a SET posted = a.posted + c.delta
    FROM changes c JOIN locked l ON l.id = c.id
    WHERE a.id = c.id
    RETURNING a.id, a.posted
  ),
  deltas AS (
    INSERT INTO house_balance_deltas (account_id, amount)
    SELECT r.account_id, sum(r.amount) FROM resolved r, j
    WHERE NOT r.customer GROUP BY r.account_id HAVING sum(r.amount) <> 0
  ),
  ent AS (
    INSERT INTO entries (journal_id, account_id, asset, amount, balance_after)
    SELECT j.id, r.account_id, r.asset, r.amount,
           u.posted - coalesce(sum(r.amount) OVER (
             PARTITION BY r.account_id ORDER BY r.ord ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0)
    FROM resolved r CROSS JOIN j LEFT JOIN upd u ON u.id = r.account_id
    ORDER BY r.ord
  )
  SELECT (SELECT id FROM j) AS journal_id, (SELECT count(*)::int FROM resolved WHERE account_id IS NULL) AS missing`;

type Outcome = { journal_id: string | null; missing: number };

function isOverdraft(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === '23514' &&
    (error as { constraint?: unknown }).constraint === 'accounts_no_overdraft'
  );
}

export function createPrototypeLedger(mode: 'statement' | 'function' = 'statement') {
  const houseCache = new Map<string, ResolvedAccount>();

  async function houseIds(db: Executor, postings: readonly Posting[]): Promise<(string | null)[]> {
    const missing = postings.filter(
      (posting) => !isUserAccount(posting.account) && !houseCache.has(accountKey(posting.account)),
    );
    if (missing.length > 0) {
      await resolveAccounts(
        db,
        missing.map((posting) => posting.account),
        houseCache,
      );
    }
    return postings.map((posting) =>
      isUserAccount(posting.account) ? null : (houseCache.get(accountKey(posting.account))?.id ?? null),
    );
  }

  let created: Promise<void> | undefined;
  /** mode 'function': the statement lives in a PL/pgSQL function, so each connection plans it once. */
  const ensureFunction = (db: Executor) =>
    (created ??= sql
      .raw(
        `CREATE OR REPLACE FUNCTION bench_post_journal(int[], bigint[], text[], text[], bigint[], text[], numeric[],
           text, text, text, text, jsonb)
         RETURNS TABLE (out_journal_id bigint, out_missing int) LANGUAGE plpgsql AS $fn$
         BEGIN
           RETURN QUERY ${JOURNAL_STATEMENT};
         END
         $fn$`,
      )
      .execute(db)
      .then(() => undefined));

  async function postOnce(db: Executor, input: JournalInput, requestHash: string): Promise<Outcome> {
    const { postings } = input;
    const ids = await houseIds(db, postings);
    const users = postings.map((posting) => (isUserAccount(posting.account) ? posting.account : null));
    const parameters = [
      postings.map((_, index) => index),
      ids,
      postings.map((posting) => posting.account.asset),
      users.map((user) => user?.kind ?? null),
      users.map((user) => user?.ownerUserId ?? null),
      users.map((user) => user?.reference ?? ''),
      postings.map((posting) => posting.amount.toString()),
      input.idempotencyKey,
      requestHash,
      input.kind,
      input.reference ?? null,
      JSON.stringify(input.metadata ?? {}),
    ];
    let text = JOURNAL_STATEMENT;
    if (mode === 'function') {
      await ensureFunction(db);
      text = `SELECT out_journal_id AS journal_id, out_missing AS missing FROM bench_post_journal(
        $1::int[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::numeric[],
        $8::text, $9::text, $10::text, $11::text, $12::jsonb)`;
    }
    const result = await db.executeQuery<Outcome>(CompiledQuery.raw(text, parameters));
    const row = result.rows[0];
    if (!row) throw new Error('the journal statement returned nothing');
    return row;
  }

  return {
    async postJournal(db: Executor, input: JournalInput): Promise<JournalResult> {
      assertBalanced(input.postings);
      const requestHash = hashRequest({ ...input, idempotencyKey: undefined });
      try {
        let outcome = await postOnce(db, input, requestHash);
        if (outcome.missing > 0) {
          // A customer's first movement in this asset: create the account, then post.
          await resolveAccounts(
            db,
            input.postings.map((posting) => posting.account),
            houseCache,
          );
          outcome = await postOnce(db, input, requestHash);
        }
        if (outcome.journal_id !== null) return { journalId: outcome.journal_id, replayed: false };
      } catch (error) {
        if (isOverdraft(error)) throw new AppError('INSUFFICIENT_FUNDS');
        throw error;
      }
      const existing = await db
        .selectFrom('journals')
        .select(['id', 'request_hash'])
        .where('idempotency_key', '=', input.idempotencyKey)
        .executeTakeFirstOrThrow();
      if (existing.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
      return { journalId: existing.id, replayed: true };
    },
  };
}
