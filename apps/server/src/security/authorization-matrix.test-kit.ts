import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { StaffRole } from '@florin/contracts';
import type { AppRoute } from '../http/route.js';
import { STATE_CHANGING } from '../test/route-sweep.js';

/**
 * The authorization matrix written down (see authorization-matrix.test.ts): the kinds of caller,
 * who may call each route, and the answer each caller should get.
 */

export type Caller =
  | 'anonymous'
  | 'unverified e-mail'
  | 'verified, not live'
  | 'live individual'
  | 'live corporate'
  | 'on hold'
  | 'terminated'
  | StaffRole;

const CUSTOMERS = [
  'verified, not live',
  'live individual',
  'live corporate',
  'on hold',
  'terminated',
] as const satisfies Caller[];
export const STAFF = ['support', 'compliance', 'finance', 'superadmin'] as const satisfies StaffRole[];
export const CALLERS: readonly Caller[] = ['anonymous', 'unverified e-mail', ...CUSTOMERS, ...STAFF];

/**
 * Who may call a route: anyone; any signed-in customer (a terminated one only
 * reads); any customer, terminated too (withdrawing and leaving, issue 13); or
 * staff of the roles listed (a superadmin always).
 */
export type Rule = 'public' | 'customer' | 'customer, terminated too' | { staff: readonly StaffRole[] };

const SUPPORT_COMPLIANCE_FINANCE = { staff: ['support', 'compliance', 'finance'] } as const;
const SUPPORT_COMPLIANCE = { staff: ['support', 'compliance'] } as const;
const COMPLIANCE_FINANCE = { staff: ['compliance', 'finance'] } as const;
const SUPPORT_FINANCE = { staff: ['support', 'finance'] } as const;
const COMPLIANCE = { staff: ['compliance'] } as const;
const FINANCE = { staff: ['finance'] } as const;
const SUPPORT = { staff: ['support'] } as const;
const SUPERADMIN = { staff: [] } as const;

