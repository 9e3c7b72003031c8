import WebSocket from 'ws';
import { systemTimers, type PriceSource, type Tick, type Timers } from './source.js';

const RECONNECT_MS = 5000;
/**
 * A quiet pair can go minutes without a new price while the feed is fine. So
 * each second the source repeats every pair's last price as long as the
 * exchange said anything (both send heartbeats every second) in this window;
 * once the connection falls silent the repeats stop and the prices go stale.
 */
const REPEAT_MS = 1000;
const ALIVE_MS = 5000;

/** The part of a websocket the adapters use, so tests hand them a fake one. */
export type FeedSocket = {
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: WebSocket.RawData) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  send(text: string): void;
  close(): void;
};

export type WebsocketSourceOptions = {
  url: string;
  now?: () => Date;
  timers?: Timers;
  connect?: (url: string) => FeedSocket;
  onError?: (error: Error) => void;
};

/**
 * An exchange's public websocket ticker as a price source: it subscribes on
 * every connect, turns frames into ticks, repeats the last prices while the
 * exchange is heard, and reconnects after a dropped connection.
 */
export function createWebsocketSource(
  exchange: {
    name: string;
    subscribeMessages: () => string[];
    parse: (text: string, now: () => Date) => Tick[];
  },
  options: WebsocketSourceOptions,
): PriceSource {
  const timers = options.timers ?? systemTimers;
  const now = options.now ?? (() => new Date());
  const connect = options.connect ?? ((url: string) => new WebSocket(url));
  let socket: FeedSocket | undefined;
  let reconnect: unknown;
  let repeater: unknown;
  let running = false;
  let lastFrameAt: number | undefined;
  let lastHeardAt: Date | undefined;
  const lastTicks = new Map<string, Tick>();

  const open = (onTicks: (ticks: Tick[]) => void): void => {
    const current = connect(options.url);
    socket = current;
    current.on('open', () => {
      for (const message of exchange.subscribeMessages()) current.send(message);
    });
    current.on('message', (data) => {
      if (socket !== current) return;
      lastHeardAt = now();
      lastFrameAt = lastHeardAt.getTime();
      const ticks = exchange.parse(rawToText(data), now);
      for (const tick of ticks) lastTicks.set(`${tick.base}/${tick.quote}`, tick);
      if (ticks.length > 0) onTicks(ticks);
    });
    current.on('error', (error) => options.onError?.(error));
    current.on('close', () => {
      if (!running || socket !== current) return;
      lastFrameAt = undefined;
      // Meanwhile no ticks arrive, so the market service marks prices stale on its own.
      reconnect = timers.setTimeout(() => open(onTicks), RECONNECT_MS);
    });
  };

  return {
    name: exchange.name,
    start(onTicks) {
      running = true;
      open(onTicks);
      repeater = timers.setInterval(() => {
        const at = now();
        if (lastFrameAt === undefined || at.getTime() - lastFrameAt > ALIVE_MS || lastTicks.size === 0)
          return;
        onTicks([...lastTicks.values()].map((tick) => ({ ...tick, at })));
      }, REPEAT_MS);
    },
    stop() {
      running = false;
      if (repeater !== undefined) timers.clearInterval(repeater);
      if (reconnect !== undefined) timers.clearTimeout(reconnect);
      socket?.close();
      socket = undefined;
    },
    lastMessageAt: () => lastHeardAt,
  };
}

function rawToText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
