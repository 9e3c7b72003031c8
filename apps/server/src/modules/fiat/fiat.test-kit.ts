import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import { ErrorBodySchema, type ErrorBody } from '@florin/contracts';
import { formatAmount } from '@florin/domain';
import { createStorageFromConfig } from '../../adapters/storage/index.js';
import type { DB } from '../../db/schema.js';
import { checkLedger } from '../../ledger/index.js';
import type { Browser } from '../../test/browser.js';
import { bankDeposit } from '../../test/deposits.js';
import {
  customerBrowser,
  insertApprovedVerification,
  insertCustomer,
  type TestCustomer,
} from '../compliance/customers.test-kit.js';
import { completeInvestorJourney } from '../investor/investor.test-kit.js';
import type { TestApp } from '../../test/app.js';
import { fiatDomainCheck } from './service.js';

/**
 * What the fiat API tests share: live customers signed in with a browser,
 * bank accounts registered through the API and then aged or verified in the
 * database (the 24-hour wait and a matching deposit are tested on their own),
 * and the ledger checker with the fiat domain check.
 */

export const errorOf = (response: LightMyRequestResponse): ErrorBody =>
  ErrorBodySchema.parse(response.json());

/** Invariants 1–7 and the fiat module's invariant 8. */
export async function expectFiatLedgerToHold(db: Kysely<DB>): Promise<void> {
  const result = await checkLedger(db, [fiatDomainCheck]);
  expect(result.violations).toEqual([]);
}

export type FiatCustomer = TestCustomer & { browser: Browser };

/**
 * A live customer (status 1) with a signed-in browser, with an approved
 * verification unless `verification` is false (a test writing the
 * customer's documents itself), past the first-investment journey unless
 * `journey` is false.
 */
export async function liveCustomer(
  t: TestApp,
  options: {
    firstName?: string;
    lastName?: string;
    live?: boolean;
    verification?: boolean;
    journey?: boolean;
    accountType?: 'Individual' | 'Corporate';
  } = {},
): Promise<FiatCustomer> {
  const db = t.database.db;
  const customer = await insertCustomer(db, {
    firstName: options.firstName,
    lastName: options.lastName,
    accountType: options.accountType,
  });
  if (options.live !== false) {
    await db
      .updateTable('users')
      .set({ status: 1, live_since: new Date() })
      .where('id', '=', customer.id)
      .execute();
    if (options.verification !== false)
      await insertApprovedVerification(db, createStorageFromConfig(t.config), customer.id);
    if (options.journey !== false) await completeInvestorJourney(db, customer.id);
  }
  return { ...customer, browser: await customerBrowser(t.app, db, customer.id) };
}

export const GBP_ACCOUNT = {
  name_of_account: 'Grace Hopper',
  currency_code: 'GBP',
  bank_sort_code: '12-34-56',
  bank_account_number: '12345678',
} as const;

/** Registers a GBP account through the API, then makes it verified and past its 24-hour wait. */
export async function readyBankAccount(t: TestApp, customer: FiatCustomer): Promise<number> {
  const response = await customer.browser.post('/api/v1/bank-account/create', GBP_ACCOUNT);
  expect(response.statusCode, response.body).toBe(200);
  const id = response.json<{ data: { id: number } }>().data.id;
  await t.database.db
    .updateTable('bank_accounts')
    .set({
      verified_at: new Date(),
      verified_by: 'staff',
      details_changed_at: sql<Date>`now() - interval '25 hours'`,
    })
    .where('id', '=', id)
    .execute();
  return id;
}

/** A live customer with a verified GBP account, past its wait, holding `pence` GBP (a bank transfer). */
export async function readyCustomer(t: TestApp, pence = 100_000n): Promise<FiatCustomer> {
  const customer = await liveCustomer(t);
  await readyBankAccount(t, customer);
  if (pence > 0n) await bankDeposit(t, customer, formatAmount(pence, 'GBP'));
  return customer;
}

export function newIdempotencyKey(): string {
  return `test-${randomBytes(12).toString('hex')}`;
}

/** POST /api/v1/users/withdraw with a fresh (or given) Idempotency-Key. */
export function withdraw(customer: FiatCustomer, body: Record<string, unknown>, key = newIdempotencyKey()) {
  return customer.browser.post('/api/v1/users/withdraw', body, { headers: { 'idempotency-key': key } });
}

/** Asks for a withdrawal of `amount` pounds and returns its id. */
export async function requestWithdrawal(customer: FiatCustomer, amount: string): Promise<string> {
  const response = await withdraw(customer, { amount });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { id: string } }>().data.id;
}

export async function houseBalance(t: TestApp, kind: 'bank' | 'suspense' | 'withdrawal_fee_revenue') {
  return (await t.ledger.getBalance(t.database.db, { asset: 'GBP', kind })).posted;
}

export async function balanceOf(t: TestApp, userId: number, asset: 'GBP' | 'EUR' | 'USD' = 'GBP') {
  return t.ledger.getBalance(t.database.db, { asset, kind: 'available', ownerUserId: String(userId) });
}

/** The newest 6-digit code mailed to `email`. */
export async function mailedCode(db: Kysely<DB>, email: string): Promise<string> {
  const mail = await db
    .selectFrom('dev_mailbox')
    .select(['text'])
    .where('to', '=', email)
    .where('subject', 'like', 'Your withdrawal code%')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  // The code's own sentence: an XRP amount in the same mail has six decimals too.
  const code = mail && /\bis (\d{6})\. It works once/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no withdrawal code mailed to ${email}`);
  return code;
}
