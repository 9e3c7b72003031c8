import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, CANDLE_LIMIT_MAX, type PriceUpdate } from '@florin/contracts';
import type { PriceSource, Tick, Timers } from '../../adapters/prices/source.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { backfillHistory } from './history.js';
import { createMarketRepository } from './repository.js';
import { createMarketService, STALE_AFTER_MS, type MarketService } from './service.js';

/** Timers that never fire: the test calls ingest() and checkStaleness() itself. */
const stillTimers: Timers = {
  setInterval: () => 0,
  clearInterval: () => undefined,
  setTimeout: () => 0,
  clearTimeout: () => undefined,
};
const idle: PriceSource = { name: 'manual', start: () => undefined, stop: () => undefined };

let t: TestApp;
let market: MarketService;
let clock = new Date('2026-11-23T11:00:30Z');

beforeAll(async () => {
  t = await createTestApp({
    market: (database) => {
      market = createMarketService({
        repository: createMarketRepository(database.db),
        source: idle,
        now: () => clock,
        timers: stillTimers,
      });
      return market;
    },
  });
});
afterAll(async () => {
  await t.close();
});

function tick(base: string, quote: string, mid: string, at: string): Tick {
  return { base, quote, mid, at: new Date(at) };
}

async function get(url: string) {
  const response = await t.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

function row(time: string, open: string, high: string, low: string, close: string) {
  const fixed = (value: string) => Number(value).toFixed(8);
  return {
    time: new Date(time).getTime() / 1000,
    open: fixed(open),
    high: fixed(high),
    low: fixed(low),
    close: fixed(close),
  };
}

describe('candles from a scripted tick sequence', () => {
  beforeAll(async () => {
    clock = new Date('2026-11-23T11:00:30Z');
    // One batch per tick, as the source delivers them; LTC/GBP moves alongside and must not mix in.
    await market.ingest([
      tick('BTC', 'GBP', '100', '2026-11-23T10:00:05Z'),
      tick('LTC', 'GBP', '50', '2026-11-23T10:00:05Z'),
    ]);
    await market.ingest([tick('BTC', 'GBP', '105', '2026-11-23T10:00:30Z')]);
    await market.ingest([tick('BTC', 'GBP', '98', '2026-11-23T10:00:50Z')]);
    await market.ingest([tick('BTC', 'GBP', '101.5', '2026-11-23T10:01:10Z')]);
    await market.ingest([tick('BTC', 'GBP', '110', '2026-11-23T11:00:00Z')]);
    await market.ingest([tick('BTC', 'GBP', '97.25', '2026-11-23T11:00:20Z')]);
    // A coin that is not listed is ignored rather than stored.
    await market.ingest([tick('DOGE', 'GBP', '0.1', '2026-11-23T11:00:20Z')]);
  });

  it('folds every tick into its minute, oldest first', async () => {
    const { status, body } = await get('/api/v1/market-data/histominute?fsym=BTC&tsym=GBP');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        row('2026-11-23T10:00:00Z', '100', '105', '98', '98'),
        row('2026-11-23T10:01:00Z', '101.5', '101.5', '101.5', '101.5'),
        row('2026-11-23T11:00:00Z', '110', '110', '97.25', '97.25'),
      ],
    });
  });

  it('rolls the same ticks up into hours and days', async () => {
    expect((await get('/api/v1/market-data/histohour?fsym=BTC&tsym=GBP')).body).toEqual({
      data: [
        row('2026-11-23T10:00:00Z', '100', '105', '98', '101.5'),
        row('2026-11-23T11:00:00Z', '110', '110', '97.25', '97.25'),
      ],
    });
    expect((await get('/api/v1/market-data/histoday?fsym=BTC&tsym=GBP')).body).toEqual({
      data: [row('2026-11-23T00:00:00Z', '100', '110', '97.25', '97.25')],
    });
  });

  it('answers the periods up to toTs that the limit covers, and takes the pair as a symbol too', async () => {
    const toTs = new Date('2026-11-23T10:59:00Z').getTime() / 1000;
    // 59 minutes back from 10:59 reach 10:01; the minutes without ticks have no row.
    const { body } = await get(
      `/api/v1/market-data/histominute?symbol=BTC/GBP&toTs=${toTs}&limit=59&e=CCCAGG`,
    );
    expect(body).toEqual({ data: [row('2026-11-23T10:01:00Z', '101.5', '101.5', '101.5', '101.5')] });
    const wider = await get(`/api/v1/market-data/histominute?symbol=BTC/GBP&toTs=${toTs}&limit=60`);
    expect(wider.body).toEqual({
      data: [
        row('2026-11-23T10:00:00Z', '100', '105', '98', '98'),
        row('2026-11-23T10:01:00Z', '101.5', '101.5', '101.5', '101.5'),
      ],
    });
  });

  it('merges periods for the chart resolutions (5 minutes, 4 hours)', async () => {
    expect((await get('/api/v1/market-data/histominute?fsym=BTC&tsym=GBP&aggregate=5')).body).toEqual({
      data: [
        row('2026-11-23T10:00:00Z', '100', '105', '98', '101.5'),
        row('2026-11-23T11:00:00Z', '110', '110', '97.25', '97.25'),
      ],
    });
    expect((await get('/api/v1/market-data/histohour?fsym=BTC&tsym=GBP&aggregate=4')).body).toEqual({
      data: [row('2026-11-23T08:00:00Z', '100', '110', '97.25', '97.25')],
    });
  });

  it('keeps each pair apart and answers an empty list for a pair without ticks', async () => {
    expect((await get('/api/v1/market-data/histoday?fsym=LTC&tsym=GBP')).body).toEqual({
      data: [row('2026-11-23T00:00:00Z', '50', '50', '50', '50')],
    });
    expect((await get('/api/v1/market-data/histoday?fsym=BTC&tsym=EUR')).body).toEqual({ data: [] });
  });
});

