import { expect } from 'vitest';
import { available, uniqueKey } from '../test/ledger.js';

/** What the ledger tests share beyond apps/server/src/test/ledger.ts. */

/** The error `promise` rejects with; fails the test if it resolves. */
export function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

/** A buy fill: the hold's GBP to the house, the coin from the house. */
export const buyFill = (user: string, holdId: string, gbp: bigint, btc: bigint) => ({
  holdId,
  idempotencyKey: uniqueKey('fill'),
  kind: 'limit_order_fill' as const,
  amount: gbp,
  releaseRest: true,
  postings: [
    { account: available(user, 'GBP'), amount: -gbp },
    { account: { asset: 'GBP' as const, kind: 'inventory' as const }, amount: gbp },
    { account: { asset: 'BTC' as const, kind: 'inventory' as const }, amount: -btc },
    { account: available(user, 'BTC'), amount: btc },
  ],
});
