import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StaffRole } from '@florin/contracts';
import type { AppRoute } from '../http/route.js';
import { DIRECTOR, filePart, jpeg, multipart } from '../modules/kyc/kyc.test-kit.js';
import { liveCustomer, newIdempotencyKey, readyBankAccount, withdraw } from '../modules/fiat/fiat.test-kit.js';
import { expectLedgerToHold, fund } from '../test/ledger.js';
import { signedInStaff, STAFF_PASSWORD, type SignedInStaff } from '../test/admin.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createBrowser, type Browser } from '../test/browser.js';
import { changedTables, databaseFingerprint } from '../test/fingerprint.js';
import { browserHeaders, STATE_CHANGING, sweptRoutes, WRITES_ON_GET } from '../test/route-sweep.js';

/**
 * Issue 15, the authorization matrix: every route of the running app × every
 * kind of caller, against who may call each route as written here, apart
 * from the code. A route added tomorrow fails this suite until someone
 * writes down who may call it. API tokens have their own matrix
 * (modules/api-tokens/permission-matrix.test.ts: every customer route × the
 * four permissions × a deleted token); foreign objects are below.
 *
 * What is compared is the door's answer. Every caller sends input that fails
 * the route's contract (a path parameter that cannot be valid, a body with a
 * field no contract names), so a caller let in gets the contract's 422 (or a
 * read's answer) and nothing changes, while a caller kept out gets the door's
 * refusal, which comes before validation.
 */

type Caller =
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
const STAFF = ['support', 'compliance', 'finance', 'superadmin'] as const satisfies StaffRole[];
const CALLERS: readonly Caller[] = ['anonymous', 'unverified e-mail', ...CUSTOMERS, ...STAFF];

/**
 * Who may call a route: anyone; any signed-in customer (a terminated one only
 * reads); any customer, terminated too (withdrawing and leaving, issue 13); or
 * staff of the roles listed (a superadmin always).
 */
type Rule = 'public' | 'customer' | 'customer, terminated too' | { staff: readonly StaffRole[] };

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
const NOT_FOUND = '404 NOT_FOUND';
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

