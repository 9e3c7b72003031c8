import { describe, expect, it } from 'vitest';
import { simulateHistory } from '../../modules/market/history.js';
import {
  createKrakenSource,
  krakenSubscribeMessage,
  parseKrakenMessage,
  type KrakenSocket,
} from './kraken.js';
import { createSimulatedMarket } from './simulated.js';
import type { Tick, Timers } from './source.js';

const PAIRS = [
  { base: 'BTC', quote: 'GBP' },
  { base: 'BTC', quote: 'EUR' },
  { base: 'ETH', quote: 'GBP' },
  { base: 'XRP', quote: 'USD' },
];
const AT = new Date('2026-11-23T12:00:00Z');

/** Timers that only record what was scheduled, so a test fires them by hand. */
function manualTimers() {
  const scheduled: { callback: () => void; ms: number; repeat: boolean; cleared: boolean }[] = [];
  const timers: Timers = {
    setInterval: (callback, ms) => scheduled.push({ callback, ms, repeat: true, cleared: false }) - 1,
    setTimeout: (callback, ms) => scheduled.push({ callback, ms, repeat: false, cleared: false }) - 1,
    clearInterval: (handle) => {
      scheduled[handle as number]!.cleared = true;
    },
    clearTimeout: (handle) => {
      scheduled[handle as number]!.cleared = true;
    },
  };
  return { timers, scheduled };
}

describe('the simulated market', () => {
  function run(seed: string, steps: number): Tick[][] {
    const market = createSimulatedMarket({ pairs: PAIRS, seed, now: () => AT });
    return Array.from({ length: steps }, () => market.step());
  }

  it('gives the same prices tick for tick under the same seed, and others under another', () => {
    expect(run('seed-1', 200)).toEqual(run('seed-1', 200));
    expect(run('seed-2', 5)).not.toEqual(run('seed-1', 5));
  });

  it('starts at realistic prices and walks them in small decimal steps', () => {
    const [first] = run('seed-1', 1);
    expect(first!.map((tick) => `${tick.base}/${tick.quote}`)).toEqual([
      'BTC/GBP',
      'BTC/EUR',
      'ETH/GBP',
      'XRP/USD',
    ]);
    for (const tick of first!) expect(tick.mid).toMatch(/^\d+\.\d{8}$/);
    const btcGbp = Number(first![0]!.mid);
    expect(btcGbp).toBeGreaterThan(72000 * 0.999);
    expect(btcGbp).toBeLessThan(72000 * 1.001);
    // EUR is the GBP price through a pound-to-euro rate near 1.17.
    expect(Number(first![1]!.mid) / btcGbp).toBeCloseTo(1.17, 3);
  });

  it('carries on from the last stored prices after a restart', () => {
    const lastPrices = new Map([
      ['BTC/GBP', '80000.00000000'],
      ['BTC/EUR', '96000.00000000'],
    ]);
    const market = createSimulatedMarket({ pairs: PAIRS, seed: 'r', now: () => AT, lastPrices });
    const [btcGbp, btcEur, ethGbp] = market.step();
    expect(Number(btcGbp!.mid)).toBeCloseTo(80000, -2);
    // The euro rate is the one the stored prices imply (1.2), not the starting 1.17.
    expect(Number(btcEur!.mid) / Number(btcGbp!.mid)).toBeCloseTo(1.2, 3);
    expect(Number(ethGbp!.mid)).toBeCloseTo(2600, -1);
  });

  it('carries on from the prices another instance was producing when it takes over', () => {
    const market = createSimulatedMarket({ pairs: PAIRS, seed: 'takeover', now: () => AT });
    market.step();
    market.continueFrom!(
      new Map([
        ['BTC/GBP', '50000'],
        ['BTC/EUR', '60000'],
      ]),
    );
    const [btcGbp, btcEur, ethGbp] = market.step();
    expect(Number(btcGbp!.mid)).toBeCloseTo(50000, -2);
    expect(Number(btcEur!.mid) / Number(btcGbp!.mid)).toBeCloseTo(1.2, 3);
    // A coin the old leader did not price keeps walking from where it was.
    expect(Number(ethGbp!.mid)).toBeCloseTo(2600, -1);
  });

  it('ticks once a second once started and not after it stops', () => {
    const { timers, scheduled } = manualTimers();
    const market = createSimulatedMarket({ pairs: PAIRS, seed: 's', now: () => AT, timers });
    const batches: Tick[][] = [];
    market.start((ticks) => batches.push(ticks));
    expect(scheduled).toEqual([expect.objectContaining({ ms: 1000, repeat: true })]);
    scheduled[0]!.callback();
    scheduled[0]!.callback();
    expect(batches).toHaveLength(2);
    expect(batches[0]).toHaveLength(PAIRS.length);
    market.stop();
    expect(scheduled[0]!.cleared).toBe(true);
  });

  it('simulates the same past for the same seed, ending at the starting price', () => {
    const now = new Date('2026-11-23T12:34:56Z');
    const history = simulateHistory({ pairs: [{ base: 'BTC', quote: 'GBP' }], now, seed: 'h' });
    expect(history).toEqual(simulateHistory({ pairs: [{ base: 'BTC', quote: 'GBP' }], now, seed: 'h' }));
    const lastMinute = history.filter((candle) => candle.resolution === 'minute').at(-1);
    expect(lastMinute).toMatchObject({ start_at: new Date('2026-11-23T12:33:00Z'), close: '72000.00000000' });
    for (const candle of history) {
      expect(Number(candle.high)).toBeGreaterThanOrEqual(Math.max(Number(candle.open), Number(candle.close)));
      expect(Number(candle.low)).toBeLessThanOrEqual(Math.min(Number(candle.open), Number(candle.close)));
      expect(Number(candle.low)).toBeGreaterThan(0);
    }
  });
});

