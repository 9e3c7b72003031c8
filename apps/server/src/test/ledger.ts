import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { AssetCode } from '@florin/domain';
import type { DB } from '../db/schema.js';
import { checkLedger, createLedger, type Ledger, type UserAccountRef } from '../ledger/index.js';
import { DOMAIN_CHECKS } from '../ops/domain-checks.js';

/**
 * Every test that moves money ends with this: the invariant checker, with every module's domain
 * check as main.ts runs them before serving, must find nothing.
 */
export async function expectLedgerToHold(db: Kysely<DB>): Promise<void> {
  const result = await checkLedger(db, DOMAIN_CHECKS);
  expect(result.violations).toEqual([]);
}

export function available(ownerUserId: string | number, asset: AssetCode): UserAccountRef {
  return { asset, kind: 'available', ownerUserId: String(ownerUserId) };
}

let keys = 0;
export function uniqueKey(prefix = 'test'): string {
  keys += 1;
  return `${prefix}:${process.pid}:${Date.now()}:${keys}`;
}

/**
 * Funds an account as a bank transfer would (Dr bank / Cr customer), by posting the journal itself.
 * For ledger-level tests only (the ledger, its checker, the data folder, the app's transaction
 * plumbing): a test of a customer's flow or a read model funds through test/deposits.ts (issue 41).
 */
export async function fund(
  ledger: Ledger,
  db: Kysely<DB>,
  ownerUserId: string | number,
  asset: AssetCode,
  amount: bigint,
): Promise<void> {
  const house = asset === 'GBP' || asset === 'EUR' || asset === 'USD' ? 'bank' : 'custody';
  await ledger.postJournal(db, {
    idempotencyKey: uniqueKey('fund'),
    kind: asset === 'GBP' || asset === 'EUR' || asset === 'USD' ? 'fiat_deposit' : 'crypto_deposit',
    postings: [
      { account: { asset, kind: house }, amount: -amount },
      { account: available(ownerUserId, asset), amount },
    ],
  });
}

let users = 0;

/** A customer row, as registration would leave it, for tests that only need someone to own accounts. */
export async function createTestUser(db: Kysely<DB>): Promise<string> {
  users += 1;
  const unique = `${process.pid}${Date.now().toString(36)}${users}`.toUpperCase();
  const row = await db
    .insertInto('users')
    .values({
      user_identification: `FLT${unique}`,
      first_name: 'Test',
      last_name: `User ${users}`,
      email: `user-${unique.toLowerCase()}@example.test`,
      password_hash: 'not-a-password',
      referral_code: `t${unique.toLowerCase()}`,
      referred_by_user_id: null,
      email_verified_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

export async function countRows(db: Kysely<DB>, table: 'journals' | 'entries' | 'holds'): Promise<number> {
  const result = await sql<{
    count: string;
  }>`SELECT count(*)::text AS count FROM ${sql.table(table)}`.execute(db);
  return Number(result.rows[0]?.count ?? 0);
}

export { createLedger };