describe('bad candle parameters', () => {
  it.each([
    ['an unknown coin', 'fsym=DOGE&tsym=GBP', { fsym: ['DOGE is not a listed coin.'] }],
    ['an unknown currency', 'fsym=BTC&tsym=JPY', { tsym: ['JPY is not a listed currency.'] }],
    ['an unknown symbol', 'symbol=DOGE/GBP', { symbol: ['DOGE is not a listed coin.'] }],
    ['a negative limit', 'fsym=BTC&limit=-5', { limit: ['Must be at least 1.'] }],
    ['an aggregate above the cap', 'fsym=BTC&aggregate=61', { aggregate: ['Must be at most 60.'] }],
    [
      'a limit above the cap',
      `fsym=BTC&limit=${CANDLE_LIMIT_MAX + 1}`,
      { limit: [`Must be at most ${CANDLE_LIMIT_MAX}.`] },
    ],
    [
      'toTs in the future',
      `fsym=BTC&toTs=${Math.floor(new Date('2026-11-24T11:00:00Z').getTime() / 1000)}`,
      { toTs: ['Must not be in the future.'] },
    ],
  ])('refuses %s with a 422', async (_name, query, errors) => {
    for (const resolution of ['histominute', 'histohour', 'histoday']) {
      const { status, body } = await get(`/api/v1/market-data/${resolution}?${query}`);
      expect(status).toBe(422);
      expect(body).toMatchObject({ code: 'VALIDATION_FAILED', errors });
    }
  });

  it('refuses a call that names no pair, or a limit that is not a number', async () => {
    const missing = await get('/api/v1/market-data/histoday?tsym=GBP');
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { fsym: ['Name the pair with fsym (and tsym) or symbol.'] },
    });
    const words = await get('/api/v1/market-data/histoday?fsym=BTC&limit=lots');
    expect(words.status).toBe(422);
    expect(words.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(Object.keys(words.body.errors as object)).toEqual(['limit']);
  });
});

describe('quotes and staleness', () => {
  beforeEach(() => {
    clock = new Date('2026-11-23T12:00:00Z');
  });

  it('quotes bid and ask from the mid and the coin spreads, rounded in the house favour', async () => {
    await market.ingest([tick('BTC', 'GBP', '72000.12345678', '2026-11-23T12:00:00Z')]);
    // BTC's spreads are 0.5 % each way (migration 0002).
    expect(market.quote('BTC/GBP')).toEqual({
      symbol: 'BTC/GBP',
      mid: '72000.12345678',
      bid: '71640.12283949',
      ask: '72360.12407407',
      at: '2026-11-23T12:00:00.000Z',
      stale: false,
    });
    // A customer on a cheaper tier pays half the spread.
    expect(market.quote('BTC/GBP', { spreadMultiplier: '0.5' })).toMatchObject({
      bid: '71820.12314813',
      ask: '72180.12376543',
    });
  });

  it('stops quoting a price with no tick for the stale interval and tells subscribers once', async () => {
    await market.ingest([tick('ETH', 'GBP', '2600', '2026-11-23T12:00:00Z')]);
    const heard: PriceUpdate[][] = [];
    const unsubscribe = market.subscribe((updates) => heard.push(updates));
    const heardOfEth = () => heard.flat().filter((update) => update.symbol === 'ETH/GBP');

    clock = new Date(Date.parse('2026-11-23T12:00:00Z') + STALE_AFTER_MS);
    market.checkStaleness();
    expect(market.quote('ETH/GBP').stale).toBe(false);
    expect(heardOfEth()).toEqual([]);

    clock = new Date(Date.parse('2026-11-23T12:00:00Z') + STALE_AFTER_MS + 1000);
    market.checkStaleness();
    market.checkStaleness();
    expect(heardOfEth()).toEqual([
      expect.objectContaining({ symbol: 'ETH/GBP', mid: '2600.00000000', stale: true }),
    ]);
    expect(market.latest('ETH/GBP')).toEqual([expect.objectContaining({ stale: true })]);
    expect(() => market.quote('ETH/GBP')).toThrow(AppError);
    try {
      market.quote('ETH/GBP');
    } catch (error) {
      expect(error).toMatchObject({ code: 'PRICES_STALE', status: 503 });
    }

    // The next tick makes it quotable again, and subscribers hear the fresh price.
    await market.ingest([tick('ETH', 'GBP', '2610', clock.toISOString())]);
    expect(market.quote('ETH/GBP')).toMatchObject({ mid: '2610.00000000', stale: false });
    expect(heardOfEth().at(-1)).toMatchObject({ mid: '2610.00000000', stale: false });
    unsubscribe();
  });

  it('refuses to quote a symbol that never had a price', () => {
    expect(() => market.quote('XRP/USD')).toThrow(expect.objectContaining({ code: 'PRICES_STALE' }));
  });
});