/** Frames as Kraken's v2 websocket sends them (docs.kraken.com, "Ticker (Level 1)"). */
const RECORDED = {
  status:
    '{"channel":"status","type":"update","data":[{"version":"2.0.9","system":"online","api_version":"v2","connection_id":12393906104898154338}]}',
  subscribed:
    '{"method":"subscribe","result":{"channel":"ticker","event_trigger":"trades","snapshot":true,"symbol":"BTC/GBP"},"success":true,"time_in":"2026-11-23T12:00:00.412345Z","time_out":"2026-11-23T12:00:00.412399Z"}',
  snapshot:
    '{"channel":"ticker","type":"snapshot","data":[{"symbol":"BTC/GBP","bid":71998.4,"bid_qty":0.25,"ask":71998.5,"ask_qty":1.02436011,"last":71998.5,"volume":312.10733312,"vwap":71543.2,"low":70880.1,"high":72310.0,"change":812.3,"change_pct":1.14}]}',
  update:
    '{"channel":"ticker","type":"update","data":[{"symbol":"XRP/GBP","bid":0.45123,"bid_qty":1500.0,"ask":0.45131,"ask_qty":820.5,"last":0.45127,"volume":1830021.2,"vwap":0.4498,"low":0.4421,"high":0.4577,"change":0.0031,"change_pct":0.69,"timestamp":"2026-11-23T12:00:01.250000Z"}]}',
  heartbeat: '{"channel":"heartbeat"}',
  failedSubscribe:
    '{"error":"Currency pair not supported BCH/EUR","method":"subscribe","success":false,"symbol":"BCH/EUR","time_in":"2026-11-23T12:00:00.412345Z","time_out":"2026-11-23T12:00:00.412399Z"}',
};

type FakeSocket = { handlers: Record<string, (arg?: unknown) => void>; sent: string[]; closed: boolean };

function fakeConnect(sockets: FakeSocket[]) {
  return (): KrakenSocket => {
    const socket: FakeSocket = { handlers: {}, sent: [], closed: false };
    sockets.push(socket);
    const fake = {
      on: (event: string, listener: (arg?: unknown) => void) => {
        socket.handlers[event] = listener;
        return fake;
      },
      send: (text: string) => socket.sent.push(text),
      close: () => {
        socket.closed = true;
      },
    };
    return fake as unknown as KrakenSocket;
  };
}

