import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffRole } from '@florin/contracts';
import { DIRECTOR, filePart, jpeg, multipart } from '../modules/kyc/kyc.test-kit.js';
import {
  liveCustomer,
  newIdempotencyKey,
  readyBankAccount,
  withdraw,
  type FiatCustomer,
} from '../modules/fiat/fiat.test-kit.js';
import { bankDeposit, coinDeposit } from '../test/deposits.js';
import { expectLedgerToHold } from '../test/ledger.js';
import { signedInStaff, STAFF_PASSWORD, type SignedInStaff } from '../test/admin.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createBrowser, type Browser } from '../test/browser.js';
import { changedTables, databaseFingerprint } from '../test/fingerprint.js';
import { browserHeaders, STATE_CHANGING, sweptRoutes, WRITES_ON_GET } from '../test/route-sweep.js';
import {
  type Caller,
  STAFF,
  CALLERS,
  NOT_FOUND,
  expectedAnswer,
  answerOf,
  probeUrl,
  ruleOf,
} from './authorization-matrix.test-kit.js';

/**
 * Issue 15, the authorization matrix: every route of the running app × every
 * kind of caller, against who may call each route as written down apart
 * from the code (in authorization-matrix.test-kit.ts). A route added tomorrow fails this suite until someone
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

type Probe = { route: string; call: (intruder: Browser) => Promise<LightMyRequestResponse> };

/** The owner, a live company on the trading platform, with one of each object, and a probe per route naming one. */
async function plantOwnersObjects(): Promise<{ owner: FiatCustomer; probes: Probe[] }> {
  const db = t.database.db;
  const owner = await liveCustomer(t, {
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
  await bankDeposit(t, owner, '100.00');
  await coinDeposit(t, owner, 'btc', '0.2');
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
  const probes: Probe[] = [
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
  return { owner, probes };
}

describe('foreign objects', () => {
  /** Path parameters that name no object of anyone's: a coin, a flag. */
  const NOT_OBJECTS = [
    'GET /api/v1/user/generate-deposit-address/:coin_id',
    'GET /api/v1/user/affiliate-earnings/:flag',
  ];

  let probes: Probe[];
  let owner: FiatCustomer;

  beforeAll(async () => {
    ({ owner, probes } = await plantOwnersObjects());
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
