import { z } from 'zod';
import { MAX_ASSET_SCALE, decimalPlaces, quantityDecimalsOf, scaleOf } from '@florin/domain';
import { CoinIdSchema } from './crypto.js';
import { defineEndpoint } from './endpoint.js';
import { DecimalStringSchema, fitsColumn, TOO_LARGE_TEXTS } from './money.js';
import { pageSchema } from './pagination.js';

/**
 * Trading (issue 9; spec 002 §2.3, §2.4, §3, §4, §5, §7, §8, §9): instant
 * buy and sell at a server quote executed by id, market orders priced by the
 * server with a maximum slippage, limit and stop orders that hold what they
 * may spend and fill on the house's price, positions with profit and loss.
 * Florin is the counterparty. Texts in quotes in the spec are kept word for
 * word.
 */

export const TRADING_TEXTS = {
  // spec 002 §5, §8
  exceedingBalance: 'You are exceeding your current balance',
  transactionSuccessful: 'Transaction Successful',
  insufficientFundsTitle: 'Insufficient Funds',
  quantityRequired: 'Field order quantity is required',
  priceRequired: 'Field order price is required',
  cancelProcessing: 'Cancel order processing...',
  orderNotFound: 'Order not found.',
  noTransactions: 'You have no transactions.',
  // ours (docs/decisions/049-trading-quotes-orders-positions.md)
  insufficientFunds: 'Your balance is not enough for this order.',
  quoteExpired: 'This price has expired. Please preview the order again.',
  quoteUsed: 'This quote has been executed already.',
  quoteNotFound: 'This quote does not exist. Please preview the order again.',
  buyDisabled: 'Buying this coin is paused at the moment.',
  sellDisabled: 'Selling this coin is paused at the moment.',
  notTradable: 'This coin cannot be traded against this currency.',
  slippageExceeded:
    'The price moved more than your maximum slippage allows: nothing was traded. Please try again.',
  amountDecimals: 'Enter at most 4 decimal places.',
  instantDecimals: 'Enter at most 8 decimal places.',
  wholeUnits: 'XRP is traded in whole units: enter a number without a decimal point.',
  amountFormat: 'Enter a number such as 0.5.',
  quantityOrCost: 'Enter a quantity or a cost.',
  orderPlaced: 'Order placed.',
  orderCancelled: 'Order cancelled.',
  orderNotOpen: 'This order is no longer open.',
  expiryInPast: 'The expiry must be in the future.',
  notTradingPlatform: 'Market and limit orders are for trading accounts. Upgrade to trade to use them.',
} as const;

/** A quote is good for this long; the preview counts down and asks for a new one (spec 002 §9: 5 seconds). */
export const QUOTE_SECONDS = 5;
/** Server-side grace beyond the countdown, for the time a click takes to arrive. */
export const QUOTE_GRACE_SECONDS = 2;
/** DECISIONS.md: a market order may carry a maximum slippage, 1 % by default. */
export const DEFAULT_MAX_SLIPPAGE_PERCENT = '1';
export const OPEN_ORDERS_PAGE_SIZE = 20;

const isoDateTime = z.string();
const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const TradeSideSchema = z.enum(['buy', 'sell']);
export type TradeSide = z.infer<typeof TradeSideSchema>;
/** The fiat a coin is traded against (DECISIONS.md: any fiat the customer holds). */
export const TradeFiatSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['gbp', 'eur', 'usd'], { error: 'Choose GBP, EUR or USD.' }));
export type TradeFiat = z.infer<typeof TradeFiatSchema>;

/**
 * A positive decimal with at most `places` decimals; `required` is the text for empty or zero. A coin
 * quantity is bounded for any coin (MAX_ASSET_SCALE), a price as prices are kept (money.ts fitsColumn).
 */
export function tradeAmountSchema(
  places: number,
  required: string,
  decimalsText: string,
  kind: 'amount' | 'price' = 'amount',
) {
  return z
    .union([z.string(), z.number()], { error: required })
    .transform((value) => String(value).trim())
    .superRefine((text, ctx) => {
      if (text === '' || /^0*(\.0*)?$/.test(text)) ctx.addIssue({ code: 'custom', message: required });
      else if (!/^\d+(\.\d+)?$/.test(text))
        ctx.addIssue({ code: 'custom', message: TRADING_TEXTS.amountFormat });
      else if ((decimalPlaces(text) ?? 0) > places) ctx.addIssue({ code: 'custom', message: decimalsText });
      else if (!fitsColumn(text, MAX_ASSET_SCALE, kind))
        ctx.addIssue({ code: 'custom', message: TOO_LARGE_TEXTS[kind] });
    });
}