const RULES: ReadonlyArray<readonly [Rule, readonly string[]]> = [
  [
    'public',
    [
      // the site, its documents and the API's description
      'GET /index.html',
      'GET /assets/index-3f9a1c.js',
      'GET /assets/index-3f9a1c.js.br',
      'GET /api/docs',
      'GET /api/docs/json',
      'GET /api/docs/yaml',
      'GET /api/docs/static/*',
      'GET /api/docs/static/index.html',
      'GET /api/docs/static/swagger-initializer.js',
      'GET /api/v1/health',
      'GET /api/v1/ready',
      'GET /api/v1/site',
      'GET /api/v1/csrf',
      'GET /api/v1/fees',
      'GET /api/crypto/coins',
      'GET /crypto/price-feed',
      'GET /ws',
      'GET /api/v1/market-data/histoday',
      'GET /api/v1/market-data/histohour',
      'GET /api/v1/market-data/histominute',
      // signing up and in
      'GET /api/v1/captcha/challenge',
      'POST /api/v1/user-register',
      'POST /api/v1/user-verify/:token',
      'POST /api/v1/users/email-resend-verification/:userId',
      'POST /api/v1/login',
      'POST /api/v1/login-2fa',
      'POST /api/v1/password/email',
      'POST /api/v1/password/reset',
      'GET /api/v1/settings/email/confirm/:token',
      'POST /api/v1/referral_custom/:id',
      // the public site's forms
      'POST /api/v1/inquire/:type',
      'POST /api/v1/newsletter',
      'POST /api/v1/newsletter/confirm/:token',
      'POST /api/v1/newsletter/unsubscribe/:token',
      // the back office's own sign-in
      'POST /api/admin/login',
      'POST /api/admin/login-2fa',
      'POST /api/admin/set-password',
    ],
  ],
  [
    'customer',
    [
      // the account, its security and its verification
      'GET /api/v1/user',
      'PUT /api/v1/users',
      'PUT /api/v1/users/account_type',
      'PUT /api/v1/users/ico_confirm',
      'PUT /api/v1/users/:id/notifications',
      'PUT /api/v1/settings/change-password',
      'POST /api/v1/settings/email',
      'GET /api/v1/two-factor-authentication/generate',
      'POST /api/v1/two-factor-authentication/toggle',
      'POST /api/v1/settings/api-token',
      'POST /api/v1/generate-api',
      'GET /api/v1/get-api-tokens/:user_id',
      'POST /api/v1/delete-permission/:id',
      'POST /api/v1/settings/kyc/create',
      'POST /api/v1/settings/kyc/update',
      'POST /api/v1/users/corporate/company',
      'POST /api/v1/users/corporate/company-director',
      'PUT /api/v1/users/corporate/company-director/:id',
      'DELETE /api/v1/users/corporate/company-director/:id',
      'POST /api/v1/users/corporate/company-director/:id/document-upload',
      'POST /api/v1/user/id-proof',
      'POST /api/v1/user/documents/upload',
      'GET /api/v1/user/documents/:id/file',
      'GET /api/v1/motd',
      // fiat
      'GET /api/v1/bank-account/details',
      'POST /api/v1/bank-account/create',
      'PUT /api/v1/bank-account/update',
      'GET /api/v1/bank-account/deposit',
      'GET /api/v1/fiat/withdraw-info',
      'GET /api/v1/fiat/transactions',
      // whitelists
      'GET /api/v1/wallet-address/list',
      'POST /api/v1/wallet-address/create',
      'POST /api/v1/send-verify-wallet-address',
      'POST /api/v1/verify-wallet-address',
      'DELETE /api/v1/wallet-address/destroy/:id',
      'POST /api/v1/ipaddress/:userIdentification/whitelist',
      'GET /api/v1/ipaddress/:userId/fetchwhitelist',
      'POST /api/v1/ipaddress/:userIdentification/whitelist/:id/remove',
      // crypto
      'GET /api/v1/user/wallet-addresses',
      'GET /api/v1/user/generate-deposit-address/:coin_id',
      'GET /api/v1/user/crypto-deposits',
      'GET /api/v1/crypto/withdraw-info',
      'GET /api/v1/crypto/transactions',
      // portfolio and tax
      'GET /api/v1/balance',
      'GET /api/v1/user/fiat-crypto-transactions',
      'GET /api/v1/user/pending-transactions',
      'GET /api/v1/user/transactions',
      'GET /api/v1/crypto/transactions/export',
      'GET /api/v1/tax/capital-gains',
      'GET /api/v1/tax/capital-gains/export',
      // the first-investment journey
      'GET /api/v1/investor/journey',
      'POST /api/v1/investor/categorisation',
      'POST /api/v1/investor/assessment',
      'POST /api/v1/investor/assessment/:attemptId',
      'POST /api/v1/investor/warnings/shown',
      'POST /api/v1/investor/confirm',
      // trading
      'GET /api/v1/trading/terms',
      'POST /api/v1/quotes',
      'POST /api/v1/order',
      'POST /api/v1/crypto/buy',
      'POST /api/v1/crypto/sell',
      'POST /api/v1/crypto/limit_order',
      'GET /api/v1/crypto/limit_orders',
      'GET /api/v1/crypto/limit_order',
      'GET /api/v1/crypto/positions',
      // term deposits, auto trade, referrals
      'GET /api/v1/term-deposit-coins',
      'GET /api/v1/term-deposit-transactions',
      'POST /api/v1/crypto/term-deposit',
      'GET /api/v1/user/autobuy/:id',
      'POST /api/v1/user/autobuy/:id',
      'DELETE /api/v1/user/autobuy/:id',
      'GET /api/v1/user/referrals',
      'GET /api/v1/user/referral_custom',
      'POST /api/v1/user/referral_custom',
      'GET /api/v1/user/affiliate-earnings/:flag',
      'GET /api/v1/user/affiliate-codes',
      'POST /api/v1/affiliate-codes/assign',
    ],
  ],
  [
    'customer, terminated too',
    [
      'POST /api/v1/logout',
      'POST /api/v1/account/close',
      'POST /api/v1/mobile/request-2fa',
      'POST /api/v1/users/withdraw',
      'POST /api/v1/users/withdraw/:id/cancel',
      'POST /api/v1/crypto/send-verify-withdraw',
      'POST /api/v1/crypto/withdrawals/:id/resend-code',
      'POST /api/v1/crypto/verify-withdraw',
      'POST /api/v1/crypto/withdraw',
      'POST /api/v1/crypto/withdrawals/:id/cancel',
      // what an open order holds comes back, to be withdrawn
      'POST /api/v1/crypto/limit_order/:id/cancel',
      // referral earnings paid out to the customer's bank
      'POST /api/v1/user/affiliate-withdraw',
    ],
  ],
  [
    SUPPORT_COMPLIANCE_FINANCE,
    [
      'GET /api/admin/me',
      'POST /api/admin/logout',
      'GET /api/admin/customers',
      'GET /api/admin/customers/:userId',
      'GET /api/admin/customers/:userId/balances',
      'GET /api/admin/customers/:userId/ledger',
      'GET /api/admin/customers/:userId/sessions',
    ],
  ],
  [
    SUPPORT_COMPLIANCE,
    [
      'POST /api/admin/customers/:userId/email-codes',
      'POST /api/admin/customers/:userId/reset-2fa',
      'POST /api/admin/customers/:userId/sign-out',
      'PUT /api/admin/customers/:userId/identity',
    ],
  ],
  [COMPLIANCE_FINANCE, ['GET /api/admin/reports/carf', 'GET /api/admin/ledger-check']],
  [SUPPORT_FINANCE, ['GET /api/admin/upgrades']],
  [
    COMPLIANCE,
    [
      'GET /api/admin/audit-log',
      'GET /api/admin/compliance/queue',
      'GET /api/admin/compliance/cases/:userId',
      'POST /api/admin/compliance/cases/:userId/hold',
      'POST /api/admin/compliance/cases/:userId/lift-hold',
      'POST /api/admin/compliance/cases/:userId/make-live',
      'POST /api/admin/compliance/cases/:userId/reset-source-of-wealth',
      'GET /api/admin/documents/:id/file',
      'POST /api/admin/documents/:id/approve',
      'POST /api/admin/documents/:id/decline',
      'GET /api/admin/customers/:userId/investor-evidence',
      'GET /api/admin/customers/:userId/investor-evidence/export',
      'POST /api/admin/customers/:userId/legal-hold',
      'POST /api/admin/customers/:userId/terminate',
      'GET /api/admin/sanctions/list',
      'POST /api/admin/sanctions/list',
      'GET /api/admin/sanctions/hits',
      'POST /api/admin/sanctions/hits/:id/false-positive',
      'POST /api/admin/sanctions/hits/:id/confirm',
      'POST /api/admin/sanctions/hits/:id/delisted',
      'GET /api/admin/sanctions/customers/:userId/screenings',
    ],
  ],
  [
    FINANCE,
    [
      'GET /api/admin/fiat/settings',
      'PUT /api/admin/fiat/settings/:currency',
      'GET /api/admin/fiat/customers/:userId/bank-accounts',
      'POST /api/admin/fiat/bank-accounts/:id/verify',
      'GET /api/admin/fiat/deposits',
      'POST /api/admin/fiat/deposits',
      'POST /api/admin/fiat/deposits/import',
      'POST /api/admin/fiat/deposits/:id/assign',
      'POST /api/admin/fiat/deposits/:id/return',
      'GET /api/admin/fiat/withdrawals',
      'POST /api/admin/fiat/withdrawals/export',
      'POST /api/admin/fiat/withdrawals/:id/approve',
      'POST /api/admin/fiat/withdrawals/:id/paid',
      'POST /api/admin/fiat/withdrawals/:id/reject',
      'GET /api/admin/crypto/deposits',
      'POST /api/admin/crypto/deposits/:id/assign',
      'POST /api/admin/crypto/deposits/:id/return',
      'POST /api/admin/crypto/simulated-chain/deposit',
      'POST /api/admin/crypto/simulated-chain/drop',
      'POST /api/admin/crypto/simulated-chain/mine',
      'GET /api/admin/crypto/withdrawal-settings',
      'PUT /api/admin/crypto/withdrawal-settings/:coin_id',
      'GET /api/admin/crypto/withdrawals',
      'GET /api/admin/crypto/withdrawals/:id/signing-request',
      'POST /api/admin/crypto/withdrawals/:id/approve',
      'POST /api/admin/crypto/withdrawals/:id/send',
      'POST /api/admin/crypto/withdrawals/:id/confirm',
      'POST /api/admin/crypto/withdrawals/:id/reject',
      'GET /api/admin/trading/coins',
      'PUT /api/admin/trading/coins/:coin_id',
      'GET /api/admin/trading/currencies',
      'PUT /api/admin/trading/currencies/:code',
      'GET /api/admin/trading/fee-plans',
      'PUT /api/admin/trading/fee-plans/:user_id',
      'PUT /api/admin/trading/fee-schedule',
      'GET /api/admin/trading/inventory',
      'GET /api/admin/term-deposits/options',
      'POST /api/admin/term-deposits/options',
      'PUT /api/admin/term-deposits/options/:id',
      'GET /api/admin/affiliate-claims',
      'POST /api/admin/affiliate-claims/:id/paid',
      'POST /api/admin/affiliate-claims/:id/reject',
    ],
  ],
  [
    SUPPORT,
    [
      'GET /api/admin/enquiries',
      'GET /api/admin/mail/failed',
      'POST /api/admin/mail/:id/resend',
      'GET /api/admin/motd',
      'POST /api/admin/motd',
      'DELETE /api/admin/motd/:id',
      'GET /api/admin/newsletter/subscribers',
      'GET /api/admin/newsletter/subscribers.csv',
    ],
  ],
  [
    SUPERADMIN,
    [
      'GET /api/admin/staff',
      'POST /api/admin/staff',
      'PUT /api/admin/staff/:staffId/role',
      'POST /api/admin/staff/:staffId/disable',
      'POST /api/admin/staff/:staffId/enable',
      'POST /api/admin/staff/:staffId/password-link',
      'POST /api/admin/staff/:staffId/reset-2fa',
      'GET /api/admin/upgrades/webhook',
      'PUT /api/admin/upgrades/webhook',
      'GET /api/admin/promo-codes',
      'POST /api/admin/promo-codes',
      'PUT /api/admin/promo-codes/:id/active',
      'GET /api/admin/referrals/policy',
      'PUT /api/admin/referrals/policy',
      'GET /api/admin/referrals/partners/:user_id',
      'PUT /api/admin/referrals/partners/:user_id',
    ],
  ],
];

