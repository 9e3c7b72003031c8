import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_TEXTS, NewApiTokenSchema } from '@florin/contracts';
import type { TokenUse } from '../../http/auth.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  errorOf,
  liveCustomer,
  newIdempotencyKey,
  type FiatCustomer as Customer,
} from '../fiat/fiat.test-kit.js';
import { listCustomerRoutes } from './token-auth.js';

/**
 * Every customer route of the running app × the four permissions × a deleted
 * token. The expected rule of each route is written here, apart from the
 * code: a new customer route fails this suite until someone decides what an
 * API token may do there.
 */
const EXPECTED: Record<string, TokenUse | 'none'> = {
  // tokens manage no tokens
  'POST /api/v1/settings/api-token': 'none',
  'POST /api/v1/generate-api': 'none',
  'GET /api/v1/get-api-tokens/:user_id': 'none',
  'POST /api/v1/delete-permission/:id': 'none',
  // account, security and KYC: the browser's
  'POST /api/v1/logout': 'none',
  'GET /api/v1/user': 'read',
  'PUT /api/v1/settings/change-password': 'none',
  'POST /api/v1/settings/email': 'none',
  'GET /api/v1/two-factor-authentication/generate': 'none',
  'POST /api/v1/two-factor-authentication/toggle': 'none',
  'PUT /api/v1/users': 'none',
  'PUT /api/v1/users/account_type': 'none',
  'PUT /api/v1/users/ico_confirm': 'none',
  'PUT /api/v1/users/:id/notifications': 'none',
  'POST /api/v1/settings/kyc/create': 'none',
  'POST /api/v1/settings/kyc/update': 'none',
  'POST /api/v1/users/corporate/company': 'none',
  'POST /api/v1/users/corporate/company-director': 'none',
  'PUT /api/v1/users/corporate/company-director/:id': 'none',
  'DELETE /api/v1/users/corporate/company-director/:id': 'none',
  'POST /api/v1/user/id-proof': 'none',
  'POST /api/v1/user/documents/upload': 'none',
  'POST /api/v1/users/corporate/company-director/:id/document-upload': 'none',
  'GET /api/v1/user/documents/:id/file': 'none',
  'GET /api/v1/motd': 'read',
  // fiat: read; bank accounts and fiat withdrawals stay in the browser
  'GET /api/v1/bank-account/details': 'read',
  'POST /api/v1/bank-account/create': 'none',
  'PUT /api/v1/bank-account/update': 'none',
  'GET /api/v1/bank-account/deposit': 'read',
  'GET /api/v1/fiat/withdraw-info': 'read',
  'POST /api/v1/mobile/request-2fa': 'none',
  'POST /api/v1/users/withdraw': 'none',
  'POST /api/v1/users/withdraw/:id/cancel': 'none',
  'GET /api/v1/fiat/transactions': 'read',
  // whitelists: read the saved addresses; changing either list stays in the browser
  'GET /api/v1/wallet-address/list': 'read',
  'POST /api/v1/wallet-address/create': 'none',
  'POST /api/v1/send-verify-wallet-address': 'none',
  'POST /api/v1/verify-wallet-address': 'none',
  'DELETE /api/v1/wallet-address/destroy/:id': 'none',
  'POST /api/v1/ipaddress/:userIdentification/whitelist': 'none',
  'GET /api/v1/ipaddress/:userId/fetchwhitelist': 'none',
  'POST /api/v1/ipaddress/:userIdentification/whitelist/:id/remove': 'none',
  // crypto
  'GET /api/v1/user/wallet-addresses': 'read',
  'GET /api/v1/user/generate-deposit-address/:coin_id': 'read',
  'GET /api/v1/user/crypto-deposits': 'read',
  'GET /api/v1/crypto/withdraw-info': 'read',
  'POST /api/v1/crypto/send-verify-withdraw': 'withdraw',
  'POST /api/v1/crypto/withdrawals/:id/resend-code': 'withdraw',
  'POST /api/v1/crypto/verify-withdraw': 'withdraw',
  'POST /api/v1/crypto/withdraw': 'withdraw',
  'POST /api/v1/crypto/withdrawals/:id/cancel': 'withdraw',
  'GET /api/v1/crypto/transactions': 'read',
  // portfolio
  'GET /api/v1/balance': 'read',
  'GET /api/v1/user/fiat-crypto-transactions': 'read',
  'GET /api/v1/user/pending-transactions': 'read',
  'GET /api/v1/user/transactions': 'read',
  'GET /api/v1/crypto/transactions/export': 'read',
  // tax: an accountant's software may read the report
  'GET /api/v1/tax/capital-gains': 'read',
  'GET /api/v1/tax/capital-gains/export': 'read',
  // the first-investment journey: the customer's own answers and confirmations, in the browser
  'GET /api/v1/investor/journey': 'none',
  'POST /api/v1/investor/categorisation': 'none',
  'POST /api/v1/investor/assessment': 'none',
  'POST /api/v1/investor/assessment/:attemptId': 'none',
  'POST /api/v1/investor/warnings/shown': 'none',
  'POST /api/v1/investor/confirm': 'none',
  // closing the account: the owner's, in the browser, with the password
  'POST /api/v1/account/close': 'none',
  // trading
  'GET /api/v1/trading/terms': 'read',
  'POST /api/v1/quotes': 'trade',
  'POST /api/v1/order': 'trade',
  'POST /api/v1/crypto/buy': 'trade',
  'POST /api/v1/crypto/sell': 'trade',
  'POST /api/v1/crypto/limit_order': 'trade',
  'GET /api/v1/crypto/limit_orders': 'read',
  'GET /api/v1/crypto/limit_order': 'read',
  'POST /api/v1/crypto/limit_order/:id/cancel': 'trade',
  'GET /api/v1/crypto/positions': 'read',
  // term deposits: read; placing one stays in the browser
  'GET /api/v1/term-deposit-coins': 'read',
  'GET /api/v1/term-deposit-transactions': 'read',
  'POST /api/v1/crypto/term-deposit': 'none',
  // auto trade, referrals and promo codes: the Account page's, in the browser
  'GET /api/v1/user/autobuy/:id': 'none',
  'POST /api/v1/user/autobuy/:id': 'none',
  'DELETE /api/v1/user/autobuy/:id': 'none',
  'GET /api/v1/user/referrals': 'none',
  'GET /api/v1/user/referral_custom': 'none',
  'POST /api/v1/user/referral_custom': 'none',
  'GET /api/v1/user/affiliate-earnings/:flag': 'none',
  'POST /api/v1/user/affiliate-withdraw': 'none',
  'GET /api/v1/user/affiliate-codes': 'none',
  'POST /api/v1/affiliate-codes/assign': 'none',
};

