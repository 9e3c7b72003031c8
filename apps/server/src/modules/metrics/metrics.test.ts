import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../http/auth.js';
import { openDatabase } from '../../db/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { bankDeposit } from '../../test/deposits.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { createSessionStore } from '../auth/sessions.js';
import { liveCustomer, newIdempotencyKey } from '../fiat/fiat.test-kit.js';
import { connect } from '../realtime/realtime.test-kit.js';
import { testClock } from '../../test/clock.js';

const TOKEN = 'scrape-token-of-at-least-24-characters';

/** The value of one sample line of a Prometheus text exposition, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-z_:]+)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map<string, string | undefined>(
      [...(match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [
        key ?? '',
        value,
      ]),
    );
    if (Object.entries(labels).every(([key, value]) => found.get(key) === value)) return Number(match[4]);
  }
  return undefined;
}

describe('/metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  async function scrape(): Promise<string> {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    return response.body;
  }

  it('is a 404 without the scrape token or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-of-the-same-length!!!' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('florin_');
    }
  });

  it('counts requests by route template, never by raw URL', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    await t.app.inject({ method: 'POST', url: '/api/v1/crypto/limit_order/123456/cancel' });
    await t.app.inject({ method: 'GET', url: '/no/such/path/8f3a' });
    const text = await scrape();
    expect(sample(text, 'florin_http_requests_total', { route: '/api/v1/health', status: '200' })).toBe(1);
    expect(
      sample(text, 'florin_http_requests_total', {
        method: 'POST',
        route: '/api/v1/crypto/limit_order/:id/cancel',
      }),
    ).toBe(1);
    expect(sample(text, 'florin_http_request_duration_seconds_count', { route: '/api/v1/health' })).toBe(1);
    // Only the labels are searched: a duration figure may hold the digits 123456 by chance.
    const labels = (text.match(/\{[^}]*\}/g) ?? []).join('\n');
    expect(labels).toContain('route="unmatched"');
    expect(labels).not.toContain('123456');
    expect(labels).not.toContain('8f3a');
    expect(sample(text, 'florin_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('reports journals written, open orders, websocket clients, price ages and the leader', async () => {
    const before = sample(await scrape(), 'florin_ledger_journals_total') ?? 0;
    const customer = await liveCustomer(t);
    await t.database.db.updateTable('users').set({ platform: 2 }).where('id', '=', customer.id).execute();
    await bankDeposit(t, customer, '10000.00');
    const drive = await t.app.inject({
      method: 'POST',
      url: '/dev/market/drive',
      payload: { symbol: 'BTC/GBP', mid: '20000' },
    });
    expect(drive.statusCode, drive.body).toBe(200);
    const placed = await customer.browser.post(
      '/api/v1/crypto/limit_order',
      { coin_id: 'btc', order_type: 2, side: 1, order_qty: '0.01', price: '15000', currency: 'gbp' },
      { headers: { 'idempotency-key': newIdempotencyKey() } },
    );
    expect(placed.statusCode, placed.body).toBe(200);

    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const session = await createSessionStore(t.database.db, testClock).create(customer.id, {
      ip: '127.0.0.1',
    });
    const tab = await connect(`${address.replace('http', 'ws')}/ws`, {
      cookie: `${SESSION_COOKIE}=${session.token}`,
    });
    try {
      const text = await scrape();
      expect(sample(text, 'florin_ledger_journals_total')).toBeGreaterThan(before);
      expect(sample(text, 'florin_queue_depth', { queue: 'open_limit_orders' })).toBe(1);
      expect(sample(text, 'florin_queue_depth', { queue: 'kyc_documents_to_review' })).toBe(0);
      expect(sample(text, 'florin_websocket_clients')).toBe(1);
      const age = sample(text, 'florin_price_age_seconds', { symbol: 'BTC/GBP' });
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThan(60);
      expect(sample(text, 'florin_price_stale', { symbol: 'BTC/GBP' })).toBe(0);
      expect(sample(text, 'florin_leader')).toBe(1);
    } finally {
      tab.close();
    }
    await expectLedgerToHold(t.database.db);
  });
});

describe('without a scrape token', () => {
  it('has no /metrics at all', async () => {
    const t = await createTestApp();
    try {
      const response = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('readiness', () => {
  it('is ready while the database answers, and says not ready once it does not', async () => {
    const t = await createTestApp();
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/api/v1/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', database: { reachable: true } });
      await t.database.db.destroy();
      const gone = await t.app.inject({ method: 'GET', url: '/api/v1/ready' });
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toEqual({ status: 'not_ready', database: { reachable: false } });
    } finally {
      await t.app.close();
    }
  });
});

describe('slow queries', () => {
  it('reports a query slower than the threshold with its SQL and never its values', async () => {
    const reported: { sql: string; durationMs: number }[] = [];
    const database = await openDatabase({
      engine: 'pglite',
      slowQueries: { thresholdMs: 250, report: (query) => reported.push(query) },
    });
    try {
      // A fresh database's first query pays for its start-up; on a busy machine that alone can pass the threshold.
      await sql`SELECT 1`.execute(database.db);
      reported.length = 0;
      await sql`SELECT ${'a-secret-value'}::text AS value`.execute(database.db);
      expect(reported).toEqual([]);
      await sql`SELECT pg_sleep(0.5), ${'another-secret'}::text AS value`.execute(database.db);
      expect(reported).toHaveLength(1);
      expect(reported[0]?.sql).toContain('pg_sleep');
      expect(reported[0]?.durationMs).toBeGreaterThanOrEqual(250);
      expect(JSON.stringify(reported)).not.toContain('secret');
    } finally {
      await database.close();
    }
  });
});
