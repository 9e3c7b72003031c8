import type { FastifyRequest } from 'fastify';
import { AppError, IDEMPOTENCY_KEY_HEADER } from '@florin/contracts';

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
