import WebSocket from 'ws';
import { z } from 'zod';
import { PriceDecimal, formatPrice } from './decimal.js';
import { systemTimers, type PricePair, type PriceSource, type Tick, type Timers } from './source.js';

/** Kraken's public websocket, API v2: no key needed for the ticker channel. */
export const KRAKEN_WS_URL = 'wss://ws.kraken.com/v2';
const RECONNECT_MS = 5000;
/**
 * A quiet pair can go minutes without a new best bid or ask while the feed is
 * fine. So each second the source repeats every pair's last price as long as
 * Kraken said anything (it sends a heartbeat every second) in this window;
 * once the connection falls silent the repeats stop and the prices go stale.
 */
const REPEAT_MS = 1000;
const ALIVE_MS = 5000;

/**
 * Kraken sends prices as JSON numbers. Its prices carry at most ~10 significant
 * digits, and a double prints back as the shortest text that round-trips, so
 * String(number) is the exact text Kraken sent.
 */
const PriceNumberSchema = z.number().positive();

const TickerMessageSchema = z.object({
  channel: z.literal('ticker'),
  type: z.enum(['snapshot', 'update']),
  data: z.array(
    z.object({
      symbol: z.string(),
      bid: PriceNumberSchema,
      ask: PriceNumberSchema,
      timestamp: z.string().datetime({ offset: true }).optional(),
    }),
  ),
});

/** Kraken calls bitcoin BTC in v2 but some feeds still say XBT; Florin says BTC. */
function toFlorinCode(code: string): string {
  return code === 'XBT' ? 'BTC' : code;
}

/**
 * One websocket text frame to ticks: the mid of each ticker's best bid and ask.
 * Everything else (heartbeats, status, subscribe acknowledgements, malformed
 * frames) yields no tick.
 */
export function parseKrakenMessage(text: string, now: () => Date = () => new Date()): Tick[] {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = TickerMessageSchema.safeParse(message);
  if (!parsed.success) return [];
  const ticks: Tick[] = [];
  for (const ticker of parsed.data.data) {
    const [base, quote] = ticker.symbol.split('/');
    if (!base || !quote) continue;
    const bid = new PriceDecimal(String(ticker.bid));
    const ask = new PriceDecimal(String(ticker.ask));
    if (ask.lessThan(bid)) continue; // a crossed book is a glitch, not a price
    ticks.push({
      base: toFlorinCode(base),
      quote: toFlorinCode(quote),
      mid: formatPrice(bid.plus(ask).div(2)),
      at: ticker.timestamp ? new Date(ticker.timestamp) : now(),
    });
  }
  return ticks;
}

export function krakenSubscribeMessage(pairs: readonly PricePair[]): string {
  return JSON.stringify({
    method: 'subscribe',
    params: {
      channel: 'ticker',
      symbol: pairs.map((pair) => `${pair.base}/${pair.quote}`),
      // Every change of the best bid or offer, not only trades: the mid moves with the book.
      event_trigger: 'bbo',
    },
  });
}

/** The part of a websocket the adapter uses, so tests hand it a fake one. */
export type KrakenSocket = {
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: WebSocket.RawData) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  send(text: string): void;
  close(): void;
};

/** Kraken's ticker as a price source; it reconnects after a dropped connection. */
export function createKrakenSource(options: {
  pairs: readonly PricePair[];
  url?: string;
  now?: () => Date;
  timers?: Timers;
  connect?: (url: string) => KrakenSocket;
  onError?: (error: Error) => void;
}): PriceSource {
  const timers = options.timers ?? systemTimers;
  const now = options.now ?? (() => new Date());
  const connect = options.connect ?? ((url: string) => new WebSocket(url));
  let socket: KrakenSocket | undefined;
  let reconnect: unknown;
  let repeater: unknown;
  let running = false;
  let lastFrameAt: number | undefined;
  const lastTicks = new Map<string, Tick>();

  const open = (onTicks: (ticks: Tick[]) => void): void => {
    const current = connect(options.url ?? KRAKEN_WS_URL);
    socket = current;
    current.on('open', () => current.send(krakenSubscribeMessage(options.pairs)));
    current.on('message', (data) => {
      if (socket !== current) return;
      lastFrameAt = now().getTime();
      const ticks = parseKrakenMessage(rawToText(data), now);
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
    name: 'kraken',
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
  };
}

function rawToText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
