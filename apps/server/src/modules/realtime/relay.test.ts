import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createLedger } from '../../ledger/index.js';
import { createSecretBox } from '../../security/secret-box.js';
import type { Database } from '../../db/index.js';
import { createTestDatabase } from '../../test/database.js';
import { startPostgres, type PostgresServer } from '../../test/postgres-server.js';
import { writeFakeWebDist } from '../../test/app.js';
import { batchPayloads, createPostgresRelay, MAX_NOTIFY_PAYLOAD_BYTES, type PriceRelay } from './relay.js';
import { connect, createManualFeed, priceUpdate } from './test-support.js';

describe('batchPayloads', () => {
  it('splits a large tick into NOTIFY payloads under the limit, each update in exactly one', () => {
    const updates = Array.from({ length: 300 }, (_, index) =>
      priceUpdate(`COIN${index}/GBP`, '12345.67890123'),
    );
    const payloads = batchPayloads('instance', updates);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads)
      expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_NOTIFY_PAYLOAD_BYTES);
    const delivered = payloads.flatMap((payload) => (JSON.parse(payload) as { updates: unknown[] }).updates);
    expect(delivered).toEqual(updates);
  });
});

/**
 * Two whole apps on one PostgreSQL database, each with its own relay and its
 * own market feed. On a PGlite run each app has its own PGlite, and the relay
 * still gets a real server: one is started for it.
 */
describe('ticks across instances (PostgreSQL LISTEN/NOTIFY)', () => {
  let shared: Database & { url?: string };
  let relayUrl: string;
  let server: PostgresServer | null = null;

  beforeAll(async () => {
    shared = await createTestDatabase({ poolSize: 4 });
    if (shared.url) relayUrl = shared.url;
    else {
      server = await startPostgres({ maxConnections: 20 });
      relayUrl = server.url();
    }
  });
  afterAll(async () => {
    await shared.close();
    await server?.stop();
  });

  async function instance(feed: ReturnType<typeof createManualFeed>): Promise<{
    relay: PriceRelay;
    url: string;
    close: () => Promise<void>;
  }> {
    const own = shared.url ? null : await createTestDatabase();
    const database = own ?? shared;
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: writeFakeWebDist() });
    const relay = await createPostgresRelay({ url: relayUrl, retryMs: 100 });
    const app = await buildApp({
      config,
      database,
      ledger: createLedger(),
      mailer: createDevMailbox(database.db),
      secretBox: createSecretBox(randomBytes(32)),
      priceFeed: feed,
      priceRelay: relay,
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    let closed = false;
    return {
      relay,
      url: `${address.replace('http', 'ws')}/ws`,
      close: async () => {
        if (closed) return;
        closed = true;
        await app.close();
        await own?.close();
        fs.rmSync(config.WEB_DIST, { recursive: true, force: true });
      },
    };
  }

  it('streams the leader’s ticks to a client of the other instance, and re-elects when the leader dies', async () => {
    const leaderFeed = createManualFeed([priceUpdate('BTC/GBP', '50000.00')]);
    const followerFeed = createManualFeed([priceUpdate('BTC/GBP', '49000.00')]);
    const leader = await instance(leaderFeed);
    const follower = await instance(followerFeed);
    try {
      expect(leader.relay.isLeader()).toBe(true);
      expect(follower.relay.isLeader()).toBe(false);

      const client = await connect(follower.url);
      const subscribed = client.next('subscribed');
      client.send({ type: 'subscribe', channel: 'prices', symbols: ['BTC/GBP'] });
      await subscribed;

      // The follower's own source does not reach clients: only the leader's ticks do.
      followerFeed.emit([priceUpdate('BTC/GBP', '1.00')]);
      const fromLeader = client.next('price');
      leaderFeed.emit([priceUpdate('BTC/GBP', '50001.00')]);
      expect((await fromLeader).data).toMatchObject({ symbol: 'BTC/GBP', mid: '50001.00' });

      await leader.close();
      const deadline = Date.now() + 5_000;
      while (!follower.relay.isLeader() && Date.now() < deadline) await sleep(50);
      expect(follower.relay.isLeader()).toBe(true);

      const afterElection = client.next('price');
      followerFeed.emit([priceUpdate('BTC/GBP', '50002.00')]);
      expect((await afterElection).data).toMatchObject({ symbol: 'BTC/GBP', mid: '50002.00' });
      expect(
        client.received.filter((message) => message.type === 'price').map((message) => message.data.mid),
      ).not.toContain('1.00');
      client.close();
    } finally {
      await leader.close();
      await follower.close();
    }
  });
});
