import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { PriceSource, Timers } from '../../adapters/prices/source.js';
import { SESSION_COOKIE } from '../../http/auth.js';
import { createTestApp } from '../../test/app.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { createSessionStore } from '../auth/sessions.js';
import { newCustomer } from '../kyc/kyc.test-kit.js';
import { createMarketRepository } from '../market/repository.js';
import { createMarketService, type MarketService } from '../market/service.js';
import { WS_CLOSE_TOO_SLOW } from './hub.js';
import {
  connect,
  createManualFeed,
  priceUpdate,
  startRealtimeServer,
  type RealtimeServer,
} from './realtime.test-kit.js';
import { testClock } from '../../test/clock.js';

const servers: RealtimeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(...args: Parameters<typeof startRealtimeServer>) {
  const server = await startRealtimeServer(...args);
  servers.push(server);
  return server;
}

function openingStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('error', (error) =>
      error.message.includes('Unexpected server response') ? undefined : reject(error),
    );
  });
}

describe('websocket /ws prices', () => {
  it('sends the latest price at once on subscribe, then one message per tick per subscribed symbol', async () => {
    const feed = createManualFeed([priceUpdate('BTC/GBP', '50000.00'), priceUpdate('ETH/GBP', '2500.00')]);
    const server = await start(feed);
    const client = await connect(server.url);

    const subscribed = client.next('subscribed');
    const first = client.next('price');
    client.send({ type: 'subscribe', channel: 'prices', symbols: ['btc/gbp'] });
    expect(await subscribed).toEqual({ type: 'subscribed', channel: 'prices', symbols: ['BTC/GBP'] });
    expect((await first).data).toMatchObject({ symbol: 'BTC/GBP', mid: '50000.00' });

    const tick = client.next('price');
    feed.emit([priceUpdate('ETH/GBP', '2501.00'), priceUpdate('BTC/GBP', '50001.00')]);
    expect((await tick).data).toMatchObject({ symbol: 'BTC/GBP', mid: '50001.00' });
    await sleep(100);
    // The ETH update of the same tick was not sent: the client did not subscribe to it.
    expect(client.received.filter((message) => message.type === 'price')).toHaveLength(2);
    client.close();
  });

  it('stops sending a symbol after unsubscribe', async () => {
    const feed = createManualFeed([priceUpdate('BTC/GBP', '50000.00')]);
    const server = await start(feed);
    const client = await connect(server.url);
    const firstPrice = client.next('price');
    client.send({ type: 'subscribe', channel: 'prices', symbols: ['BTC/GBP'] });
    await firstPrice;

    const unsubscribed = client.next('unsubscribed');
    client.send({ type: 'unsubscribe', channel: 'prices', symbols: ['BTC/GBP'] });
    expect(await unsubscribed).toEqual({ type: 'unsubscribed', channel: 'prices', symbols: ['BTC/GBP'] });
    feed.emit([priceUpdate('BTC/GBP', '50002.00')]);
    await sleep(150);
    expect(client.received.filter((message) => message.type === 'price')).toHaveLength(1);
    client.close();
  });

  it('answers malformed messages with an error and keeps the connection open', async () => {
    const server = await start(createManualFeed([priceUpdate('BTC/GBP', '1.00')]));
    const client = await connect(server.url);

    const notJson = client.next('error');
    client.send('{not json');
    expect(await notJson).toEqual({ type: 'error', message: 'A message must be JSON.' });

    const badShape = client.next('error');
    client.send({ type: 'subscribe', channel: 'orders', symbols: ['BTC/GBP'] });
    expect(await badShape).toEqual({ type: 'error', message: 'Unknown or malformed message.' });

    const extraField = client.next('error');
    client.send({ type: 'ping', admin: true });
    expect(await extraField).toEqual({ type: 'error', message: 'Unknown or malformed message.' });

    const pong = client.next('pong');
    client.send({ type: 'ping' });
    expect(await pong).toEqual({ type: 'pong' });
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    client.close();
  });

  it('refuses a symbol it has no price for, and subscribes to none of the list', async () => {
    const feed = createManualFeed([priceUpdate('BTC/GBP', '50000.00')]);
    const server = await start(feed);
    const client = await connect(server.url);
    const error = client.next('error');
    client.send({ type: 'subscribe', channel: 'prices', symbols: ['BTC/GBP', 'NOPE/GBP'] });
    expect(await error).toEqual({ type: 'error', message: 'Unknown symbol: NOPE/GBP.' });
    feed.emit([priceUpdate('BTC/GBP', '50001.00')]);
    await sleep(150);
    expect(client.received.filter((message) => message.type === 'price')).toHaveLength(0);
    client.close();
  });

  it('sends heartbeats at the configured interval', async () => {
    const server = await start(createManualFeed(), { heartbeatMs: 50 });
    const client = await connect(server.url);
    const heartbeat = await client.next('heartbeat', 1_000);
    expect(Date.parse(heartbeat.at)).not.toBeNaN();
    await client.next('heartbeat', 1_000);
    client.close();
  });

  it('drops a client that stops reading with close code 4008, and keeps serving the others', async () => {
    const symbols = Array.from({ length: 50 }, (_, index) => `C${index}/GBP`);
    const feed = createManualFeed(symbols.map((symbol) => priceUpdate(symbol, '1.00')));
    // The close must wait for the paused client however long the burst takes on a busy machine (not the test
    // here), and so must the heartbeat: a paused client answers no ping, and a missing pong ends it with 1006.
    const server = await start(feed, {
      maxBufferedBytes: 256 * 1024,
      closeGraceMs: 120_000,
      heartbeatMs: 600_000,
    });
    const slow = await connect(server.url);
    const healthy = await connect(server.url);
    for (const client of [slow, healthy]) {
      const subscribed = client.next('subscribed');
      client.send({ type: 'subscribe', channel: 'prices', symbols });
      await subscribed;
    }
    slow.socket.pause();
    const closed = new Promise<number>((resolve) => slow.socket.on('close', (code) => resolve(code)));

    // ~150 bytes a message: thousands of ticks overflow the kernel's loopback buffers and then the limit.
    // After every 10 ticks (~75 kB, well under the limit) the healthy client is let catch up, so only
    // the paused one falls behind however busy the machine is.
    const prices = (client: typeof healthy) =>
      client.received.filter((message) => message.type === 'price').length;
    for (let tick = 0; tick < 2_000; tick += 1) {
      feed.emit(symbols.map((symbol) => priceUpdate(symbol, `${tick}.00`)));
      if (tick % 10 === 9) {
        while (prices(healthy) < 50 + 50 * (tick + 1)) await sleep(2);
      }
    }
    const last = healthy.next('pong');
    healthy.send({ type: 'ping' });
    await last;
    slow.socket.resume();
    expect(await closed).toBe(WS_CLOSE_TOO_SLOW);
    expect(healthy.socket.readyState).toBe(WebSocket.OPEN);
    expect(healthy.received.filter((message) => message.type === 'price')).toHaveLength(50 + 50 * 2_000);
    healthy.close();
  });

  it('refuses a browser from another origin when an origin is required', async () => {
    const server = await start(createManualFeed(), { allowedOrigin: 'https://florin.example' });
    expect(await openingStatus(server.url, { origin: 'https://evil.example' })).toBe(403);
    expect(await openingStatus(server.url)).toBe(403);
    expect(await openingStatus(server.url, { origin: 'https://florin.example' })).toBe(101);
  });

  it('caps the connections one address may hold open', async () => {
    const server = await start(createManualFeed(), { maxConnectionsPerIp: 2 });
    const first = await connect(server.url);
    const second = await connect(server.url);
    expect(await openingStatus(server.url)).toBe(429);
    first.close();
    await sleep(100);
    expect(await openingStatus(server.url)).toBe(101);
    second.close();
  });
});

