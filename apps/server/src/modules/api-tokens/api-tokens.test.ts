import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_TOKEN_TEXTS,
  ApiTokenSchema,
  BalancesSchema,
  CRYPTO_WITHDRAW_TEXTS,
  MAX_LIVE_API_TOKENS,
  NewApiTokenSchema,
  QuoteSchema,
  type ApiToken,
} from '@florin/contracts';
import { hashToken } from '../../security/secret-box.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { bankDeposit, coinDeposit } from '../../test/deposits.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import {
  errorOf,
  liveCustomer,
  newIdempotencyKey,
  type FiatCustomer as Customer,
} from '../fiat/fiat.test-kit.js';
import { withoutTokenInUrl } from './token-auth.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

let addresses = 0;
/** An address of its own for each API client, so the per-IP limit never mixes into these tests. */
function clientIp(): string {
  addresses += 1;
  return `198.51.${(addresses >> 8) & 255}.${addresses & 255}`;
}

type Call = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  ip?: string;
};

/** An API client: no cookies, no CSRF header, only the token. */
function withToken(token: string, call: Call) {
  return t.app.inject({
    method: call.method,
    url: call.url,
    headers: { authorization: `Bearer ${token}`, ...call.headers },
    remoteAddress: call.ip ?? clientIp(),
    ...(call.body ? { payload: call.body } : {}),
  });
}

async function firstToken(customer: Customer) {
  const response = await customer.browser.post('/api/v1/settings/api-token');
  expect(response.statusCode, response.body).toBe(200);
  return NewApiTokenSchema.parse(response.json()).data;
}

async function anotherToken(customer: Customer, body: Record<string, unknown>) {
  const response = await customer.browser.post('/api/v1/generate-api', body);
  expect(response.statusCode, response.body).toBe(200);
  return NewApiTokenSchema.parse(response.json()).data;
}