/**
 * A figure the spec's clients send that the server works out itself (DECISIONS.md: the client's price,
 * fee and totals are ignored): as text or as a JSON number, so a spec-shaped body is not refused for it.
 */
const clientFigure = z.union([z.string().max(40), z.number()]).transform((value) => String(value).trim());

/** Spec 002 §5, "For xrp no decimal point is allowed": a coin quantity of XRP in whole units. */
function checkWholeUnits(
  coinId: string,
  quantity: string | null | undefined,
  field: string,
  ctx: z.RefinementCtx,
): void {
  if (quantity && quantityDecimalsOf(coinId, 1) === 0 && quantity.includes('.'))
    ctx.addIssue({ code: 'custom', path: [field], message: TRADING_TEXTS.wholeUnits });
}

// ---- quotes and instant orders (spec 002 §2.3, §3 "Instant order payload", §4) ----

export const QuoteRequestSchema = z
  .strictObject({
    side: TradeSideSchema,
    coin_id: CoinIdSchema,
    currency: TradeFiatSchema.default('gbp'),
    /** The coin quantity typed; or leave empty and send the cost. */
    quantity: z.string().trim().max(40).nullish(),
    /** The fiat typed in Cost: paid including the fee (buy) or received after it (sell). */
    cost: z.string().trim().max(40).nullish(),
  })
  .superRefine((body, ctx) => {
    const check = (field: 'quantity' | 'cost', places: number, scale: number) => {
      const text = body[field];
      if (!text) return;
      if (!/^\d+(\.\d+)?$/.test(text) || !/[1-9]/.test(text))
        ctx.addIssue({ code: 'custom', path: [field], message: TRADING_TEXTS.amountFormat });
      else if ((decimalPlaces(text) ?? 0) > places)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: places === 2 ? 'Enter at most 2 decimal places.' : TRADING_TEXTS.instantDecimals,
        });
      else if (!fitsColumn(text, scale))
        ctx.addIssue({ code: 'custom', path: [field], message: TOO_LARGE_TEXTS.amount });
    };
    check('quantity', 8, MAX_ASSET_SCALE);
    check('cost', 2, scaleOf('GBP'));
    checkWholeUnits(body.coin_id, body.quantity, 'quantity', ctx);
    if (!body.quantity && !body.cost)
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: TRADING_TEXTS.quantityOrCost });
  });
export type QuoteRequest = z.input<typeof QuoteRequestSchema>;

export const QuoteSchema = z.object({
  id: z.string(),
  side: TradeSideSchema,
  coin_id: CoinIdSchema,
  currency: z.enum(['gbp', 'eur', 'usd']),
  /** COIN/FIAT upper case, e.g. BTC/GBP. */
  symbol: z.string(),
  /** The customer's ask (buy) or bid (sell), fiat per coin. */
  price: DecimalStringSchema,
  quantity: DecimalStringSchema,
  /** quantity × price: the spec's total_cost_wo_fee. */
  total_cost_wo_fee: DecimalStringSchema,
  fee: DecimalStringSchema,
  fee_percent: z.string(),
  /** What leaves (buy) or reaches (sell) the fiat balance: the spec's total_cost_w_fee. */
  total_cost_w_fee: DecimalStringSchema,
  /** The fiat (buy) or coin (sell) available now, and whether the order fits it. */
  available: DecimalStringSchema,
  exceeds_balance: z.boolean(),
  expires_at: isoDateTime,
  seconds: z.number().int(),
});
export type Quote = z.infer<typeof QuoteSchema>;

export const createQuote = defineEndpoint({
  method: 'POST',
  path: '/api/v1/quotes',
  summary:
    "A price for an instant buy or sell at the customer's fee, good for 5 seconds; executed by POST /api/v1/order",
  body: QuoteRequestSchema,
  responses: { 200: z.object({ data: QuoteSchema }) },
});

/**
 * The spec's instant order (002 §3), form-encoded, plus the quote it executes. The client's price,
 * fee and totals are ignored: the quote's apply (DECISIONS.md). A quote executes once.
 */
export const InstantOrderBodySchema = z.strictObject({
  quote_id: z
    .string({ error: TRADING_TEXTS.quoteNotFound })
    .trim()
    .min(1, TRADING_TEXTS.quoteNotFound)
    .max(64),
  coin_id: CoinIdSchema.optional(),
  side: TradeSideSchema.optional(),
  symbol: z.string().max(20).optional(),
  order_type: z.string().max(20).optional(),
  order_qty: clientFigure.optional(),
  price: clientFigure.optional(),
  fee: clientFigure.optional(),
  total_cost_w_fee: clientFigure.optional(),
  total_cost_wo_fee: clientFigure.optional(),
  currency: z.string().max(10).optional(),
});