/** Every refusal is one of these: a 401, a 403 or a 404, with its code. Anything else: the caller was let in. */
const LET_IN = 'let in';
const SIGN_IN = '401 UNAUTHENTICATED';
const TERMINATED = '403 ACCOUNT_TERMINATED';
export const NOT_FOUND = '404 NOT_FOUND';
const NOT_LIVE = '403 ACCOUNT_NOT_LIVE';

/**
 * Where a caller the door lets in is refused by the route itself: reads run
 * their handler on the probe, so their gates show. Changes stop at their
 * contract on the probe; their gates are in their modules' tests.
 */
const ROUTE_ANSWERS: Record<string, Partial<Record<Caller, string>>> = {
  // The journey is for live accounts (issue 13).
  'GET /api/v1/investor/journey': { 'verified, not live': NOT_LIVE, 'on hold': NOT_LIVE },
  // Where to send money, only to those who may deposit it (spec 001).
  'GET /api/v1/bank-account/deposit': { 'verified, not live': NOT_LIVE, 'on hold': NOT_LIVE },
  // The capital gains report is an individual's: a company has none.
  'GET /api/v1/tax/capital-gains': { 'live corporate': NOT_FOUND },
  'GET /api/v1/tax/capital-gains/export': { 'live corporate': NOT_FOUND },
  // A custom referral link is for affiliate partners only, which none of these callers is.
  'GET /api/v1/user/referral_custom': Object.fromEntries(
    CUSTOMERS.map((caller) => [caller, '403 FORBIDDEN']),
  ),
  // "0" names nobody's whitelist, and another's is answered the same way (foreign objects below).
  'GET /api/v1/ipaddress/:userId/fetchwhitelist': Object.fromEntries(
    CUSTOMERS.map((caller) => [caller, NOT_FOUND]),
  ),
  // A plain GET is no websocket upgrade: 404 for all (realtime.test.ts signs sockets in).
  'GET /ws': Object.fromEntries(CALLERS.map((caller) => [caller, '404 undefined'])),
};

