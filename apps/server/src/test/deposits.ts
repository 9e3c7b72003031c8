import { expect } from 'vitest';
import { signedInStaff, type SignedInStaff } from './admin.js';
import type { TestApp } from './app.js';
import type { Browser } from './browser.js';
import { testClock } from './clock.js';

/**
 * Customers funded as they fund themselves: a bank transfer finance records in the back office, or a
 * coin payment to their deposit address that the (simulated) chain confirms. The module test kits
 * fund through these rather than posting journals, so a test's data is what the product makes.
 */

/** What a deposit needs of a customer: who they are, their payment reference and their browser. */
export type DepositingCustomer = { id: number; firstName: string; reference: string; browser: Browser };

type Finance = { staff: SignedInStaff; lastUsedMs: number };
const financeOfApp = new WeakMap<TestApp, Promise<Finance>>();
/** Under the back office's 15-minute idle limit: a test that moved its clock further signs in anew. */
const REUSE_WITHIN_MS = 10 * 60_000;

/** One finance member per app, signed in once; again after the test clock moved past the idle limit. */
async function finance(t: TestApp): Promise<SignedInStaff> {
  const cached = await financeOfApp.get(t);
  const now = testClock.now().getTime();
  if (cached && now - cached.lastUsedMs < REUSE_WITHIN_MS) {
    cached.lastUsedMs = now;
    return cached.staff;
  }
  const signingIn = signedInStaff(t.app, t.database.db, 'finance').then((staff) => ({
    staff,
    lastUsedMs: testClock.now().getTime(),
  }));
  financeOfApp.set(t, signingIn);
  return (await signingIn).staff;
}

let transfers = 0;

/** The account a transfer came from, as the bank's statement names it. */
export type PayerAccountDetails = {
  payer_sort_code?: string;
  payer_account_number?: string;
  payer_iban?: string;
};

/**
 * Finance records the customer's bank transfer; reference and name match, so it is credited. It comes
 * from `from` when given, else from the customer's registered account in that currency when they have
 * one (so the money verifies it, decision 132), else from an account the statement does not name.
 */
export async function bankDeposit(
  t: TestApp,
  customer: DepositingCustomer,
  amount: string,
  currency: 'GBP' | 'EUR' | 'USD' = 'GBP',
  from?: PayerAccountDetails,
): Promise<void> {
  transfers += 1;
  const { last_name: surname } = await t.database.db
    .selectFrom('users')
    .select('last_name')
    .where('id', '=', customer.id)
    .executeTakeFirstOrThrow();
  const registered = await t.database.db
    .selectFrom('bank_accounts')
    .select(['sort_code', 'account_number', 'iban'])
    .where('user_id', '=', customer.id)
    .where('currency', '=', currency)
    .executeTakeFirst();
  const payerAccount: PayerAccountDetails =
    from ??
    (!registered
      ? {}
      : currency === 'GBP'
        ? {
            payer_sort_code: registered.sort_code ?? '',
            payer_account_number: registered.account_number ?? '',
          }
        : { payer_iban: registered.iban ?? '' });
  const response = await (
    await finance(t)
  ).browser.post('/api/admin/fiat/deposits', {
    currency,
    amount,
    // As a bank writes the payer: initial and surname.
    payer_name: `MS ${customer.firstName.charAt(0).toUpperCase()} ${surname.toUpperCase()}`,
    reference: customer.reference,
    ...payerAccount,
    bank_transaction_id: `PATHS-${process.pid}-${Date.now()}-${transfers}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json<{ data: { outcome: string } }>().data.outcome).toBe('credited');
}

/** Someone pays `amount` of a coin to the customer's deposit address and the chain confirms it: credited. */
export async function coinDeposit(
  t: TestApp,
  customer: DepositingCustomer,
  coin: string,
  amount: string,
): Promise<void> {
  // 'Generate Address' on the deposit view: the same address on every call (XRP: a destination tag).
  const generated = await customer.browser.get(`/api/v1/user/generate-deposit-address/${coin}`);
  expect(generated.statusCode, generated.body).toBe(200);
  const wallet = generated.json<{
    data: { address: string; tag: string | null; confirmations: number };
  }>().data;
  const asset = coin.toUpperCase();
  const staff = await finance(t);
  const paid = await staff.browser.post('/api/admin/crypto/simulated-chain/deposit', {
    asset,
    address: wallet.address,
    amount,
    ...(wallet.tag ? { tag: wallet.tag } : {}),
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const mined = await staff.browser.post('/api/admin/crypto/simulated-chain/mine', {
    asset,
    blocks: wallet.confirmations,
  });
  expect(mined.statusCode, mined.body).toBe(200);
}
