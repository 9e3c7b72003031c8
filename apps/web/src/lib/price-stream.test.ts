import type { PriceUpdate, WsServerMessage } from '@florin/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isPriceStale, PriceStream, type SocketLike } from './price-stream';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  isClosed = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.isClosed = true;
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: WsServerMessage | string): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
}

function tick(symbol: string, mid: string): PriceUpdate {
  return { symbol, mid, bid: mid, ask: mid, at: '2026-11-23T12:00:00.000Z', stale: false };
}

let sockets: FakeSocket[];
let stream: PriceStream;

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  stream = new PriceStream({
    url: 'ws://florin.test/ws',
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('PriceStream', () => {
  it('opens one connection for every symbol and subscribes to each once it is open', () => {
    stream.subscribe('BTC/GBP', () => undefined);
    stream.subscribe('ETH/GBP', () => undefined);
    stream.subscribe('BTC/GBP', () => undefined);
    expect(sockets).toHaveLength(1);
    expect(stream.status).toBe('connecting');

    sockets[0]!.open();

    expect(stream.status).toBe('open');
    expect(sockets[0]!.sent).toEqual([
      { type: 'subscribe', channel: 'prices', symbols: ['BTC/GBP'] },
      { type: 'subscribe', channel: 'prices', symbols: ['ETH/GBP'] },
    ]);
  });

  it('hands each price to the listeners of its symbol only, and remembers the latest', () => {
    const btc = vi.fn();
    const eth = vi.fn();
    stream.subscribe('BTC/GBP', btc);
    stream.subscribe('ETH/GBP', eth);
    sockets[0]!.open();

    sockets[0]!.receive({ type: 'price', data: tick('BTC/GBP', '65000.00') });
    sockets[0]!.receive('not json');
    sockets[0]!.receive({ type: 'heartbeat', at: '2026-11-23T12:00:00.000Z' });

    expect(btc).toHaveBeenCalledExactlyOnceWith(tick('BTC/GBP', '65000.00'));
    expect(eth).not.toHaveBeenCalled();
    expect(stream.latest('BTC/GBP')?.mid).toBe('65000.00');
  });

  it('subscribes a symbol added while open and unsubscribes it when its last listener leaves', () => {
    stream.subscribe('BTC/GBP', () => undefined);
    sockets[0]!.open();
    const release = stream.subscribe('ETH/EUR', () => undefined);
    release();

    expect(sockets[0]!.sent.slice(1)).toEqual([
      { type: 'subscribe', channel: 'prices', symbols: ['ETH/EUR'] },
      { type: 'unsubscribe', channel: 'prices', symbols: ['ETH/EUR'] },
    ]);
    expect(sockets[0]!.isClosed).toBe(false);
  });

  it('closes the connection when nothing is wanted any more', () => {
    const release = stream.subscribe('BTC/GBP', () => undefined);
    sockets[0]!.open();
    release();
    expect(sockets[0]!.isClosed).toBe(true);
    expect(stream.status).toBe('idle');
  });

  it('reconnects after a drop with doubling delays and subscribes again', () => {
    stream.subscribe('BTC/GBP', () => undefined);
    sockets[0]!.open();
    sockets[0]!.drop();
    expect(stream.status).toBe('reconnecting');

    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);

    sockets[1]!.drop();
    vi.advanceTimersByTime(1_999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);

    sockets[2]!.open();
    expect(stream.status).toBe('open');
    expect(sockets[2]!.sent).toEqual([{ type: 'subscribe', channel: 'prices', symbols: ['BTC/GBP'] }]);
  });

  it('never waits longer than the cap between attempts', () => {
    stream.subscribe('BTC/GBP', () => undefined);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      sockets.at(-1)!.drop();
      vi.advanceTimersByTime(30_000);
    }
    expect(sockets).toHaveLength(9);
  });

  it('treats 45 seconds without any message as a dead line and reconnects', () => {
    stream.subscribe('BTC/GBP', () => undefined);
    sockets[0]!.open();
    vi.advanceTimersByTime(30_000);
    sockets[0]!.receive({ type: 'heartbeat', at: '2026-11-23T12:00:30.000Z' });
    vi.advanceTimersByTime(44_999);
    expect(sockets[0]!.isClosed).toBe(false);

    vi.advanceTimersByTime(1);
    expect(sockets[0]!.isClosed).toBe(true);
    expect(stream.status).toBe('reconnecting');
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(2);
  });

  it('tells status listeners when the connection state changes', () => {
    const onStatus = vi.fn();
    stream.onStatusChange(onStatus);
    stream.subscribe('BTC/GBP', () => undefined);
    sockets[0]!.open();
    expect(onStatus).toHaveBeenCalledTimes(2);
  });
});

describe('PriceStream user events', () => {
  it("opens the connection for the customer's events alone and passes each one on", () => {
    const onEvent = vi.fn();
    stream.onUserEvent(onEvent);
    expect(sockets).toHaveLength(1);
    sockets[0]!.open();
    expect(sockets[0]!.sent).toEqual([]);
    sockets[0]!.receive({ type: 'user', event: 'balances' });
    expect(onEvent).toHaveBeenCalledWith('balances');
  });

  it('closes when the last listener of either kind is released', () => {
    const release = stream.onUserEvent(() => undefined);
    const unsubscribe = stream.subscribe('BTC/GBP', () => undefined);
    sockets[0]!.open();
    release();
    expect(sockets[0]!.isClosed).toBe(false);
    unsubscribe();
    expect(sockets[0]!.isClosed).toBe(true);
  });

  it('tells event listeners to refetch after a reconnection, since events sent meanwhile are lost', () => {
    const onEvent = vi.fn();
    stream.onUserEvent(onEvent);
    sockets[0]!.open();
    sockets[0]!.drop();
    vi.advanceTimersByTime(1_000);
    expect(onEvent).not.toHaveBeenCalled();
    sockets[1]!.open();
    expect(onEvent.mock.calls).toEqual([['balances'], ['orders']]);
  });
});

describe('isPriceStale', () => {
  const fresh = tick('BTC/GBP', '65000.00');

  it('says a price is stale when the server marks it so', () => {
    expect(isPriceStale({ ...fresh, stale: true }, 'open')).toBe(true);
    expect(isPriceStale(fresh, 'open')).toBe(false);
  });

  it('says prices are stale while the line to the server is down, whatever the last tick said', () => {
    expect(isPriceStale(fresh, 'reconnecting')).toBe(true);
    expect(isPriceStale(undefined, 'reconnecting')).toBe(true);
  });

  it('says nothing before the first price of a healthy line', () => {
    expect(isPriceStale(undefined, 'connecting')).toBe(false);
  });
});
