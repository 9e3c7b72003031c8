import { z } from 'zod';
import { PriceDecimal, formatPrice } from './decimal.js';
import type { PricePair, PriceSource, Tick } from './source.js';
import { createWebsocketSource, type FeedSocket, type WebsocketSourceOptions } from './websocket-source.js';

/** Kraken's public websocket, API v2: no key needed for the ticker channel. */
export const KRAKEN_WS_URL = 'wss://ws.kraken.com/v2';
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
export type KrakenSocket = FeedSocket;

/** Kraken's ticker as a price source; it reconnects after a dropped connection. */
export function createKrakenSource(
  options: Omit<WebsocketSourceOptions, 'url'> & { pairs: readonly PricePair[]; url?: string },
): PriceSource {
  return createWebsocketSource(
    {
      name: 'kraken',
      subscribeMessages: () => [krakenSubscribeMessage(options.pairs)],
      parse: parseKrakenMessage,
    },
    { ...options, url: options.url ?? KRAKEN_WS_URL },
  );
}