export const TRADE_KINDS = ['instant', 'market', 'limit', 'stop'] as const;
export const TradeKindSchema = z.enum(TRADE_KINDS);

export const TradeSchema = z.object({
  id: z.string(),
  kind: TradeKindSchema,
  side: TradeSideSchema,
  coin_id: CoinIdSchema,
  currency: z.enum(['gbp', 'eur', 'usd']),
  symbol: z.string(),
  price: DecimalStringSchema,
  quantity: DecimalStringSchema,
  total_cost_wo_fee: DecimalStringSchema,
  fee: DecimalStringSchema,
  total_cost_w_fee: DecimalStringSchema,
  created_at: isoDateTime,
});
export type Trade = z.infer<typeof TradeSchema>;

const tradeAnswer = z.object({ data: TradeSchema, message: z.string() });

export const placeInstantOrder = defineEndpoint({
  method: 'POST',
  path: '/api/v1/order',
  summary:
    'Execute an instant quote (form-encoded or JSON, the spec’s fields plus quote_id); 400 Insufficient Funds when the balance no longer covers it',
  body: InstantOrderBodySchema,
  responses: { 200: tradeAnswer },
});

// ---- market orders (spec 002 §3 "Market trade payload") ----

export const MarketTradeBodySchema = z
  .strictObject({
    coin_id: CoinIdSchema,
    crypto_amount: tradeAmountSchema(4, TRADING_TEXTS.quantityRequired, TRADING_TEXTS.amountDecimals),
    /** The price the customer saw: slippage is measured from it. */
    crypto_price: clientFigure.nullish(),
    fee: clientFigure.nullish(),
    gbp_amount: clientFigure.nullish(),
    gbp_amount_total: clientFigure.nullish(),
    currency: TradeFiatSchema.default('gbp'),
    /** Percent; the order fails when the execution price is worse than crypto_price by more. */
    max_slippage_percent: z
      .string()
      .trim()
      .regex(/^\d{1,2}(\.\d{1,2})?$/, 'Enter a slippage between 0 and 99.99 percent.')
      .default(DEFAULT_MAX_SLIPPAGE_PERCENT),
  })
  .superRefine((body, ctx) => checkWholeUnits(body.coin_id, body.crypto_amount, 'crypto_amount', ctx));
export type MarketTradeBody = z.input<typeof MarketTradeBodySchema>;

export const marketBuy = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/buy',
  summary: 'A market buy priced by the server now (trading accounts). Needs the Idempotency-Key header.',
  body: MarketTradeBodySchema,
  responses: { 200: tradeAnswer },
});

export const marketSell = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/sell',
  summary: 'A market sell priced by the server now (trading accounts). Needs the Idempotency-Key header.',
  body: MarketTradeBodySchema,
  responses: { 200: tradeAnswer },
});

// ---- limit and stop orders (spec 002 §3 "Limit order payload", "Open order") ----

/** The spec's side numbers (002 §3): 1 buy, 2 sell. */
export const ORDER_SIDES = { 1: 'buy', 2: 'sell' } as const;
/** The spec's order_type 2 is a limit order; 3 is our stop order (sell when the bid falls to the stop price). */
export const ORDER_TYPES = { 2: 'limit', 3: 'stop' } as const;
export const ORDER_TYPE_LABELS = { limit: 'LIMIT', stop: 'STOP' } as const;

export const LimitOrderBodySchema = z
  .strictObject({
    coin_id: CoinIdSchema,
    order_qty: tradeAmountSchema(4, TRADING_TEXTS.quantityRequired, TRADING_TEXTS.amountDecimals),
    price: tradeAmountSchema(4, TRADING_TEXTS.priceRequired, TRADING_TEXTS.amountDecimals, 'price'),
    symbol: z.string().trim().max(20).nullish(),
    side: z.coerce
      .number()
      .pipe(z.union([z.literal(1), z.literal(2)], { error: 'Choose buy (1) or sell (2).' })),
    order_type: z.coerce
      .number()
      .pipe(z.union([z.literal(2), z.literal(3)], { error: 'Choose a limit (2) or stop (3) order.' }))
      .default(2),
    currency: TradeFiatSchema.default('gbp'),
    /** Good till cancelled when empty. */
    expires_at: z.iso.datetime({ offset: true, error: 'Enter the expiry as a date and time.' }).nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.order_type === 3 && body.side !== 2)
      ctx.addIssue({ code: 'custom', path: ['side'], message: 'A stop order sells: choose sell (2).' });
    checkWholeUnits(body.coin_id, body.order_qty, 'order_qty', ctx);
  });
export type LimitOrderBody = z.input<typeof LimitOrderBodySchema>;

export const ORDER_STATUSES = ['open', 'filled', 'cancelled', 'expired'] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