export function expectedAnswer(rule: Rule, caller: Caller, route: string, method: string): string {
  const door = doorAnswer(rule, caller, method);
  return door === LET_IN ? (ROUTE_ANSWERS[route]?.[caller] ?? LET_IN) : door;
}

function doorAnswer(rule: Rule, caller: Caller, method: string): string {
  if (rule === 'public') return LET_IN;
  const isStaff = (STAFF as readonly Caller[]).includes(caller);
  if (typeof rule === 'object') {
    const admitted = caller === 'superadmin' || rule.staff.includes(caller as StaffRole);
    return isStaff && admitted ? LET_IN : NOT_FOUND;
  }
  if (!(CUSTOMERS as readonly Caller[]).includes(caller)) return SIGN_IN;
  if (caller === 'terminated' && rule === 'customer' && STATE_CHANGING.has(method)) return TERMINATED;
  return LET_IN;
}

export function answerOf(response: LightMyRequestResponse): string {
  if (![401, 403, 404].includes(response.statusCode)) return LET_IN;
  const code = response.headers['content-type']?.toString().includes('json')
    ? response.json<{ code?: string }>().code
    : undefined;
  return `${response.statusCode} ${code}`;
}

/**
 * A path parameter's value that its contract refuses where one short value is
 * refused (a caller let in then gets a 422 and touches nothing); otherwise "0",
 * an object that does not exist, or is not the caller's.
 */
function probeValue(schema: unknown, name: string): string {
  const field = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>)[name] : undefined;
  return ['0', 'x'].find((value) => !field?.safeParse(value).success) ?? '0';
}

export function probeUrl(route: AppRoute): string {
  return route.url
    .replace(/\*$/, 'swagger-ui.css')
    .replace(/:(\w+)/g, (_match, name: string) => probeValue(route.schema.params, name));
}

export function ruleOf(): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  for (const [rule, routes] of RULES)
    for (const route of routes) {
      if (rules.has(route)) throw new Error(`${route} is written twice`);
      rules.set(route, rule);
    }
  return rules;
}