describe('websocket /ws in the whole app', () => {
  it('streams the market’s quotes: the latest on subscribe, then each ingested tick', async () => {
    const stillTimers: Timers = {
      setInterval: () => 0,
      clearInterval: () => undefined,
      setTimeout: () => 0,
      clearTimeout: () => undefined,
    };
    const manual: PriceSource = { name: 'manual', start: () => undefined, stop: () => undefined };
    let market: MarketService | undefined;
    const t = await createTestApp({
      market: (database) =>
        (market = createMarketService({
          repository: createMarketRepository(database.db),
          source: manual,
          timers: stillTimers,
        })),
    });
    try {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      await market?.ingest([{ base: 'BTC', quote: 'GBP', mid: '72000', at: new Date() }]);
      const client = await connect(`${address.replace('http', 'ws')}/ws`);

      const first = client.next('price');
      client.send({ type: 'subscribe', channel: 'prices', symbols: ['BTC/GBP'] });
      const latest = (await first).data;
      expect(latest).toMatchObject({ symbol: 'BTC/GBP', stale: false });
      expect(Number(latest.mid)).toBe(72000);
      // The quote carries the coin's spreads: Florin buys below mid and sells above it.
      expect(Number(latest.bid)).toBeLessThan(72000);
      expect(Number(latest.ask)).toBeGreaterThan(72000);

      const next = client.next('price');
      await market?.ingest([{ base: 'BTC', quote: 'GBP', mid: '72100', at: new Date() }]);
      expect(Number((await next).data.mid)).toBe(72100);
      client.close();
    } finally {
      await t.close();
    }
  });
});

describe('the customer’s own events on /ws', () => {
  it('tells a customer’s open pages when their money moves, and nobody else', async () => {
    const t = await createTestApp();
    try {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `${address.replace('http', 'ws')}/ws`;
      const owner = await newCustomer(t);
      const other = await newCustomer(t);
      const sessions = createSessionStore(t.database.db, testClock);
      const cookieOf = async (userId: number) =>
        `${SESSION_COOKIE}=${(await sessions.create(userId, { ip: '127.0.0.1' })).token}`;
      const ownerTabs = [
        await connect(url, { cookie: await cookieOf(owner.id) }),
        await connect(url, { cookie: await cookieOf(owner.id) }),
      ];
      const otherTab = await connect(url, { cookie: await cookieOf(other.id) });
      const anonymous = await connect(url);
      await sleep(100);

      const heard = ownerTabs.map((tab) => tab.next('user'));
      const funded = await t.app.inject({
        method: 'POST',
        url: '/dev/ledger/fund',
        payload: { email: (await owner.user()).email, asset: 'GBP', amount: '25.00', key: 'events-test-1' },
      });
      expect(funded.statusCode, funded.body).toBe(200);
      for (const message of await Promise.all(heard))
        expect(message).toEqual({ type: 'user', event: 'balances' });
      await sleep(200);
      expect(otherTab.received.filter((message) => message.type === 'user')).toEqual([]);
      expect(anonymous.received.filter((message) => message.type === 'user')).toEqual([]);
      await expectLedgerToHold(t.database.db);
      for (const tab of [...ownerTabs, otherTab, anonymous]) tab.close();
    } finally {
      await t.close();
    }
  });
});