describe('public price feed and coins', () => {
  it('lists every active coin with its last day of hourly opens, change and GBP bid', async () => {
    clock = new Date('2026-11-23T13:00:05Z');
    await market.ingest([tick('LTC', 'GBP', '55', '2026-11-23T13:00:00Z')]);
    const { status, body } = await get('/crypto/price-feed');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['btc', 'eth', 'ltc', 'bch', 'xrp']);
    expect(body.ltc).toEqual({
      coin: { coin_id: 'ltc', name: 'Litecoin' },
      history: [
        { open: '50.00000000', time: Date.parse('2026-11-23T10:00:00Z') / 1000 },
        { open: '55.00000000', time: Date.parse('2026-11-23T13:00:00Z') / 1000 },
      ],
      percentage: '10.00',
      // LTC's bid spread is 0.75 %.
      details: { gbp_bid: '54.58750000' },
    });
    expect(body.bch).toEqual({
      coin: { coin_id: 'bch', name: 'Bitcoin Cash' },
      history: [],
      percentage: null,
      details: { gbp_bid: null },
    });
  });

  it('lists each coin trading limits in its own units for the fees page', async () => {
    const { status, body } = await get('/api/crypto/coins');
    expect(status).toBe(200);
    expect(body.btc).toEqual({
      coin_id: 'btc',
      platform_fee: null,
      amount_min: '0.01000000',
      amount_max: '5.00000000',
    });
    expect(body.eth).toEqual({
      coin_id: 'eth',
      platform_fee: null,
      amount_min: '0.010000000000000000',
      amount_max: '100.000000000000000000',
    });
    expect(Object.keys(body)).toEqual(['btc', 'eth', 'ltc', 'bch', 'xrp']);
  });
});

describe('history backfill', () => {
  it('gives a fresh install a simulated past once, ending at the live starting price', async () => {
    const repository = createMarketRepository(t.database.db);
    await t.database.db.deleteFrom('candles').execute();
    const now = new Date('2026-11-23T14:30:00Z');
    const pairs = [{ base: 'BTC', quote: 'GBP' }];
    expect(await backfillHistory(repository, { pairs, now, seed: 'test' })).toBe(true);
    expect(await backfillHistory(repository, { pairs, now, seed: 'test' })).toBe(false);

    const minutes = await repository.listCandles({
      symbol: 'BTC/GBP',
      resolution: 'minute',
      to: now,
      limit: 5000,
    });
    expect(minutes).toHaveLength(2 * 24 * 60);
    expect(minutes.at(-1)).toMatchObject({
      start_at: new Date('2026-11-23T14:29:00Z'),
      close: '72000.00000000',
    });
    const days = await repository.listCandles({ symbol: 'BTC/GBP', resolution: 'day', to: now, limit: 5000 });
    expect(days).toHaveLength(365);
    expect(days.at(-1)?.start_at).toEqual(new Date('2026-11-22T00:00:00Z'));
    // A live tick then opens the current periods where the history ends.
    clock = now;
    await market.ingest([tick('BTC', 'GBP', '72010', '2026-11-23T14:30:00Z')]);
    const { body } = await get('/api/v1/market-data/histominute?fsym=BTC&limit=2');
    expect(body).toEqual({
      data: [
        expect.objectContaining({ time: Date.parse('2026-11-23T14:29:00Z') / 1000, close: '72000.00000000' }),
        row('2026-11-23T14:30:00Z', '72010', '72010', '72010', '72010'),
      ],
    });
    // What a restarted simulated market continues from.
    expect((await repository.listLastCloses()).get('BTC/GBP')).toBe('72010.00000000');
  });
});