/** Spec 002 §6, and what each may do. */
const PERMITS: Record<1 | 2 | 3 | 4, readonly TokenUse[]> = {
  1: ['read'],
  2: ['read', 'withdraw'],
  3: ['read', 'withdraw'],
  4: ['read', 'trade'],
};

const TOKEN_TEXTS: readonly string[] = Object.values(API_TOKEN_TEXTS);

let t: TestApp;
let customer: Customer;

beforeAll(async () => {
  // The matrix makes hundreds of calls a token; the per-token limit has its own test.
  t = await createTestApp({ env: { API_TOKEN_RATE_LIMIT_PER_MINUTE: '100000' } });
  customer = await liveCustomer(t);
});
afterAll(async () => {
  await t.close();
});

async function generate(permission_id: number): Promise<{ token: string; id: string }> {
  const response = await customer.browser.post('/api/v1/generate-api', { permission_id });
  expect(response.statusCode, response.body).toBe(200);
  const { token, api_token } = NewApiTokenSchema.parse(response.json()).data;
  return { token, id: api_token.id };
}

/** A URL for the route: its parameters filled with the customer's own ids or harmless ones. */
function urlOf(route: string): string {
  return route
    .replace(/:(user_id|userId)\b/g, String(customer.id))
    .replace(':userIdentification', customer.reference)
    .replace(':coin_id', 'btc')
    .replace(/:\w+/g, '1');
}

describe('the API token permission matrix', () => {
  it('every customer route declares the rule this suite expects', () => {
    const routes = listCustomerRoutes(t.app);
    const declared = Object.fromEntries(
      routes.map((route) => [`${route.method} ${route.url}`, route.token ?? 'none']),
    );
    expect(routes.length).toBe(Object.keys(declared).length);
    expect(declared).toEqual(EXPECTED);
  });

  it('answers every customer route × READ, WITHDRAW SAVED, WITHDRAW ANY, TRADE and a deleted token as its rule says', async () => {
    const tokens = {
      1: await generate(1),
      2: await generate(2),
      3: await generate(3),
      4: await generate(4),
    };
    const deleted = await generate(1);
    expect((await customer.browser.post(`/api/v1/delete-permission/${deleted.id}`)).statusCode).toBe(200);

    const outcomes: string[] = [];
    const expected: string[] = [];
    let ip = 0;
    for (const route of listCustomerRoutes(t.app)) {
      const key = `${route.method} ${route.url}`;
      const rule = EXPECTED[key] ?? 'none';
      for (const [name, token, permits] of [
        ...([1, 2, 3, 4] as const).map((id) => [`permission ${id}`, tokens[id].token, PERMITS[id]] as const),
        ['deleted', deleted.token, null] as const,
      ]) {
        ip += 1;
        const response = await t.app.inject({
          method: route.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
          url: urlOf(route.url),
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': newIdempotencyKey() },
          remoteAddress: `198.18.${(ip >> 8) & 255}.${ip & 255}`,
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        const message = response.statusCode >= 400 ? errorOf(response).message : '';
        const refusedByToken = response.statusCode === 401 || response.statusCode === 403;
        let outcome: string;
        if (response.statusCode === 401 && message === API_TOKEN_TEXTS.tokenRefused) outcome = '401';
        else if (response.statusCode === 403 && TOKEN_TEXTS.includes(message)) outcome = '403';
        else outcome = refusedByToken ? `${response.statusCode} ${message}` : 'allowed';
        outcomes.push(`${key} with ${name}: ${outcome}`);
        const allowed = permits !== null && rule !== 'none' && permits.includes(rule);
        expected.push(`${key} with ${name}: ${permits === null ? '401' : allowed ? 'allowed' : '403'}`);
      }
    }
    expect(outcomes).toEqual(expected);
    expect(outcomes.length).toBe(Object.keys(EXPECTED).length * 5);
  });

  it('keeps a browser session working on the routes tokens may not call', async () => {
    const response = await customer.browser.get(`/api/v1/get-api-tokens/${customer.id}`);
    expect(response.statusCode).toBe(200);
  });
});