async function listed(customer: Customer): Promise<ApiToken[]> {
  const response = await customer.browser.get(`/api/v1/get-api-tokens/${customer.id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: unknown[] }>().data.map((row) => ApiTokenSchema.parse(row));
}

describe('generating, listing and deleting API tokens', () => {
  it('shows a new token once, keeps only its hash, and lists it by a masked prefix', async () => {
    const customer = await liveCustomer(t);
    const response = await customer.browser.post('/api/v1/settings/api-token');
    expect(response.statusCode, response.body).toBe(200);
    const { message, data } = NewApiTokenSchema.parse(response.json());
    expect(message).toBe(API_TOKEN_TEXTS.generated);
    expect(data.token).toMatch(/^flr_[A-Za-z0-9_-]{40}$/);
    expect(data.api_token).toMatchObject({
      api_token: `${data.token.slice(0, 8)}…`,
      api_token_permission_id: 1,
      deleted_at: null,
      ip_allowlist: null,
    });

    const rows = await db().selectFrom('api_tokens').selectAll().where('user_id', '=', customer.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hashToken(data.token));
    expect(JSON.stringify(rows)).not.toContain(data.token);

    const list = await listed(customer);
    expect(list).toEqual([data.api_token]);
    expect(JSON.stringify(list)).not.toContain(data.token);

    // The first token is made once; others come with a permission.
    const again = await customer.browser.post('/api/v1/settings/api-token');
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(API_TOKEN_TEXTS.alreadyHasToken);
  });

  it('generates another token with a permission and an IP allowlist, and checks both', async () => {
    const customer = await liveCustomer(t);
    const trade = await anotherToken(customer, {
      permission_id: 4,
      ip_allowlist: ['203.0.113.7', '2001:db8::/32'],
    });
    expect(trade.api_token).toMatchObject({
      api_token_permission_id: 4,
      ip_allowlist: ['203.0.113.7', '2001:db8::/32'],
    });

    for (const [body, field] of [
      [{ permission_id: 5 }, 'permission_id'],
      [{}, 'permission_id'],
      [{ permission_id: 1, ip_allowlist: ['not-an-ip'] }, 'ip_allowlist.0'],
      [{ permission_id: 1, token: 'flr_mine' }, 'token'],
    ] as const) {
      const refused = await customer.browser.post('/api/v1/generate-api', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(errorOf(refused).errors ?? {})).toContain(field);
    }
    expect(errorOf(await customer.browser.post('/api/v1/generate-api', { permission_id: 9 })).errors).toEqual(
      {
        permission_id: [API_TOKEN_TEXTS.permissionRequired],
      },
    );
  });

  it(`allows at most ${MAX_LIVE_API_TOKENS} live tokens; a deleted one frees a place`, async () => {
    const customer = await liveCustomer(t);
    const made = [];
    for (let i = 0; i < MAX_LIVE_API_TOKENS; i += 1)
      made.push(await anotherToken(customer, { permission_id: 1 }));
    const refused = await customer.browser.post('/api/v1/generate-api', { permission_id: 1 });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(API_TOKEN_TEXTS.tooMany);
    const deleted = await customer.browser.post(`/api/v1/delete-permission/${made[0]?.api_token.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await anotherToken(customer, { permission_id: 1 });
  });

  it('deletes softly: the token stays listed as deleted and is refused from then on', async () => {
    const customer = await liveCustomer(t);
    const { token, api_token } = await firstToken(customer);
    expect((await withToken(token, { method: 'GET', url: '/api/v1/balance' })).statusCode).toBe(200);

    const response = await customer.browser.post(`/api/v1/delete-permission/${api_token.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: API_TOKEN_TEXTS.deleted });

    const [row] = await listed(customer);
    expect(row).toMatchObject({ id: api_token.id, api_token: api_token.api_token });
    expect(row?.deleted_at).not.toBeNull();

    const refused = await withToken(token, { method: 'GET', url: '/api/v1/balance' });
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused).message).toBe(API_TOKEN_TEXTS.tokenRefused);
    const unknown = await withToken(`flr_${'x'.repeat(40)}`, { method: 'GET', url: '/api/v1/balance' });
    expect(unknown.statusCode).toBe(401);

    // Deleted already: nothing more to delete.
    expect((await customer.browser.post(`/api/v1/delete-permission/${api_token.id}`)).statusCode).toBe(409);
    // After all were deleted, a first token can be made again.
    await firstToken(customer);
  });

  it('shows and deletes only the caller’s own tokens: another customer’s are not found', async () => {
    const owner = await liveCustomer(t);
    const stranger = await liveCustomer(t);
    const { token, api_token } = await firstToken(owner);
    expect((await stranger.browser.get(`/api/v1/get-api-tokens/${owner.id}`)).statusCode).toBe(404);
    expect((await stranger.browser.post(`/api/v1/delete-permission/${api_token.id}`)).statusCode).toBe(404);
    expect((await withToken(token, { method: 'GET', url: '/api/v1/balance' })).statusCode).toBe(200);
    expect(await listed(stranger)).toEqual([]);
  });

  it('refuses the token routes to API tokens, whatever their permission', async () => {
    const customer = await liveCustomer(t);
    await firstToken(customer);
    for (const permission_id of [1, 2, 3, 4]) {
      const { token, api_token } = await anotherToken(customer, { permission_id });
      for (const call of [
        { method: 'POST', url: '/api/v1/settings/api-token' },
        { method: 'POST', url: '/api/v1/generate-api', body: { permission_id: 4 } },
        { method: 'GET', url: `/api/v1/get-api-tokens/${customer.id}` },
        { method: 'POST', url: `/api/v1/delete-permission/${api_token.id}` },
      ] satisfies Call[]) {
        const response = await withToken(token, call);
        expect(response.statusCode, `${permission_id} ${call.url}`).toBe(403);
        expect(errorOf(response).message).toBe(API_TOKEN_TEXTS.tokensCannotManageTokens);
      }
    }
    expect((await listed(customer)).filter((row) => row.deleted_at === null)).toHaveLength(5);
  });

  it('needs a signed-in browser (with its CSRF header) to manage tokens', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/settings/api-token' })).statusCode).toBe(403);
    const customer = await liveCustomer(t);
    const noCsrf = await customer.browser.post('/api/v1/settings/api-token', undefined, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(await listed(customer)).toEqual([]);
  });
});

describe('API tokens on the customer API', () => {
  it('a READ token reads the balance by header and by ?token=, and is refused a trade', async () => {
    const customer = await liveCustomer(t);
    await bankDeposit(t, customer, '123.45');
    const { token } = await firstToken(customer);

    const byHeader = await withToken(token, { method: 'GET', url: '/api/v1/balance?percentage=true' });
    expect(byHeader.statusCode, byHeader.body).toBe(200);
    const fromBrowser = await customer.browser.get('/api/v1/balance?percentage=true');
    expect(BalancesSchema.parse(byHeader.json())).toEqual(BalancesSchema.parse(fromBrowser.json()));
    expect(JSON.stringify(byHeader.json())).toContain('123.45');

    const byQuery = await t.app.inject({
      method: 'GET',
      url: `/api/v1/balance?token=${token}&percentage=true`,
      remoteAddress: clientIp(),
    });
    expect(byQuery.statusCode, byQuery.body).toBe(200);
    expect(byQuery.json()).toEqual(byHeader.json());
    // Only the balance takes the token in the query.
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/fiat-crypto-transactions?token=${token}`,
      remoteAddress: clientIp(),
    });
    expect(elsewhere.statusCode).toBe(401);

    for (const call of [
      { method: 'POST', url: '/api/v1/quotes', body: { side: 'buy', coin_id: 'btc', quantity: '0.001' } },
      {
        method: 'POST',
        url: '/api/v1/crypto/buy',
        body: { coin_id: 'btc', quantity: '0.001' },
        headers: { 'idempotency-key': newIdempotencyKey() },
      },
    ] satisfies Call[]) {
      const refused = await withToken(token, call);
      expect(refused.statusCode, call.url).toBe(403);
      expect(errorOf(refused).message).toBe(API_TOKEN_TEXTS.notPermitted);
    }
    await expectLedgerToHold(db());
  });

  it('a TRADE token quotes and executes a trade without a CSRF header, and the ledger holds', async () => {
    const customer = await liveCustomer(t);
    await bankDeposit(t, customer, '1000.00');
    const drive = await t.app.inject({
      method: 'POST',
      url: '/dev/market/drive',
      payload: { symbol: 'BTC/GBP', mid: '20000' },
    });
    expect(drive.statusCode, drive.body).toBe(200);
    const { token } = await anotherToken(customer, { permission_id: 4 });

    const quoted = await withToken(token, {
      method: 'POST',
      url: '/api/v1/quotes',
      body: { side: 'buy', coin_id: 'btc', quantity: '0.01' },
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const quote = QuoteSchema.parse(quoted.json<{ data: unknown }>().data);
    const executed = await withToken(token, {
      method: 'POST',
      url: '/api/v1/order',
      body: { quote_id: quote.id },
    });
    expect(executed.statusCode, executed.body).toBe(200);

    const btc = await t.ledger.getBalance(db(), {
      asset: 'BTC',
      kind: 'available',
      ownerUserId: String(customer.id),
    });
    expect(btc.available).toBe(1_000_000n);
    const history = await withToken(token, { method: 'GET', url: '/api/v1/user/fiat-crypto-transactions' });
    expect(history.statusCode).toBe(200);
    expect(JSON.stringify(history.json())).toContain('0.01');
    await expectLedgerToHold(db());

    const row = await db()
      .selectFrom('api_tokens')
      .select('last_used_at')
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).not.toBeNull();
  });

  it('refuses a token used from outside its IP allowlist, whatever the route', async () => {
    const customer = await liveCustomer(t);
    const { token } = await anotherToken(customer, {
      permission_id: 4,
      ip_allowlist: ['192.0.2.10', '203.0.113.0/24'],
    });
    for (const ip of ['192.0.2.10', '203.0.113.200'])
      expect((await withToken(token, { method: 'GET', url: '/api/v1/balance', ip })).statusCode, ip).toBe(
        200,
      );
    for (const call of [
      { method: 'GET', url: '/api/v1/balance', ip: '192.0.2.11' },
      { method: 'POST', url: '/api/v1/settings/api-token', ip: '198.18.0.1' },
      { method: 'POST', url: '/api/v1/users/withdraw', body: {}, ip: '10.9.9.9' },
    ] satisfies Call[]) {
      const refused = await withToken(token, call);
      expect(refused.statusCode, call.url).toBe(403);
      expect(errorOf(refused).message).toBe(API_TOKEN_TEXTS.ipNotAllowed);
    }
    const byQuery = await t.app.inject({
      method: 'GET',
      url: `/api/v1/balance?token=${token}`,
      remoteAddress: '192.0.2.99',
    });
    expect(byQuery.statusCode).toBe(403);
  });

  it('a WITHDRAW SAVED ADDRESS token withdraws only to a saved address; WITHDRAW ANY ADDRESS anywhere', async () => {
    const customer = await liveCustomer(t);
    await coinDeposit(t, customer, 'btc', '1');
    const saved = await db()
      .insertInto('whitelisted_wallets')
      .values({
        user_id: customer.id,
        asset: 'BTC',
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        label: 'Cold wallet',
        usable_from: sql<Date>`now() - interval '25 hours'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const travel = { beneficiary_type: 'self', destination_type: 'private_wallet' };
    const typed = { coin: 'btc', amount: '0.1', wallet: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', ...travel };
    const toSaved = { coin: 'btc', amount: '0.1', whitelisted_wallet_id: Number(saved.id), ...travel };
    const send = (token: string, body: Record<string, unknown>) =>
      withToken(token, {
        method: 'POST',
        url: '/api/v1/crypto/send-verify-withdraw',
        body,
        headers: { 'idempotency-key': newIdempotencyKey() },
      });

    const savedOnly = (await anotherToken(customer, { permission_id: 2 })).token;
    const refused = await send(savedOnly, typed);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toBe(API_TOKEN_TEXTS.savedAddressOnly);
    const allowed = await send(savedOnly, toSaved);
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json<{ message: string }>().message).toBe(CRYPTO_WITHDRAW_TEXTS.codeSent);

    const anywhere = (await anotherToken(customer, { permission_id: 3 })).token;
    const typedOk = await send(anywhere, typed);
    expect(typedOk.statusCode, typedOk.body).toBe(200);
    // Every withdrawal check still applies: here, the balance.
    const tooMuch = await send(anywhere, { ...typed, amount: '5' });
    expect(tooMuch.statusCode).toBe(422);
    expect(errorOf(tooMuch).message).toBe(CRYPTO_WITHDRAW_TEXTS.balanceTooLow);

    for (const permission_id of [1, 4]) {
      const { token } = await anotherToken(customer, { permission_id });
      const notPermitted = await send(token, toSaved);
      expect(notPermitted.statusCode).toBe(403);
      expect(errorOf(notPermitted).message).toBe(API_TOKEN_TEXTS.notPermitted);
    }
    await expectLedgerToHold(db());
  });

  it('limits each token to its requests a minute (429), apart from the customer’s other tokens', async () => {
    const customer = await liveCustomer(t);
    const { token } = await firstToken(customer);
    const other = (await anotherToken(customer, { permission_id: 1 })).token;
    const ip = clientIp();
    for (let i = 0; i < t.config.API_TOKEN_RATE_LIMIT_PER_MINUTE; i += 1) {
      const response = await withToken(token, { method: 'GET', url: '/api/v1/trading/terms', ip });
      expect(response.statusCode, `request ${i + 1}`).toBe(200);
    }
    const limited = await withToken(token, { method: 'GET', url: '/api/v1/trading/terms', ip });
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited)).toMatchObject({ code: 'RATE_LIMITED', message: API_TOKEN_TEXTS.rateLimited });
    expect(limited.headers['retry-after']).toBe('60');
    expect((await withToken(other, { method: 'GET', url: '/api/v1/trading/terms', ip })).statusCode).toBe(
      200,
    );
  });
});

describe('the log', () => {
  it('never holds a token given in the URL', () => {
    expect(withoutTokenInUrl('/api/v1/balance?token=flr_secret&percentage=true')).toBe(
      '/api/v1/balance?token=[redacted]&percentage=true',
    );
    expect(withoutTokenInUrl('/api/v1/balance?percentage=true&TOKEN=flr_secret')).toBe(
      '/api/v1/balance?percentage=true&TOKEN=[redacted]',
    );
    expect(withoutTokenInUrl('/api/v1/balance?percentage=true')).toBe('/api/v1/balance?percentage=true');
    // The query parser decodes names, so an escaped one is a token all the same.
    expect(withoutTokenInUrl('/api/v1/balance?%74ok%65n=flr_secret&percentage=true')).toBe(
      '/api/v1/balance?%74ok%65n=[redacted]&percentage=true',
    );
  });
});

describe('the OpenAPI page', () => {
  it('shows each customer route’s token rule, the token scheme and a curl example', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const spec = response.json<{
      info: { description: string };
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<string, Record<string, { 'x-florin-token'?: string; description?: string }>>;
    }>();
    expect(spec.info.description).toContain('curl -H "Authorization: Bearer flr_');
    expect(spec.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(spec.paths['/api/v1/balance']?.get?.['x-florin-token']).toBe('read');
    expect(spec.paths['/api/v1/quotes']?.post?.['x-florin-token']).toBe('trade');
    expect(spec.paths['/api/v1/crypto/send-verify-withdraw']?.post?.['x-florin-token']).toBe('withdraw');
    expect(spec.paths['/api/v1/generate-api']?.post?.['x-florin-token']).toBe('none');
    expect(spec.paths['/api/v1/quotes']?.post?.description).toContain('TRADE only');
  });
});