describe('the Kraken ticker adapter', () => {
  it('turns ticker snapshots and updates into mid prices', () => {
    expect(parseKrakenMessage(RECORDED.snapshot, () => AT)).toEqual([
      { base: 'BTC', quote: 'GBP', mid: '71998.45000000', at: AT },
    ]);
    expect(parseKrakenMessage(RECORDED.update, () => AT)).toEqual([
      { base: 'XRP', quote: 'GBP', mid: '0.45127000', at: new Date('2026-11-23T12:00:01.250Z') },
    ]);
  });

  it('ignores heartbeats, status, acknowledgements, errors and malformed frames', () => {
    for (const frame of [
      RECORDED.status,
      RECORDED.subscribed,
      RECORDED.heartbeat,
      RECORDED.failedSubscribe,
      'not json',
      '[]',
    ]) {
      expect(parseKrakenMessage(frame)).toEqual([]);
    }
    // A crossed book (ask below bid) or a zero price is a glitch, not a price.
    expect(parseKrakenMessage(RECORDED.snapshot.replace('"ask":71998.5', '"ask":70000'))).toEqual([]);
    expect(parseKrakenMessage(RECORDED.snapshot.replace('"bid":71998.4', '"bid":0'))).toEqual([]);
  });

  it('subscribes to every pair on connect, delivers ticks and reconnects after a drop', () => {
    const sockets: FakeSocket[] = [];
    const { timers, scheduled } = manualTimers();
    const clock = AT;
    const source = createKrakenSource({
      pairs: PAIRS,
      connect: fakeConnect(sockets),
      timers,
      now: () => clock,
    });
    const batches: Tick[][] = [];
    source.start((ticks) => batches.push(ticks));

    sockets[0]!.handlers.open!();
    expect(JSON.parse(sockets[0]!.sent[0]!)).toEqual({
      method: 'subscribe',
      params: {
        channel: 'ticker',
        symbol: ['BTC/GBP', 'BTC/EUR', 'ETH/GBP', 'XRP/USD'],
        event_trigger: 'bbo',
      },
    });
    expect(sockets[0]!.sent).toEqual([krakenSubscribeMessage(PAIRS)]);
    sockets[0]!.handlers.message!(Buffer.from(RECORDED.heartbeat));
    sockets[0]!.handlers.message!(Buffer.from(RECORDED.snapshot));
    expect(batches).toEqual([[{ base: 'BTC', quote: 'GBP', mid: '71998.45000000', at: AT }]]);

    sockets[0]!.handlers.close!();
    const reconnect = scheduled.find((timer) => !timer.repeat);
    expect(reconnect).toMatchObject({ ms: 5000 });
    reconnect!.callback();
    expect(sockets).toHaveLength(2);

    source.stop();
    expect(sockets[1]!.closed).toBe(true);
    sockets[1]!.handlers.close!();
    expect(scheduled.filter((timer) => !timer.repeat)).toHaveLength(1);
    expect(scheduled.every((timer) => timer.repeat === false || timer.cleared)).toBe(true);
  });

  it('repeats the last prices each second while Kraken is heard, and stops when it falls silent', () => {
    const sockets: FakeSocket[] = [];
    const { timers, scheduled } = manualTimers();
    let clock = AT;
    const source = createKrakenSource({
      pairs: PAIRS,
      connect: fakeConnect(sockets),
      timers,
      now: () => clock,
    });
    const batches: Tick[][] = [];
    source.start((ticks) => batches.push(ticks));
    const repeat = scheduled.find((timer) => timer.repeat)!;
    expect(repeat.ms).toBe(1000);

    repeat.callback(); // nothing heard yet: nothing to repeat
    expect(batches).toHaveLength(0);
    sockets[0]!.handlers.message!(Buffer.from(RECORDED.snapshot));
    clock = new Date(AT.getTime() + 1000);
    sockets[0]!.handlers.message!(Buffer.from(RECORDED.heartbeat));
    repeat.callback();
    expect(batches.at(-1)).toEqual([{ base: 'BTC', quote: 'GBP', mid: '71998.45000000', at: clock }]);

    // Silence longer than the alive window: no more repeats, so the market marks the price stale.
    clock = new Date(AT.getTime() + 7000);
    repeat.callback();
    expect(batches).toHaveLength(2);
    source.stop();
    expect(repeat.cleared).toBe(true);
  });
});
