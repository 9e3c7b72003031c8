import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createLedger } from '../../ledger/index.js';
import { createSecretBox } from '../../security/secret-box.js';
import type { Database } from '../../db/index.js';
import { createTestDatabase } from '../../test/database.js';
import { startPostgres, type PostgresServer } from '../../test/postgres-server.js';
import { writeFakeWebDist } from '../../test/app.js';
import {
  batchNoticePayloads,
  batchPayloads,
  createPostgresRelay,
  MAX_NOTIFY_PAYLOAD_BYTES,
  type PriceRelay,
} from './relay.js';
import { CandleQuerySchema } from '@florin/contracts';
import type { PriceSource, Tick } from '../../adapters/prices/source.js';
import { createMarketRepository } from '../market/repository.js';
import { createMarketService, type MarketService } from '../market/service.js';
import { connect, createManualFeed, priceUpdate } from './realtime.test-kit.js';

type ManualSource = PriceSource & {
  running: boolean;
  continuedFrom: ReadonlyMap<string, string> | undefined;
  emit(ticks: Tick[]): void;
};

/** A price source the test ticks by hand, telling whether it runs and where it was told to carry on from. */
function createManualSource(): ManualSource {
  let listener: ((ticks: Tick[]) => void) | undefined;
  return {
    name: 'manual',
    running: false,
    continuedFrom: undefined,
    start(onTicks) {
      listener = onTicks;
      this.running = true;
    },
    stop() {
      listener = undefined;
      this.running = false;
    },
    continueFrom(lastPrices) {
      this.continuedFrom = lastPrices;
    },
    emit(ticks) {
      listener?.(ticks);
    },
  };
}

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

  it('packs the events of a tick that filled thousands of orders into few payloads, each event once', () => {
    const notices = Array.from({ length: 10_000 }, (_, index) => ({
      userId: String(index + 1),
      event: index % 2 === 0 ? ('balances' as const) : ('orders' as const),
    }));
    const payloads = batchNoticePayloads('instance', notices);
    expect(payloads.length).toBeLessThan(100);
    for (const payload of payloads)
      expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_NOTIFY_PAYLOAD_BYTES);
    const parsed = payloads.map((payload) => JSON.parse(payload) as { from: string; notices: unknown[] });
    expect(new Set(parsed.map((payload) => payload.from))).toEqual(new Set(['instance']));
    expect(parsed.flatMap((payload) => payload.notices)).toEqual(notices);
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

  /** An app with a hand-driven feed (the websocket alone), or with a real market over a hand-driven source. */
  async function instance(
    prices: { feed: ReturnType<typeof createManualFeed> } | { source: ManualSource },
  ): Promise<{
    relay: PriceRelay;
    url: string;
    market: MarketService | undefined;
    close: () => Promise<void>;
  }> {
    const own = shared.url ? null : await createTestDatabase();
    const database = own ?? shared;
    const market =
      'source' in prices
        ? createMarketService({ repository: createMarketRepository(database.db), source: prices.source })
        : undefined;
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: writeFakeWebDist() });
    const relay = await createPostgresRelay({ url: relayUrl, retryMs: 100 });
    const app = await buildApp({
      config,
      database,
      ledger: createLedger(),
      mailer: createDevMailbox(database.db),
      secretBox: createSecretBox(randomBytes(32)),
      priceFeed: 'feed' in prices ? prices.feed : undefined,
      priceRelay: relay,
      market,
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    // As main.ts does once the server listens.
    market?.start();
    let closed = false;
    return {
      relay,
      market,
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
    const leader = await instance({ feed: leaderFeed });
    const follower = await instance({ feed: followerFeed });
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

  it('runs the source and writes candles on the leader only; the follower quotes relayed prices and carries on from them', async () => {
    const leaderSource = createManualSource();
    const followerSource = createManualSource();
    const leader = await instance({ source: leaderSource });
    const follower = await instance({ source: followerSource });
    try {
      expect(leaderSource.running).toBe(true);
      expect(followerSource.running).toBe(false);
      // Nothing relayed yet: the follower has no price to quote.
      expect(() => follower.market!.quote('BTC/GBP')).toThrow(
        expect.objectContaining({ code: 'PRICES_STALE' }),
      );

      const at = new Date();
      leaderSource.emit([{ base: 'BTC', quote: 'GBP', mid: '50000.5', at }]);
      const deadline = Date.now() + 5_000;
      while (!follower.market!.latest('BTC/GBP').length && Date.now() < deadline) await sleep(20);
      // The same bid and ask as the leader's, from the follower's own spreads and multiplier.
      expect(follower.market!.quote('BTC/GBP')).toEqual(leader.market!.quote('BTC/GBP'));
      expect(follower.market!.quote('BTC/GBP', { spreadMultiplier: '0.5' })).toEqual(
        leader.market!.quote('BTC/GBP', { spreadMultiplier: '0.5' }),
      );

      // One candle, written by the leader; the follower folded nothing into its own database.
      const query = CandleQuerySchema.parse({ fsym: 'BTC', tsym: 'GBP' });
      const followerCandles = await follower.market!.listCandles('minute', query);
      if (shared.url) expect(followerCandles.map((candle) => candle.close)).toEqual(['50000.50000000']);
      else expect(followerCandles).toEqual([]);

      await leader.close();
      const electionDeadline = Date.now() + 5_000;
      while (!followerSource.running && Date.now() < electionDeadline) await sleep(50);
      expect(followerSource.running).toBe(true);
      // The new leader's invented prices start where the old leader's stopped.
      expect(followerSource.continuedFrom?.get('BTC/GBP')).toBe('50000.5');
    } finally {
      await leader.close();
      await follower.close();
    }
  });

  it('sends its NOTIFYs one at a time on its connection, however many publish at once', async () => {
    const relay = await createPostgresRelay({ url: relayUrl, retryMs: 100 });
    const inFlight = new Map<unknown, number>();
    let most = 0;
    const original = Reflect.get(pg.Client.prototype, 'query') as (...args: unknown[]) => Promise<unknown>;
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const deadline = Date.now() + 5_000;
      while (!relay.isLeader() && Date.now() < deadline) await sleep(20);
      expect(relay.isLeader()).toBe(true);
      query.mockImplementation(function (this: pg.Client, ...args: unknown[]) {
        inFlight.set(this, (inFlight.get(this) ?? 0) + 1);
        most = Math.max(most, inFlight.get(this) ?? 0);
        const settle = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
        return Reflect.apply(original, this, args).finally(settle) as never;
      });
      await Promise.all([
        relay.publishUserNotices([{ userId: '7', event: 'balances' }]),
        relay.publishUserNotices([{ userId: '8', event: 'orders' }]),
        relay.publish([priceUpdate('BTC/GBP', '50000.00')]),
      ]);
      expect(most).toBe(1);
    } finally {
      query.mockRestore();
      await relay.close();
    }
  });

  it('carries a customer’s event from the instance that moved their money to the others, once each', async () => {
    const first = await instance({ feed: createManualFeed() });
    const second = await instance({ feed: createManualFeed() });
    try {
      const heardOnSecond: unknown[] = [];
      const heardOnFirst: unknown[] = [];
      second.relay.subscribeUserNotices((notice) => heardOnSecond.push(notice));
      first.relay.subscribeUserNotices((notice) => heardOnFirst.push(notice));
      // The follower publishes too: any instance may move a customer's money.
      await second.relay.publishUserNotices([
        { userId: '42', event: 'balances' },
        { userId: '42', event: 'orders' },
      ]);
      const deadline = Date.now() + 5_000;
      while (heardOnFirst.length === 0 && Date.now() < deadline) await sleep(20);
      await sleep(100);
      const both = [
        { userId: '42', event: 'balances' },
        { userId: '42', event: 'orders' },
      ];
      expect(heardOnFirst).toEqual(both);
      expect(heardOnSecond).toEqual(both);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