export const OpenOrderSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  coin_id: CoinIdSchema,
  currency: z.enum(['gbp', 'eur', 'usd']),
  order_qty: DecimalStringSchema,
  price: DecimalStringSchema,
  /** LIMIT or STOP. */
  order_type: z.string(),
  /** The spec's side number: 1 buy, 2 sell. */
  side: z.union([z.literal(1), z.literal(2)]),
  status: OrderStatusSchema,
  /** What the order holds: fiat with the fee (buy) or the coin (sell). */
  held: DecimalStringSchema,
  /** The house price it waits for (ask for a buy, bid for a sell) now; null without a fresh price. */
  market_price: DecimalStringSchema.nullable(),
  /** market − order price, and that as a percentage of the market price (the earlier layout's Delta, % Away). */
  delta: z.string().nullable(),
  percent_away: z.string().nullable(),
  expires_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  filled_at: isoDateTime.nullable(),
});
export type OpenOrder = z.infer<typeof OpenOrderSchema>;

export const placeLimitOrder = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/limit_order',
  summary:
    'Place a limit (or stop) order: holds the most it may spend; fills on the house price. Needs the Idempotency-Key header.',
  body: LimitOrderBodySchema,
  responses: { 200: z.object({ data: OpenOrderSchema, message: z.string() }) },
});

export const listLimitOrders = defineEndpoint({
  method: 'GET',
  path: '/api/v1/crypto/limit_orders',
  summary: "The customer's open orders (or by status), newest first",
  query: z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    status: OrderStatusSchema.default('open'),
    coin_id: CoinIdSchema.optional(),
  }),
  responses: { 200: pageSchema(OpenOrderSchema) },
});

/** Spec 002 §7 names the list by both addresses: "GET /api/v1/crypto/limit_order or limit_orders". */
export const listLimitOrdersBySingularPath = defineEndpoint({
  ...listLimitOrders,
  path: '/api/v1/crypto/limit_order',
});

export const cancelLimitOrder = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/limit_order/{id}/cancel',
  summary: 'Cancel an open order (its hold is released); 404 Order not found. for another customer’s',
  params: z.strictObject({ id: idParam }),
  responses: { 200: z.object({ data: OpenOrderSchema, message: z.string() }) },
});

// ---- positions (spec 002 §2.4, §3 "Position") ----

export const PositionSchema = z.object({
  coin_id: CoinIdSchema,
  symbol: z.string(),
  currency: z.literal('gbp'),
  quantity: DecimalStringSchema,
  /**
   * Pooled cost basis per coin in GBP (fees included), as HMRC's section 104 pool averages it;
   * null when the coins came only from deposits (no trade gives their cost).
   */
  average_cost: DecimalStringSchema.nullable(),
  /** The house's bid now: what the position would fetch; null without a fresh price. */
  price: DecimalStringSchema.nullable(),
  value: DecimalStringSchema.nullable(),
  unrealised_pnl: z.string().nullable(),
  direction: z.enum(['up', 'down', 'flat']).nullable(),
  order_type: z.literal('MARKET'),
});
export type Position = z.infer<typeof PositionSchema>;

export const listPositions = defineEndpoint({
  method: 'GET',
  path: '/api/v1/crypto/positions',
  summary:
    'Each coin the customer holds with its pooled average cost, current price and unrealised profit and loss',
  responses: { 200: z.object({ data: z.array(PositionSchema) }) },
});

// ---- the customer's fee (what the screens show and compute previews with) ----

export const TradingTermsSchema = z.object({
  platform: z.union([z.literal(1), z.literal(2)]),
  tier: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  /** Set when staff gave the customer a Custom plan. */
  custom_fee_percent: z.string().nullable(),
  /** This calendar year's GBP trading volume, from which the tier comes. */
  volume_gbp: DecimalStringSchema,
  /** The schedule's fee in percent for the customer's platform, Tier 1 to Tier 4, as staff keep it. */
  tier_fee_percents: z.array(z.string()).length(4),
  /** Per coin: the fee after the coin's cap, the trade minimum and maximum, and whether buy and sell are on. */
  coins: z.array(
    z.object({
      coin_id: CoinIdSchema,
      fee_percent: z.string(),
      amount_min: DecimalStringSchema,
      amount_max: DecimalStringSchema.nullable(),
      can_buy: z.boolean(),
      can_sell: z.boolean(),
    }),
  ),
});
export type TradingTerms = z.infer<typeof TradingTermsSchema>;

export const getTradingTerms = defineEndpoint({
  method: 'GET',
  path: '/api/v1/trading/terms',
  summary: "The customer's platform, tier, fee per coin and trade limits",
  responses: { 200: z.object({ data: TradingTermsSchema }) },
});
