import { z } from 'zod';

/**
 * The websocket at /ws (issue 5): one connection per browser, channels by
 * name. A price symbol is `COIN/FIAT` in upper case (`BTC/GBP`). Prices are
 * decimal strings, never numbers.
 */
export const WS_PATH = '/ws';
export const PriceSymbolSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,10}\/(GBP|EUR|USD)$/, 'A symbol is COIN/FIAT, e.g. BTC/GBP.');

/** One coin's price in one fiat at one tick: what the server quotes and streams. */
export const PriceUpdateSchema = z.object({
  symbol: z.string(),
  /** The source's mid price. */
  mid: z.string(),
  /** What Florin pays when the customer sells (mid less the coin's bid spread). */
  bid: z.string(),
  /** What the customer pays when buying (mid plus the coin's ask spread). */
  ask: z.string(),
  /** ISO time of the tick. */
  at: z.string(),
  /** The source stopped ticking: shown, but nothing may be quoted or traded at it. */
  stale: z.boolean(),
});
export type PriceUpdate = z.infer<typeof PriceUpdateSchema>;

/**
 * Something of the signed-in customer's changed; the page refetches what it
 * shows. `balances`: money moved (balances and activity); `orders`: an order
 * of theirs was executed (instant or market), or a limit or stop order was
 * placed, filled, cancelled or expired. Sent
 * only to the connections whose session cookie is that customer's; no
 * subscription needed.
 */
export const UserEventSchema = z.enum(['balances', 'orders']);
export type UserEvent = z.infer<typeof UserEventSchema>;

export const WsClientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('subscribe'),
    channel: z.literal('prices'),
    symbols: z.array(PriceSymbolSchema).min(1).max(50),
  }),
  z.strictObject({
    type: z.literal('unsubscribe'),
    channel: z.literal('prices'),
    symbols: z.array(PriceSymbolSchema).min(1).max(50),
  }),
  z.strictObject({ type: z.literal('ping') }),
]);
export type WsClientMessage = z.infer<typeof WsClientMessageSchema>;

export const WsServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('price'), data: PriceUpdateSchema }),
  z.object({ type: z.literal('subscribed'), channel: z.literal('prices'), symbols: z.array(z.string()) }),
  z.object({ type: z.literal('unsubscribed'), channel: z.literal('prices'), symbols: z.array(z.string()) }),
  /** Sent every few seconds; a client that hears nothing for three of them reconnects. */
  z.object({ type: z.literal('heartbeat'), at: z.string() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('user'), event: UserEventSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type WsServerMessage = z.infer<typeof WsServerMessageSchema>;
