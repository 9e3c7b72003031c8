import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * Market data (issue 5): candles for the chart, the public price feed strip
 * and the coins list of the fees page. Prices are decimal strings, never numbers;
 * `time` is a unix timestamp in seconds (the chart library's own unit).
 */

/** The most rows one candle call answers, so a single request cannot scan years of minutes. */
export const CANDLE_LIMIT_MAX = 2000;
export const CANDLE_LIMIT_DEFAULT = 300;
export const CANDLE_AGGREGATE_MAX = 60;

export const CANDLE_RESOLUTIONS = ['minute', 'hour', 'day'] as const;
export type CandleResolution = (typeof CANDLE_RESOLUTIONS)[number];

const CodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,10}$/, 'Must be a coin or currency code such as BTC or GBP.');

/** The spec's market-data parameters; `e` (the exchange, in the CryptoCompare style) is accepted and ignored. */
export const CandleQuerySchema = z
  .object({
    fsym: CodeSchema.optional(),
    tsym: CodeSchema.optional(),
    /** `BTC/GBP`: the same pair as fsym and tsym, for callers that name it that way. */
    symbol: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{2,10}\/[A-Z0-9]{2,10}$/, 'A symbol is COIN/FIAT, e.g. BTC/GBP.')
      .optional(),
    /** The newest candle start to include, unix seconds; unset: now. */
    toTs: z.coerce.number().int('Must be a whole number of seconds.').min(0).optional(),
    /** How many periods (of `aggregate` each) back from toTs; a period without ticks has no row. */
    limit: z.coerce
      .number()
      .int('Must be a whole number.')
      .min(1, 'Must be at least 1.')
      .max(CANDLE_LIMIT_MAX, `Must be at most ${CANDLE_LIMIT_MAX}.`)
      .default(CANDLE_LIMIT_DEFAULT),
    /** Periods per row, e.g. 5 minutes or 4 hours for the chart's 5 and 240 resolutions (CryptoCompare's name). */
    aggregate: z.coerce
      .number()
      .int('Must be a whole number.')
      .min(1, 'Must be at least 1.')
      .max(CANDLE_AGGREGATE_MAX, `Must be at most ${CANDLE_AGGREGATE_MAX}.`)
      .default(1),
    e: z.string().max(40).optional(),
  })
  .refine((query) => query.symbol !== undefined || query.fsym !== undefined, {
    message: 'Name the pair with fsym (and tsym) or symbol.',
    path: ['fsym'],
  });
export type CandleQuery = z.infer<typeof CandleQuerySchema>;

export const CandleRowSchema = z.object({
  time: z.number().int(),
  low: z.string(),
  high: z.string(),
  open: z.string(),
  close: z.string(),
});
export type CandleRow = z.infer<typeof CandleRowSchema>;

/** Oldest first; a period with no tick has no row. */
export const CandlesSchema = z.object({ data: z.array(CandleRowSchema) });
export type Candles = z.infer<typeof CandlesSchema>;

function candleEndpoint(resolution: CandleResolution) {
  return defineEndpoint({
    method: 'GET',
    path: `/api/v1/market-data/histo${resolution}`,
    summary: `Price candles of one ${resolution}, oldest first`,
    query: CandleQuerySchema,
    responses: { 200: CandlesSchema },
  });
}
export const getHistoMinute = candleEndpoint('minute');
export const getHistoHour = candleEndpoint('hour');
export const getHistoDay = candleEndpoint('day');

export const PriceFeedItemSchema = z.object({
  coin: z.object({ coin_id: z.string(), name: z.string() }),
  /** The hourly opens of the last 24 hours, oldest first. */
  history: z.array(z.object({ open: z.string(), time: z.number().int() })),
  /** Change over the last 24 hours in percent, two decimals ("-1.25"); null without a day of history. */
  percentage: z.string().nullable(),
  /** What one coin sells for in GBP now (the bid); null while prices are stale. */
  details: z.object({ gbp_bid: z.string().nullable() }),
});
export type PriceFeedItem = z.infer<typeof PriceFeedItemSchema>;
/** Keyed by coin_id. */
export const PriceFeedSchema = z.record(z.string(), PriceFeedItemSchema);
export type PriceFeed = z.infer<typeof PriceFeedSchema>;

export const getPriceFeed = defineEndpoint({
  method: 'GET',
  path: '/crypto/price-feed',
  summary: 'Every active coin with its GBP bid and last 24 hours, for the public price strip',
  responses: { 200: PriceFeedSchema },
});

export const PublicCoinSchema = z.object({
  coin_id: z.string(),
  /** Percent; null: the customer's fee schedule applies uncapped. */
  platform_fee: z.string().nullable(),
  /** In the coin's units ("0.01000000"). */
  amount_min: z.string(),
  /** The largest single trade in the coin's units; null: no maximum. */
  amount_max: z.string().nullable(),
});
export type PublicCoin = z.infer<typeof PublicCoinSchema>;
/** Keyed by coin_id. */
export const PublicCoinsSchema = z.record(z.string(), PublicCoinSchema);
export type PublicCoins = z.infer<typeof PublicCoinsSchema>;

export const listPublicCoins = defineEndpoint({
  method: 'GET',
  path: '/api/crypto/coins',
  summary: 'Trading limits and fee of every active coin, for the fees page',
  responses: { 200: PublicCoinsSchema },
});
