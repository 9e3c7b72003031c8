import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError, IDEMPOTENCY_KEY_HEADER } from '@florin/contracts';
import type { DB } from '../db/schema.js';
import { assertSameRequest, hashRequest } from '../ledger/index.js';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9:._-]{8,100}$/;

/** The client's Idempotency-Key header: every request that moves money carries one (LEDGER.md). */
export function idempotencyKeyOf(request: FastifyRequest): string {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  const key = typeof value === 'string' ? value.trim() : '';
  if (!IDEMPOTENCY_KEY.test(key))
    throw new AppError('VALIDATION_FAILED', undefined, {
      'Idempotency-Key': ['Send an Idempotency-Key header of 8 to 100 letters, digits or - _ . :'],
    });
  return key;
}

/** What a request stored under its key: its domain row, with the hash of the request that made it. */
export type StoredRequest = { request_hash: string | null };

export type ReplayOrRun<Answer, Result> =
  { replayed: true; answer: Answer } | { replayed: false; result: Result };

/**
 * One customer's request under an Idempotency-Key (LEDGER.md): the same key with the same request
 * answers with what the first one stored; with another request it is IDEMPOTENCY_CONFLICT. The use
 * case stores `requestHash` on its row, in the transaction that does the work.
 */
export function idempotentRequest<Row extends StoredRequest, Answer>(spec: {
  /** The request's parameters as the use case reads them: two requests differ when these do. */
  request: unknown;
  /** The row this customer's key stored, if any. */
  find: (executor: Kysely<DB>) => Promise<Row | undefined>;
  /** What a stored row answers again. */
  answer: (row: Row) => Answer;
}) {
  const requestHash = hashRequest(spec.request);

  /** The stored answer of this key, if it has one; another request under the key is refused. */
  async function replay(executor: Kysely<DB>): Promise<{ answer: Answer } | undefined> {
    const earlier = await spec.find(executor);
    if (!earlier) return undefined;
    assertSameRequest(earlier, requestHash);
    return { answer: spec.answer(earlier) };
  }

  return {
    requestHash,

    /** The first look, before the checks: a repeated request is answered as it was the first time. */
    async replay(executor: Kysely<DB>): Promise<Answer | undefined> {
      return (await replay(executor))?.answer;
    },

    /**
     * Inside the transaction, under the lock that orders this customer's requests: the stored answer
     * when the key has one, else `run`, which stores its row with `requestHash`.
     */
    async replayOrRun<Result>(
      trx: Kysely<DB>,
      run: () => Promise<Result>,
    ): Promise<ReplayOrRun<Answer, Result>> {
      const earlier = await replay(trx);
      if (earlier) return { replayed: true, answer: earlier.answer };
      return { replayed: false, result: await run() };
    },

    /**
     * A check refused the request: a copy of it (same key) that committed meanwhile has taken what
     * was checked, so the key answers with that copy; without one the refusal stands.
     */
    async replayOrThrow(executor: Kysely<DB>, error: unknown): Promise<Answer> {
      const committed = await replay(executor);
      if (!committed) throw error;
      return committed.answer;
    },
  };
}
