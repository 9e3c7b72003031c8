import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AppError, type Health, type PriceUpdate } from '@florin/contracts';
import { createMarketRepository } from '../../modules/market/repository.js';
import { createMarketService, type MarketService } from '../../modules/market/service.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { coinbaseSubscribeMessages, createCoinbaseSource, parseCoinbaseMessage } from './coinbase.js';
import { createFailoverSource } from './failover.js';
import { COINBASE_FRAMES, KRAKEN_FRAMES, startExchangeServer } from './feeds.test-kit.js';
import { createKrakenSource, parseKrakenMessage } from './kraken.js';
import type { Timers } from './source.js';

const AT = new Date('2026-11-23T12:00:01Z');

describe('the Coinbase Exchange ticker adapter', () => {
  it('turns ticker frames into the mid of the best bid and ask', () => {
    expect(parseCoinbaseMessage(COINBASE_FRAMES.ticker, () => AT)).toEqual([
      { base: 'BTC', quote: 'GBP', mid: '72010.00500000', at: new Date('2026-11-23T12:00:00.912345Z') },
    ]);
    // Both feeds' formats give the same shape of tick.
    expect(parseKrakenMessage(KRAKEN_FRAMES.snapshot, () => AT)).toEqual([
      { base: 'BTC', quote: 'GBP', mid: '71998.45000000', at: AT },
    ]);
  });

  it('ignores heartbeats, subscriptions, errors, glitches and malformed frames', () => {
    for (const frame of [
      COINBASE_FRAMES.subscriptions,
      COINBASE_FRAMES.heartbeat,
      COINBASE_FRAMES.error,
      COINBASE_FRAMES.ticker.replace('"best_ask":"72010.01"', '"best_ask":"70000.00"'),
      COINBASE_FRAMES.ticker.replace('"best_bid":"72010.00"', '"best_bid":"0"'),
      COINBASE_FRAMES.ticker.replace('"best_bid":"72010.00"', '"best_bid":72010'),
      'not json',
      '[]',
    ])
      expect(parseCoinbaseMessage(frame)).toEqual([]);
  });

  it('subscribes to each product on its own, so one it does not list silences no other', () => {
    expect(
      coinbaseSubscribeMessages([
        { base: 'BTC', quote: 'GBP' },
        { base: 'BCH', quote: 'GBP' },
      ]).map((message) => JSON.parse(message) as unknown),
    ).toEqual([
      { type: 'subscribe', product_ids: ['BTC-GBP'], channels: ['ticker', 'heartbeat'] },
      { type: 'subscribe', product_ids: ['BCH-GBP'], channels: ['ticker', 'heartbeat'] },
    ]);
  });
});

/** Timers that only record what was scheduled: the test fires a reconnect by hand, never waits for one. */
function manualTimers() {
  const timeouts: (() => void)[] = [];
  const timers: Timers = {
    setInterval: () => 0,
    clearInterval: () => undefined,
    setTimeout: (callback) => timeouts.push(callback),
    clearTimeout: () => undefined,
  };
  return { timers, timeouts };
}