function expectedAnswer(rule: Rule, caller: Caller, route: string, method: string): string {
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

function answerOf(response: LightMyRequestResponse): string {
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

function probeUrl(route: AppRoute): string {
  return route.url
    .replace(/\*$/, 'swagger-ui.css')
    .replace(/:(\w+)/g, (_match, name: string) => probeValue(route.schema.params, name));
}

let t: TestApp;
const browsers = new Map<Caller, Browser>();
const staff = new Map<StaffRole, SignedInStaff>();

function staffOf(role: StaffRole): SignedInStaff {
  const member = staff.get(role);
  if (!member) throw new Error(`no ${role} signed in`);
  return member;
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  const db = t.database.db;

  const anonymous = createBrowser(t.app);
  await anonymous.get('/api/v1/csrf');
  browsers.set('anonymous', anonymous);

  // Registered but never confirmed: the right password still opens no session.
  const unverified = createBrowser(t.app);
  const email = `unverified.${Date.now()}@example.com`;
  const registered = await unverified.post('/api/v1/user-register', {
    first_name: 'Una',
    last_name: 'Verified',
    email,
    password: STAFF_PASSWORD,
    password_confirmation: STAFF_PASSWORD,
    accept_terms_and_privacy: true,
  });
  expect(registered.statusCode).toBe(201);
  const login = await unverified.post('/api/v1/login', {
    username: email,
    password: STAFF_PASSWORD,
    altcha: await unverified.captcha(),
  });
  expect([login.statusCode, login.json<{ code: string }>().code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
  expect(unverified.cookies.has('access_token')).toBe(false);
  browsers.set('unverified e-mail', unverified);

  browsers.set('verified, not live', (await liveCustomer(t, { live: false })).browser);
  browsers.set('live individual', (await liveCustomer(t)).browser);
  browsers.set('live corporate', (await liveCustomer(t, { accountType: 'Corporate' })).browser);
  const onHold = await liveCustomer(t);
  await db.updateTable('users').set({ block_status: 2 }).where('id', '=', onHold.id).execute();
  browsers.set('on hold', onHold.browser);
  for (const role of STAFF) staff.set(role, await signedInStaff(t.app, db, role));
  // Terminated by compliance, and the month's notice run out: the account may still read,
  // withdraw and leave until its access ends.
  const terminated = await liveCustomer(t);
  const notice = await staffOf('compliance').browser.post(`/api/admin/customers/${terminated.id}/terminate`, {
    reason: 'Repeated breaches of the terms.',
  });
  expect(notice.statusCode).toBe(200);
  await db
    .updateTable('users')
    .set((eb) => ({
      termination_notice_at: sql`${eb.ref('termination_notice_at')} - interval '31 days'`,
      terminated_at: sql`${eb.ref('terminated_at')} - interval '31 days'`,
      access_ends_at: sql`${eb.ref('access_ends_at')} - interval '31 days'`,
    }))
    .where('id', '=', terminated.id)
    .execute();
  browsers.set('terminated', terminated.browser);

  for (const role of STAFF) browsers.set(role, staffOf(role).browser);
});
afterAll(async () => {
  await t.close();
});

function ruleOf(): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  for (const [rule, routes] of RULES)
    for (const route of routes) {
      if (rules.has(route)) throw new Error(`${route} is written twice`);
      rules.set(route, rule);
    }
  return rules;
}

describe('the authorization matrix', () => {
  it('has a rule written for every route the app has, and for no route it does not have', () => {
    const routes = sweptRoutes(t.app).map((route) => `${route.method} ${route.url}`);
    expect([...ruleOf().keys()].sort()).toEqual([...new Set(routes)].sort());
  });

  it('answers every caller on every route as the rules say, and the probes change nothing', async () => {
    const rules = ruleOf();
    const before = await databaseFingerprint(t.database.db);
    const differences: string[] = [];
    let cells = 0;
    for (const route of sweptRoutes(t.app)) {
      const key = `${route.method} ${route.url}`;
      const rule = rules.get(key);
      if (!rule) throw new Error(`no rule for ${key}`);
      for (const caller of CALLERS) {
        const browser = browsers.get(caller);
        if (!browser) throw new Error(`no browser for ${caller}`);
        const response = await t.app.inject({
          method: route.method as InjectOptions['method'],
          url: probeUrl(route),
          headers: browserHeaders(browser, route.method, true),
          remoteAddress: browser.ip,
          // A field no contract names: refused by every strict body once the door has let the caller in.
          ...(STATE_CHANGING.has(route.method) ? { payload: { matrix_probe: 1 } } : {}),
        });
        cells += 1;
        expect(response.statusCode, `${key} as ${caller}`).toBeLessThan(500);
        const expected = expectedAnswer(rule, caller, key, route.method);
        const answer = answerOf(response);
        if (answer !== expected) differences.push(`${key} as ${caller}: ${answer}, expected ${expected}`);
      }
    }
    expect(differences).toEqual([]);
    expect(cells).toBeGreaterThan(2_000);
    // Sessions are touched as they are used, and the GETs that write are the sweep's known few.
    const mayChange = new Set(['sessions', ...Object.values(WRITES_ON_GET).flatMap((get) => get.tables)]);
    const changed = changedTables(before, await databaseFingerprint(t.database.db));
    expect(changed.filter((table) => !mayChange.has(table))).toEqual([]);
  });
});

/**
 * Foreign objects: one customer's real objects, each named by another
 * customer on every route that takes an object in its path. Every answer is
 * the 404 of an object that does not exist, nothing of the owner's shows, and
 * nothing changes. Both are live companies on the trading platform, so no
 * other rule (an individual's route, the instant platform) answers first.
 */
const ADDRESS = { address: '1 Hidden Mews', city: 'London', country: 'GB', zip: 'SW1A 1AA' } as const;

describe('foreign objects', () => {
  /** Path parameters that name no object of anyone's: a coin, a flag. */
  const NOT_OBJECTS = [
    'GET /api/v1/user/generate-deposit-address/:coin_id',
    'GET /api/v1/user/affiliate-earnings/:flag',
  ];

  type Probe = { route: string; call: (intruder: Browser) => Promise<LightMyRequestResponse> };
  let probes: Probe[];
  let owner: Awaited<ReturnType<typeof liveCustomer>>;

  beforeAll(async () => {
    const db = t.database.db;
    owner = await liveCustomer(t, {
      accountType: 'Corporate',
      firstName: 'Ownerina',
      lastName: 'Secretworth',
    });
    await db.updateTable('users').set({ platform: 2 }).where('id', '=', owner.id).execute();

    const company = await db
      .updateTable('companies')
      .set({ name: 'Owner Holdings Ltd', company_number: '07654321', ...ADDRESS })
      .where('user_id', '=', owner.id)
      .returning('id')
      .executeTakeFirstOrThrow();
    const director = await db
      .updateTable('company_directors')
      .set({ first_name: 'Direktor', last_name: 'Secretworth', ...ADDRESS })
      .where('company_id', '=', company.id)
      .returning('id')
      .executeTakeFirstOrThrow();
    const document = await db
      .insertInto('kyc_documents')
      .values({
        user_id: owner.id,
        director_id: null,
        key: 'passport',
        storage_key: 'kyc/owner-passport.jpg',
        content_type: 'image/jpeg',
        original_name: 'owner-passport.jpg',
        size_bytes: 1,
        sha256: '0'.repeat(64),
        disapprove_note: null,
        reviewed_by_staff_id: null,
        reviewed_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const wallet = await db
      .insertInto('whitelisted_wallets')
      .values({
        user_id: owner.id,
        asset: 'BTC',
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        tag: null,
        label: 'Owner cold wallet',
        usable_from: new Date(),
        removal_verified_until: null,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ip = await db
      .insertInto('whitelisted_ips')
      .values({
        user_id: owner.id,
        ip_address: owner.browser.ip,
        city: null,
        country: null,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tokenId = `tok_${owner.id}_matrix`;
    await db
      .insertInto('api_tokens')
      .values({
        id: tokenId,
        user_id: owner.id,
        token_hash: '1'.repeat(64),
        prefix: 'flr_matrix',
        permission_id: 1,
        ip_allowlist: null,
        deleted_at: null,
        last_used_at: null,
      })
      .execute();
    const autoTrade = await db
      .insertInto('auto_trades')
      .values({ user_id: owner.id, type: 'sell', asset: 'BTC', cancelled_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const attempt = await db
      .insertInto('assessment_attempts')
      .values({
        id: randomUUID(),
        user_id: owner.id,
        questions: JSON.stringify([]),
        submitted_at: null,
        score: null,
        total: null,
        passed: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    // The money objects, made as the owner makes them: each holds the owner's funds.
    await readyBankAccount(t, owner);
    await fund(t.ledger, db, owner.id, 'GBP', 10_000n);
    await fund(t.ledger, db, owner.id, 'BTC', 20_000_000n);
    expect((await withdraw(owner, { amount: '50' })).statusCode).toBe(200);
    const cryptoWithdrawal = await owner.browser.post(
      '/api/v1/crypto/send-verify-withdraw',
      {
        coin: 'btc',
        wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        beneficiary_type: 'self',
        destination_type: 'private_wallet',
        amount: '0.1',
      },
      { headers: { 'idempotency-key': newIdempotencyKey() } },
    );
    expect(cryptoWithdrawal.statusCode, cryptoWithdrawal.body).toBe(200);
    const order = await owner.browser.post(
      '/api/v1/crypto/limit_order',
      { coin_id: 'btc', order_type: 2, side: 2, order_qty: '0.01', price: '999999' },
      { headers: { 'idempotency-key': newIdempotencyKey() } },
    );
    expect(order.statusCode, order.body).toBe(200);
    const idOf = async (table: 'fiat_withdrawals' | 'crypto_withdrawals' | 'orders') =>
      (await db.selectFrom(table).select('id').where('user_id', '=', owner.id).executeTakeFirstOrThrow()).id;
    const fiatId = await idOf('fiat_withdrawals');
    const cryptoId = await idOf('crypto_withdrawals');
    const orderId = await idOf('orders');

    const passcode = '123456';
    probes = [
      {
        route: 'GET /api/v1/get-api-tokens/:user_id',
        call: (b) => b.get(`/api/v1/get-api-tokens/${owner.id}`),
      },
      {
        route: 'POST /api/v1/delete-permission/:id',
        call: (b) => b.post(`/api/v1/delete-permission/${tokenId}`),
      },
      {
        route: 'PUT /api/v1/users/:id/notifications',
        call: (b) =>
          b.put(`/api/v1/users/${owner.id}/notifications`, {
            login_notifications: false,
            loginout_notifications: false,
            marketing_notifications: true,
            trade_notifications: false,
          }),
      },
      {
        route: 'PUT /api/v1/users/corporate/company-director/:id',
        call: (b) => b.put(`/api/v1/users/corporate/company-director/${director.id}`, DIRECTOR),
      },
      {
        route: 'DELETE /api/v1/users/corporate/company-director/:id',
        call: (b) => b.delete(`/api/v1/users/corporate/company-director/${director.id}`),
      },
      {
        route: 'POST /api/v1/users/corporate/company-director/:id/document-upload',
        call: async (b) => {
          const form = multipart([{ name: 'type', value: 'passport' }, filePart(await jpeg(), 'p.jpg')]);
          return t.app.inject({
            method: 'POST',
            url: `/api/v1/users/corporate/company-director/${director.id}/document-upload`,
            headers: { ...browserHeaders(b, 'POST', true), ...form.headers },
            remoteAddress: b.ip,
            payload: form.payload,
          });
        },
      },
      {
        route: 'GET /api/v1/user/documents/:id/file',
        call: (b) => b.get(`/api/v1/user/documents/${document.id}/file`),
      },
      {
        route: 'POST /api/v1/users/withdraw/:id/cancel',
        call: (b) => b.post(`/api/v1/users/withdraw/${fiatId}/cancel`),
      },
      {
        route: 'DELETE /api/v1/wallet-address/destroy/:id',
        call: (b) => b.delete(`/api/v1/wallet-address/destroy/${wallet.id}`),
      },
      {
        route: 'POST /api/v1/ipaddress/:userIdentification/whitelist',
        call: (b) => b.post(`/api/v1/ipaddress/${owner.reference}/whitelist`, { ip_address: b.ip, passcode }),
      },
      {
        route: 'GET /api/v1/ipaddress/:userId/fetchwhitelist',
        call: (b) => b.get(`/api/v1/ipaddress/${owner.reference}/fetchwhitelist`),
      },
      {
        route: 'POST /api/v1/ipaddress/:userIdentification/whitelist/:id/remove',
        call: (b) => b.post(`/api/v1/ipaddress/${owner.reference}/whitelist/${ip.id}/remove`, { passcode }),
      },
      {
        route: 'POST /api/v1/crypto/withdrawals/:id/resend-code',
        call: (b) => b.post(`/api/v1/crypto/withdrawals/${cryptoId}/resend-code`),
      },
      {
        route: 'POST /api/v1/crypto/withdrawals/:id/cancel',
        call: (b) => b.post(`/api/v1/crypto/withdrawals/${cryptoId}/cancel`),
      },
      {
        route: 'POST /api/v1/investor/assessment/:attemptId',
        call: (b) => b.post(`/api/v1/investor/assessment/${attempt.id}`, { answers: {} }),
      },
      {
        route: 'POST /api/v1/crypto/limit_order/:id/cancel',
        call: (b) => b.post(`/api/v1/crypto/limit_order/${orderId}/cancel`),
      },
      { route: 'GET /api/v1/user/autobuy/:id', call: (b) => b.get(`/api/v1/user/autobuy/${owner.id}`) },
      {
        route: 'POST /api/v1/user/autobuy/:id',
        call: (b) => b.post(`/api/v1/user/autobuy/${owner.id}`, { type: 'buy', coin_id: 'btc', passcode }),
      },
      {
        route: 'DELETE /api/v1/user/autobuy/:id',
        call: (b) => b.delete(`/api/v1/user/autobuy/${autoTrade.id}`),
      },
    ];
  });

  it('probes every customer route that names an object in its path', () => {
    const objectRoutes = sweptRoutes(t.app)
      .filter((route) => route.access === 'customer' && route.url.includes('/:'))
      .map((route) => `${route.method} ${route.url}`)
      .filter((route) => !NOT_OBJECTS.includes(route));
    expect(probes.map((probe) => probe.route).sort()).toEqual(objectRoutes.sort());
  });

  it("answers another customer 404 on each of them, with nothing of the owner's, and changes nothing", async () => {
    // Mid-journey, with an assessment of its own under way: the owner's attempt is what it names.
    const intruder = await liveCustomer(t, { accountType: 'Corporate', journey: false });
    await t.database.db.updateTable('users').set({ platform: 2 }).where('id', '=', intruder.id).execute();
    const categorised = await intruder.browser.post('/api/v1/investor/categorisation', {
      category: 'large_undertaking',
      balance_sheet_total: '25000000',
      net_turnover: '1000000',
      own_funds: '2000000',
      confirmed: true,
    });
    expect(categorised.statusCode, categorised.body).toBe(200);
    expect((await intruder.browser.post('/api/v1/investor/assessment', {})).statusCode).toBe(200);
    const before = await databaseFingerprint(t.database.db);
    const answers: string[] = [];
    for (const probe of probes) {
      const response = await probe.call(intruder.browser);
      answers.push(`${probe.route}: ${answerOf(response)}`);
      for (const secret of [
        owner.email,
        owner.reference,
        'Secretworth',
        'Owner Holdings',
        'bc1qar0s',
        owner.browser.ip,
      ])
        expect(response.body, probe.route).not.toContain(secret);
    }
    expect(answers).toEqual(probes.map((probe) => `${probe.route}: ${NOT_FOUND}`));
    const changed = changedTables(before, await databaseFingerprint(t.database.db));
    expect(changed.filter((table) => table !== 'sessions')).toEqual([]);
    await expectLedgerToHold(t.database.db);
  });
});
