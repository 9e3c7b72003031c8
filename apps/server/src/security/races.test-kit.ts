import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { freshTotpCode } from '../test/admin.js';
import { type TestApp } from '../test/app.js';
import { type Browser } from '../test/browser.js';
import { customerBrowser } from '../modules/compliance/customers.test-kit.js';
import { errorOf, type FiatCustomer as Customer } from '../modules/fiat/fiat.test-kit.js';
import { TOO_MANY_ATTEMPTS } from '../test/rate-limited.js';

/**
 * What the race tests (races.test.ts, account-races.test.ts) share: COPIES concurrent requests,
 * the tally of their answers, and the rows and holds they leave. Each test file calls
 * `raceSteps(() => t)` with its own app.
 */

export const COPIES = 50;

/** COPIES concurrent calls of `send`. */
export function race(
  send: (copy: number) => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse[]> {
  return Promise.all(Array.from({ length: COPIES }, (_, copy) => send(copy)));
}

/** How many answers had each status: { 200: 1, 409: 49 }. */
export function tally(answers: readonly LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.statusCode] = (counts[answer.statusCode] ?? 0) + 1;
  return counts;
}

/** The messages of the refused answers, once each. */
export function refusals(answers: readonly LightMyRequestResponse[]): string[] {
  return [...new Set(answers.filter((a) => a.statusCode !== 200).map((a) => errorOf(a).message))].sort();
}

/** Every copy answered 200 with the same body: the first result, replayed. */
export function expectOneAnswer(answers: readonly LightMyRequestResponse[]): void {
  expect(tally(answers)).toEqual({ 200: COPIES });
  const first = answers[0]?.json<unknown>();
  for (const answer of answers) expect(answer.json<unknown>()).toEqual(first);
}

/**
 * COPIES uses of one second-factor code: one wins, and every other copy is refused, judged (the code
 * is spent) or, past the customer's five wrong codes (security/second-factor.ts), unjudged with a
 * 429. The right code clears the count: at most four wrong ones are judged beside it and five after.
 */
export function expectOneWithOneCode(
  answers: readonly LightMyRequestResponse[],
  refusedStatus: number,
): void {
  const { 200: made, [refusedStatus]: refused = 0, 429: limited = 0, ...other } = tally(answers);
  expect({ made, other }).toEqual({ made: 1, other: {} });
  expect(refused + limited).toBe(COPIES - 1);
  for (const answer of answers.filter((a) => a.statusCode === 429))
    expect(errorOf(answer).message).toMatch(TOO_MANY_ATTEMPTS);
}

export function raceSteps(app: () => TestApp) {
  const db = () => app().database.db;

  /** COPIES signed-in browsers of one customer: routes with a per-IP limit of ten a minute still see every copy. */
  function browsersOf(customer: Customer): Promise<Browser[]> {
    return Promise.all(Array.from({ length: COPIES }, () => customerBrowser(app().app, db(), customer.id)));
  }

  /** Turns on the authenticator through the API and returns its secret. */
  async function enableTwoFactor(browser: Browser): Promise<{ secret: string; recoveryCodes: string[] }> {
    const generated = await browser.get('/api/v1/two-factor-authentication/generate');
    expect(generated.statusCode, generated.body).toBe(200);
    const { secret } = generated.json<{ data: { secret: string } }>().data;
    const toggled = await browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: freshTotpCode(secret),
      disable_2fa: 0,
    });
    expect(toggled.statusCode, toggled.body).toBe(200);
    return { secret, recoveryCodes: toggled.json<{ recovery_codes: string[] }>().recovery_codes };
  }

  async function countOf(
    table:
      'trades' | 'orders' | 'term_deposits' | 'affiliate_claims' | 'promo_redemptions' | 'fiat_withdrawals',
    userId: number,
  ): Promise<number> {
    const row = await db()
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async function holdsOf(userId: number, reason: string) {
    return db()
      .selectFrom('holds')
      .innerJoin('accounts', 'accounts.id', 'holds.account_id')
      .select(['holds.status', 'holds.amount'])
      .where('accounts.owner_user_id', '=', String(userId))
      .where('holds.reason', '=', reason)
      .execute();
  }

  return { db, browsersOf, enableTwoFactor, countOf, holdsOf };
}