describe('two exchange feeds with failover, replayed from local websockets', () => {
  const pairs = [{ base: 'BTC', quote: 'GBP' }];
  let clock = AT;
  let t: TestApp;
  let market: MarketService;
  let kraken: Awaited<ReturnType<typeof startExchangeServer>>;
  let coinbase: Awaited<ReturnType<typeof startExchangeServer>>;
  const { timers, timeouts } = manualTimers();
  const krakenSockets: WebSocket[] = [];
  const updates: PriceUpdate[] = [];
  const waiters: { test: (update: PriceUpdate) => boolean; resolve: (update: PriceUpdate) => void }[] = [];

  /** The next update of BTC/GBP the market publishes that passes `test`. */
  function nextUpdate(test: (update: PriceUpdate) => boolean): Promise<PriceUpdate> {
    return new Promise((resolve) => waiters.push({ test, resolve }));
  }

  beforeAll(async () => {
    kraken = await startExchangeServer();
    coinbase = await startExchangeServer();
    const now = () => clock;
    const source = createFailoverSource({
      sources: [
        createKrakenSource({
          pairs,
          url: kraken.url,
          now,
          timers,
          connect: (url) => {
            const socket = new WebSocket(url);
            krakenSockets.push(socket);
            return socket;
          },
        }),
        createCoinbaseSource({ pairs, url: coinbase.url, now, timers }),
      ],
      staleAfterMs: 5000,
      maxDisagreementBps: 100,
      now,
    });
    t = await createTestApp({
      market: (database) => {
        market = createMarketService({
          repository: createMarketRepository(database.db),
          source,
          now,
          timers,
        });
        return market;
      },
    });
    market.subscribe((batch) => {
      for (const update of batch) {
        if (update.symbol !== 'BTC/GBP') continue;
        updates.push(update);
        for (const waiter of waiters.splice(0))
          if (waiter.test(update)) waiter.resolve(update);
          else waiters.push(waiter);
      }
    });
    market.start();
    await Promise.all([kraken.receivedCount(1), coinbase.receivedCount(1)]);
  });
  afterAll(async () => {
    await market.stop();
    await t.close();
    await kraken.close();
    await coinbase.close();
  });

  async function feeds(): Promise<Health['price_feeds']> {
    return (await t.app.inject({ method: 'GET', url: '/api/v1/health' })).json<Health>().price_feeds;
  }

  function refusal(): unknown {
    try {
      market.quote('BTC/GBP');
    } catch (error) {
      return error;
    }
    return undefined;
  }

  it('subscribes on both and quotes from the freshest of the two live feeds', async () => {
    expect(JSON.parse(kraken.received[0]!)).toMatchObject({
      method: 'subscribe',
      params: { symbol: ['BTC/GBP'] },
    });
    expect(coinbase.received.map((message) => JSON.parse(message) as unknown)).toEqual([
      { type: 'subscribe', product_ids: ['BTC-GBP'], channels: ['ticker', 'heartbeat'] },
    ]);
    const fromKraken = nextUpdate((update) => update.mid === '71998.45000000');
    kraken.send(KRAKEN_FRAMES.status, KRAKEN_FRAMES.subscribed, KRAKEN_FRAMES.snapshot);
    await fromKraken;
    // Coinbase's ticker is older than Kraken's snapshot (stamped when heard), so Kraken's price holds.
    const afterCoinbase = nextUpdate(() => true);
    coinbase.send(COINBASE_FRAMES.subscriptions, COINBASE_FRAMES.ticker, COINBASE_FRAMES.heartbeat);
    expect(await afterCoinbase).toMatchObject({ mid: '71998.45000000', stale: false });
    expect(market.quote('BTC/GBP')).toMatchObject({ mid: '71998.45000000', stale: false });
    expect(await feeds()).toEqual([
      { name: 'kraken', state: 'live', last_message_at: AT.toISOString() },
      { name: 'coinbase', state: 'live', last_message_at: AT.toISOString() },
    ]);
  });

  it('takes every price from the other feed once one drops and goes stale', async () => {
    await kraken.drop();
    if (krakenSockets[0]!.readyState !== WebSocket.CLOSED) await once(krakenSockets[0]!, 'close');
    clock = new Date('2026-11-23T12:00:07.500Z');
    const fromCoinbase = nextUpdate((update) => update.mid === '72031.49500000');
    coinbase.send(COINBASE_FRAMES.laterTicker);
    expect(await fromCoinbase).toMatchObject({ at: '2026-11-23T12:00:07.400Z', stale: false });
    expect(market.quote('BTC/GBP').mid).toBe('72031.49500000');
    expect(await feeds()).toEqual([
      { name: 'kraken', state: 'stale', last_message_at: AT.toISOString() },
      { name: 'coinbase', state: 'live', last_message_at: clock.toISOString() },
    ]);
  });

  it('refuses the quote, with the stale market’s words, while the two feeds disagree beyond the band', async () => {
    // Kraken comes back (its reconnect fired by hand) with a price 4% above Coinbase's.
    expect(timeouts).toHaveLength(1);
    timeouts[0]!();
    await kraken.receivedCount(2);
    clock = new Date('2026-11-23T12:00:08.100Z');
    const disputed = nextUpdate((update) => update.mid === '74890.20000000');
    kraken.send(KRAKEN_FRAMES.farUpdate);
    // Shown (the freshest feed's price), marked stale, and never quoted.
    expect(await disputed).toMatchObject({ stale: true });
    const error = refusal();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'PRICES_STALE', message: new AppError('PRICES_STALE').message });
    expect((await feeds()).map((feed) => feed.state)).toEqual(['live', 'live']);
  });

  it('refuses the quote when both feeds are stale', async () => {
    clock = new Date('2026-11-23T12:00:30Z');
    market.checkStaleness();
    expect(refusal()).toMatchObject({ code: 'PRICES_STALE' });
    expect((await feeds()).map((feed) => feed.state)).toEqual(['stale', 'stale']);
  });
});
