import { z } from 'zod';
import { PriceDecimal, formatPrice } from './decimal.js';
import type { PricePair, PriceSource, Tick } from './source.js';
import { createWebsocketSource, type WebsocketSourceOptions } from './websocket-source.js';

/** Coinbase Exchange's public websocket feed: no key needed for the ticker and heartbeat channels. */
export const COINBASE_WS_URL = 'wss://ws-feed.exchange.coinbase.com';

/** Coinbase sends prices as decimal strings, kept as text end to end. */
const PriceTextSchema = z.string().regex(/^\d+(\.\d+)?$/);

const TickerMessageSchema = z.object({
  type: z.literal('ticker'),
  product_id: z.string(),
  best_bid: PriceTextSchema,
  best_ask: PriceTextSchema,
  time: z.string().datetime({ offset: true }).optional(),
});

/**
 * One websocket text frame to ticks: the mid of a ticker's best bid and ask.
 * Heartbeats, subscriptions, errors and malformed frames yield no tick.
 */
export function parseCoinbaseMessage(text: string, now: () => Date = () => new Date()): Tick[] {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = TickerMessageSchema.safeParse(message);
  if (!parsed.success) return [];
  const ticker = parsed.data;
  const [base, quote] = ticker.product_id.split('-');
  if (!base || !quote) return [];
  const bid = new PriceDecimal(ticker.best_bid);
  const ask = new PriceDecimal(ticker.best_ask);
  // A zero side or a crossed book is a glitch, not a price.
  if (bid.isZero() || ask.isZero() || ask.lessThan(bid)) return [];
  return [
    { base, quote, mid: formatPrice(bid.plus(ask).div(2)), at: ticker.time ? new Date(ticker.time) : now() },
  ];
}

/**
 * One subscription per product: Coinbase refuses a whole subscribe message
 * for one product it does not list, which must not silence the others. The
 * heartbeat channel says the feed is alive when a quiet pair does not trade.
 */
export function coinbaseSubscribeMessages(pairs: readonly PricePair[]): string[] {
  return pairs.map((pair) =>
    JSON.stringify({
      type: 'subscribe',
      product_ids: [`${pair.base}-${pair.quote}`],
      channels: ['ticker', 'heartbeat'],
    }),
  );
}

/** Coinbase Exchange's ticker as a price source; it reconnects after a dropped connection. */
export function createCoinbaseSource(
  options: Omit<WebsocketSourceOptions, 'url'> & { pairs: readonly PricePair[]; url?: string },
): PriceSource {
  return createWebsocketSource(
    {
      name: 'coinbase',
      subscribeMessages: () => coinbaseSubscribeMessages(options.pairs),
      parse: parseCoinbaseMessage,
    },
    { ...options, url: options.url ?? COINBASE_WS_URL },
  );
}
