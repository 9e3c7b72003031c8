import { expect } from 'vitest';
import {
  OpenOrderSchema,
  QuoteSchema,
  TradeSchema,
  type OpenOrder,
  type Quote,
  type Trade,
} from '@florin/contracts';
import { signedInStaff } from './admin.js';
import type { TestApp } from './app.js';
import { bankDeposit, coinDeposit, type PayerAccountDetails } from './deposits.js';
import { mailedCode, newIdempotencyKey, withdraw, type FiatCustomer } from '../modules/fiat/fiat.test-kit.js';

/**
 * Money moved the way customers and staff move it: through the API and the
 * services behind it, never by posting journals or inserting rows. A read
 * model (history, export, balances, positions) tested on data made here
 * fails when a write path forgets a figure.
 */
export async function moneyPaths(t: TestApp) {
  const finance = await signedInStaff(t.app, t.database.db, 'finance');

  function ok<T>(response: { statusCode: number; body: string; json: <U>() => U }): T {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: T }>().data;
  }

  return {
    /**
     * Finance records the customer's bank transfer; reference and name match, so it is credited. From
     * `from`, else from the customer's registered account in the currency (which the money verifies).
     */
    bankDeposit: (
      customer: FiatCustomer,
      amount: string,
      currency: 'GBP' | 'EUR' | 'USD' = 'GBP',
      from?: PayerAccountDetails,
    ) => bankDeposit(t, customer, amount, currency, from),

    /** Someone pays `amount` of a coin to the customer's deposit address and the chain confirms it: credited. */
    coinDeposit: (customer: FiatCustomer, coin: string, amount: string) =>
      coinDeposit(t, customer, coin, amount),

    /** Moves the simulated mid of a pair (and fills the orders it crosses); the customer's bid and ask. */
    async drive(mid: string, symbol = 'BTC/GBP') {
      const response = await t.app.inject({
        method: 'POST',
        url: '/dev/market/drive',
        payload: { symbol, mid },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { bid: string; ask: string } }>().data;
    },

    /** An instant trade: the quote the screen shows, then its execution. */
    async instant(
      customer: FiatCustomer,
      body: Record<string, unknown>,
    ): Promise<{ quote: Quote; trade: Trade }> {
      const quote = QuoteSchema.parse(
        ok(await customer.browser.post('/api/v1/quotes', { coin_id: 'btc', ...body })),
      );
      const trade = TradeSchema.parse(
        ok(await customer.browser.post('/api/v1/order', { quote_id: quote.id })),
      );
      return { quote, trade };
    },

    /** A market order on the trade page. */
    async market(
      customer: FiatCustomer,
      side: 'buy' | 'sell',
      body: Record<string, unknown>,
    ): Promise<Trade> {
      return TradeSchema.parse(
        ok(
          await customer.browser.post(
            `/api/v1/crypto/${side}`,
            { coin_id: 'btc', ...body },
            { headers: { 'idempotency-key': newIdempotencyKey() } },
          ),
        ),
      );
    },

    /** A limit (or stop: order_type 3) order placed on the trade page; it fills when drive() crosses it. */
    async placeOrder(customer: FiatCustomer, body: Record<string, unknown>): Promise<OpenOrder> {
      return OpenOrderSchema.parse(
        ok(
          await customer.browser.post(
            '/api/v1/crypto/limit_order',
            { coin_id: 'btc', order_type: 2, ...body },
            { headers: { 'idempotency-key': newIdempotencyKey() } },
          ),
        ),
      );
    },

    /** A fiat withdrawal request to the customer's verified bank account: pending, its amount held. */
    async fiatWithdrawal(customer: FiatCustomer, amount: string) {
      return ok<{ id: string; status: string }>(await withdraw(customer, { amount }));
    },

    /** Finance records a fiat withdrawal as paid by the bank: the hold is posted, the money gone. */
    async payWithdrawal(id: string) {
      ok(
        await finance.browser.post(`/api/admin/fiat/withdrawals/${id}/paid`, {
          payment_reference: `FP-${id}`,
        }),
      );
    },

    /** A claim of referral earnings to the customer's verified bank account (no 2FA set up): waiting, held. */
    async referralClaim(customer: FiatCustomer, amount: string) {
      return ok<{ claim: { id: string; status: string } }>(
        await customer.browser.post(
          '/api/v1/user/affiliate-withdraw',
          { withdraw_amount: amount },
          { headers: { 'idempotency-key': newIdempotencyKey() } },
        ),
      ).claim;
    },

    /** Finance pays a waiting referral claim: the hold is posted, the earnings gone to the bank. */
    async payReferralClaim(id: string) {
      ok(await finance.browser.post(`/api/admin/affiliate-claims/${id}/paid`));
    },

    /** A coin withdrawal requested, confirmed with the mailed code and queued for staff: pending, held. */
    async coinWithdrawal(customer: FiatCustomer, body: { coin: string; wallet: string; amount: string }) {
      const requested = ok<{ id: string }>(
        await customer.browser.post(
          '/api/v1/crypto/send-verify-withdraw',
          { beneficiary_type: 'self', destination_type: 'private_wallet', ...body },
          { headers: { 'idempotency-key': newIdempotencyKey() } },
        ),
      );
      const code = await mailedCode(t.database.db, customer.email);
      ok(
        await customer.browser.post('/api/v1/crypto/verify-withdraw', {
          withdrawal_id: requested.id,
          verify_code: code,
        }),
      );
      return ok<{ id: string; status: string }>(
        await customer.browser.post('/api/v1/crypto/withdraw', { withdrawal_id: requested.id }),
      );
    },

    /** A term deposit on the shortest option the Term Deposits page offers for the coin. */
    async termDeposit(customer: FiatCustomer, coin: string, amount: string) {
      const coins = ok<{ coin_id: string; options: { id: number; no_days: number }[] }[]>(
        await customer.browser.get('/api/v1/term-deposit-coins'),
      );
      const option = coins
        .find((entry) => entry.coin_id === coin)
        ?.options.reduce((a, b) => (a.no_days <= b.no_days ? a : b));
      if (!option) throw new Error(`no term deposit option for ${coin}`);
      return ok(
        await customer.browser.post(
          '/api/v1/crypto/term-deposit',
          { coin, amount, day: option.id },
          { headers: { 'idempotency-key': newIdempotencyKey() } },
        ),
      );
    },
  };
}

export type MoneyPaths = Awaited<ReturnType<typeof moneyPaths>>;
