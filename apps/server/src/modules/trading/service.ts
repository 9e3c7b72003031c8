import { createHash, randomBytes } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import {
  AppError,
  assetOfCoinId,
  coinIdOfAsset,
  CryptoAssetSchema,
  listLimitOrders,
  OPEN_ORDERS_PAGE_SIZE,
  ORDER_TYPE_LABELS,
  QUOTE_GRACE_SECONDS,
  QUOTE_SECONDS,
  TRADING_TEXTS,
  type CoinId,
  type OpenOrder,
  type OrderStatus,
  type Page,
  type Position,
  type PriceUpdate,
  type Quote,
  type Trade,
  type TradeFiat,
  type TradeSide,
  type TradingTerms,
} from '@florin/contracts';
import {
  FEE_TIERS,
  feePercent,
  formatAmount,
  instantQuote,
  notional,
  parseAmount,
  spreadMultiplier,
  tierForVolume,
  tradeFee,
  trimZeros,
  type AssetCode,
  type TradingPlatform,
} from '@florin/domain';
import type { FeeScheduleStore } from '../fees/schedule.js';
import { ON_HOLD, type DB } from '../../db/schema.js';
import type { DomainCheck, Ledger, Posting } from '../../ledger/index.js';
import { readPage } from '../../http/pages.js';
import type { MarketService } from '../market/service.js';
import type { InvestorService } from '../investor/service.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier } from '../notifications/service.js';
import type { UserEvents } from '../realtime/index.js';
import type { OrderRow, TradeCoin, Trader, TradeRow, TradingRepository } from './repository.js';

/** Prices and percentages: exact decimals, never a JS number. */
const Exact = Decimal.clone({ precision: 60 });

/** Orders one transaction fills; a pass fills up to this many in each lane. */
const FILL_BATCH = 500;
/**
 * Transactions a pass runs at once, over different customers' orders: while
 * the database writes one batch the app prices the next (two cores are
 * busy, not one). On PGlite they queue on its one connection.
 */
const FILL_LANES = 2;

type Answer<T> = { data: T; message: string };

export type TradingServiceDeps = {
  db: Kysely<DB>;
  repository: TradingRepository;
  ledger: Ledger;
  market: Pick<MarketService, 'quote' | 'gbpRate'>;
  notifier: Notifier;
  userEvents: UserEvents;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** The customer's running promo fee discount in percent of the fee (issue 10), or null. */
  feeDiscountFor: (userId: number) => Promise<string | null>;
  /** The schedule staff keep in the back office: every quote and order is priced by it. */
  feeSchedule: Pick<FeeScheduleStore, 'current'>;
  /** The first-investment journey (issue 13): a buy waits until it is complete; a sale never does. */
  investor: Pick<InvestorService, 'assertMayInvest'>;
  /** Spec 000 §6: a customer whose verification is incomplete neither buys nor sells. */
  verification: VerificationGate;
  /**
   * After trades commit (compliance): a customer who answered No to the £15,000 source-of-wealth
   * question and has now traded more than that this year is asked for their source of wealth.
   */
  sourceOfWealth: { resetSourceOfWealthOverThreshold(userIds: readonly number[]): Promise<void> };
  /** Orders one fill transaction takes (FILL_BATCH); tests make it small to see a pass read several times. */
  fillBatch?: number;
};

export type TradingService = ReturnType<typeof createTradingService>;

function asAsset(code: string): AssetCode {
  return code as AssetCode;
}

function money(units: string | bigint, asset: string): string {
  return formatAmount(BigInt(units), asAsset(asset));
}

/** The spec's coin_id of a coin's asset code; refuses anything that is not a listed coin. */
function coinIdOf(asset: string): CoinId {
  return coinIdOfAsset(CryptoAssetSchema.parse(asset));
}

function symbolOf(asset: string, fiat: string): string {
  return `${asset}/${fiat}`;
}

function fiatOf(currency: TradeFiat): string {
  return currency.toUpperCase();
}

function hashRequest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/** 400 with the spec's handling (002 §8: 'Insufficient Funds' on a 400) and the reason in `data`. */
function orderRefused(message: string): AppError {
  return new AppError('ORDER_REFUSED', message);
}

const userRef = (userId: number, asset: string) => ({
  asset: asAsset(asset),
  kind: 'available' as const,
  ownerUserId: String(userId),
});
const inventoryRef = (asset: string) => ({ asset: asAsset(asset), kind: 'inventory' as const });
const feeRevenueRef = (asset: string) => ({ asset: asAsset(asset), kind: 'fee_revenue' as const });

/** LEDGER.md's trade: the customer's fiat and coin against the house's inventory, the fee to revenue. */
function tradePostings(input: {
  userId: number;
  side: TradeSide;
  asset: string;
  fiat: string;
  quantity: bigint;
  notional: bigint;
  fee: bigint;
}): Posting[] {
  const { userId, asset, fiat, quantity, fee } = input;
  const value = input.notional;
  const postings: Posting[] =
    input.side === 'buy'
      ? [
          { account: userRef(userId, fiat), amount: -(value + fee) },
          { account: inventoryRef(fiat), amount: value },
          { account: inventoryRef(asset), amount: -quantity },
          { account: userRef(userId, asset), amount: quantity },
        ]
      : [
          { account: userRef(userId, asset), amount: -quantity },
          { account: inventoryRef(asset), amount: quantity },
          { account: inventoryRef(fiat), amount: -value },
          { account: userRef(userId, fiat), amount: value - fee },
        ];
  if (fee > 0n) postings.push({ account: feeRevenueRef(fiat), amount: fee });
  return postings;
}

function toTrade(row: TradeRow): Trade {
  return {
    id: row.id,
    kind: row.kind,
    side: row.side,
    coin_id: coinIdOf(row.asset),
    currency: row.fiat.toLowerCase() as Trade['currency'],
    symbol: symbolOf(row.asset, row.fiat),
    price: row.price,
    quantity: money(row.quantity, row.asset),
    total_cost_wo_fee: money(row.notional, row.fiat),
    fee: money(row.fee, row.fiat),
    total_cost_w_fee: money(row.total, row.fiat),
    created_at: row.created_at.toISOString(),
  };
}

/**
 * Trading: Florin is the counterparty. A quote fixes a price at the
 * customer's fee for a few seconds and executes once; a market order is
 * priced at execution within a maximum slippage; a limit or stop order holds
 * what it may spend and fills when the customer's own price reaches it. Every
 * execution is one journal (LEDGER.md) and one trades row; the customer's
 * pages are told and they are mailed after the commit.
 */
export function createTradingService(deps: TradingServiceDeps) {
  const { db, repository, ledger, market, notifier, userEvents, log, investor, verification } = deps;
  const ordersPerRead = (deps.fillBatch ?? FILL_BATCH) * FILL_LANES;

  async function requireTrader(userId: number): Promise<Trader> {
    const trader = await repository.findTrader(userId);
    if (!trader) throw new AppError('UNAUTHENTICATED');
    return trader;
  }

  /** Why this customer may not trade this side now; DECISIONS.md [4]: a source-of-wealth reset stops buying only. */
  function refusalOf(trader: Trader, side: TradeSide): AppError | null {
    if (trader.status !== 1 || trader.block_status === ON_HOLD) return new AppError('ACCOUNT_NOT_LIVE');
    if (trader.terminated_at && trader.terminated_at <= new Date()) return new AppError('ACCOUNT_TERMINATED');
    if (side === 'buy' && trader.is_sow_reset === 1)
      return new AppError('FORBIDDEN', 'Please answer the source-of-wealth questions before buying.');
    return null;
  }

  function checkMayTrade(trader: Trader, side: TradeSide): void {
    const refusal = refusalOf(trader, side);
    if (refusal) throw refusal;
  }

  function checkTradingPlatform(trader: Trader): void {
    if (trader.platform !== 2) throw new AppError('FORBIDDEN', TRADING_TEXTS.notTradingPlatform);
  }

  async function coinFor(coinId: CoinId, side: TradeSide | null): Promise<TradeCoin> {
    const asset = assetOfCoinId(coinId);
    const coin = (await repository.listCoins()).find((row) => row.asset === asset);
    if (!coin || !coin.active) throw new AppError('FORBIDDEN', TRADING_TEXTS.notTradable);
    if (side === 'buy' && coin.disable_buy) throw new AppError('FORBIDDEN', TRADING_TEXTS.buyDisabled);
    if (side === 'sell' && coin.disable_sell) throw new AppError('FORBIDDEN', TRADING_TEXTS.sellDisabled);
    return coin;
  }

  /** The customer's fee for a coin and the multiplier of their spreads (DECISIONS.md "Fees, tiers, referrals"). */
  async function pricingOf(trader: Trader, coin: TradeCoin | null) {
    const platform: TradingPlatform = trader.platform === 2 ? 2 : 1;
    const volume = await repository.volumeThisYear(trader.id);
    const tier = tierForVolume(volume);
    const schedule = await deps.feeSchedule.current();
    const base = { schedule, platform, tier, customPercent: trader.custom_fee_percent };
    const discountPercent = await deps.feeDiscountFor(trader.id);
    return {
      platform,
      tier,
      volume,
      schedule,
      discountPercent,
      feePercent: feePercent({ ...base, coinPlatformFee: coin?.platform_fee ?? null, discountPercent }),
      // The spread follows the schedule and the tier, not a promo: a discount lowers the fee only.
      multiplier: spreadMultiplier(schedule, platform, feePercent(base)),
    };
  }

  function checkLimits(coin: TradeCoin, quantity: bigint, field: string): void {
    const asset = coin.asset;
    if (quantity < BigInt(coin.amount_min)) {
      const text = `The smallest order is ${trimZeros(money(coin.amount_min, asset))} ${asset}.`;
      throw new AppError('VALIDATION_FAILED', text, { [field]: [text] });
    }
    if (coin.amount_max !== null && quantity > BigInt(coin.amount_max)) {
      const text = `The most you can trade in one order is ${trimZeros(money(coin.amount_max, asset))} ${asset}.`;
      throw new AppError('VALIDATION_FAILED', text, { [field]: [text] });
    }
  }

  /**
   * What a trade is worth in pence: this year's sum is the customer's tier volume and what the £15,000 source-of-wealth
   * threshold reads. A non-GBP trade is valued at the coin's GBP price or, without one, its fiat's; null when
   * neither is fresh, and the trade waits (a volume recorded as nothing would miss the tier and the threshold).
   */
  function gbpValueOf(asset: string, fiat: string, quantity: bigint, value: bigint): bigint | null {
    if (fiat === 'GBP') return value;
    const coinRate = market.gbpRate(asset);
    if (coinRate !== null) return notional(quantity, asAsset(asset), coinRate, 'GBP', 'floor');
    const fiatRate = market.gbpRate(fiat);
    return fiatRate === null ? null : notional(value, asAsset(fiat), fiatRate, 'GBP', 'floor');
  }

  /** The trade's GBP value now; PRICES_STALE when no fresh price gives one. */
  function requireGbpValue(asset: string, fiat: string, quantity: bigint, value: bigint): bigint {
    const gbpValue = gbpValueOf(asset, fiat, quantity, value);
    if (gbpValue === null) throw new AppError('PRICES_STALE');
    return gbpValue;
  }

  type Execution = {
    trader: Trader;
    kind: TradeRow['kind'];
    side: TradeSide;
    asset: string;
    fiat: string;
    price: string;
    quantity: bigint;
    notional: bigint;
    fee: bigint;
    total: bigint;
    /** What the trade is worth in pence (gbpValueOf), fixed when it is priced. */
    gbpValue: bigint;
    feePercent: string;
    quoteId?: string;
    order?: OrderRow;
    idempotencyKey?: string;
    requestHash?: string;
  };

  /** What every execution's journal says about it. */
  function journalOf(input: Execution) {
    return {
      kind: input.order ? ('limit_order_fill' as const) : ('trade' as const),
      reference: input.order
        ? `order:${input.order.id}`
        : input.quoteId
          ? `quote:${input.quoteId}`
          : undefined,
      metadata: { side: input.side, price: input.price, symbol: symbolOf(input.asset, input.fiat) },
      postings: tradePostings({ userId: input.trader.id, ...input }),
    };
  }

  function tradeRowOf(input: Execution, journalId: string): Omit<TradeRow, 'id' | 'created_at'> {
    return {
      user_id: input.trader.id,
      kind: input.kind,
      side: input.side,
      asset: input.asset,
      fiat: input.fiat,
      price: input.price,
      quantity: input.quantity.toString(),
      notional: input.notional.toString(),
      fee: input.fee.toString(),
      total: input.total.toString(),
      fee_percent: input.feePercent,
      gbp_value: input.gbpValue.toString(),
      quote_id: input.quoteId ?? null,
      order_id: input.order?.id ?? null,
      idempotency_key: input.idempotencyKey ?? null,
      request_hash: input.requestHash ?? null,
      journal_id: journalId,
    };
  }

  /** One instant or market execution: its journal and its trades row. */
  async function execute(trx: Kysely<DB>, input: Execution): Promise<TradeRow> {
    let journalId: string;
    try {
      ({ journalId } = await ledger.postJournal(trx, {
        ...journalOf(input),
        idempotencyKey: input.quoteId
          ? `trade:quote:${input.quoteId}`
          : `trade:${input.trader.id}:${input.idempotencyKey ?? ''}`,
      }));
    } catch (error) {
      if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')
        throw orderRefused(TRADING_TEXTS.insufficientFunds);
      throw error;
    }
    return repository.insertTrade(trx, tradeRowOf(input, journalId));
  }

  async function afterTrade(trader: Trader, trade: TradeRow): Promise<void> {
    // First: the pages told of the trade read the user again, and should find the reset it may bring.
    await checkSourceOfWealth([trader.id]);
    userEvents.moneyMoved([trader.id]);
    userEvents.ordersChanged([trader.id]);
    await mailTrade(trader, trade);
  }

  /** The trades have committed whatever this finds: a failure is logged, and the customer's next trade checks again. */
  async function checkSourceOfWealth(userIds: readonly number[]): Promise<void> {
    try {
      await deps.sourceOfWealth.resetSourceOfWealthOverThreshold(userIds);
    } catch (error) {
      log.error({ err: error, userIds }, 'source-of-wealth threshold check failed');
    }
  }

  async function mailTrade(trader: Trader, trade: TradeRow): Promise<void> {
    await notifier.notify(trader, 'trade_executed', {
      firstName: trader.first_name,
      side: trade.side,
      quantity: money(trade.quantity, trade.asset),
      asset: trade.asset,
      price: trade.price,
      fiat: trade.fiat,
      total: money(trade.total, trade.fiat),
    });
  }

  function toOrder(row: OrderRow): OpenOrder {
    let marketPrice: string | null = null;
    let delta: string | null = null;
    let percentAway: string | null = null;
    if (row.status === 'open') {
      try {
        const prices = market.quote(symbolOf(row.asset, row.fiat), {
          spreadMultiplier: row.spread_multiplier,
        });
        marketPrice = row.side === 'buy' ? prices.ask : prices.bid;
        const difference = new Exact(marketPrice).minus(row.price);
        delta = difference.toFixed(2);
        percentAway = difference.div(marketPrice).times(100).toFixed(2);
      } catch {
        // No fresh price: the screen shows the order without its distance.
      }
    }
    return {
      id: row.id,
      symbol: symbolOf(row.asset, row.fiat),
      coin_id: coinIdOf(row.asset),
      currency: row.fiat.toLowerCase() as OpenOrder['currency'],
      order_qty: money(row.quantity, row.asset),
      price: row.price,
      order_type: ORDER_TYPE_LABELS[row.type],
      side: row.side === 'buy' ? 1 : 2,
      status: row.status,
      held: money(row.held, row.side === 'buy' ? row.fiat : row.asset),
      market_price: marketPrice,
      delta,
      percent_away: percentAway,
      expires_at: row.expires_at?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
      filled_at: row.filled_at?.toISOString() ?? null,
    };
  }

  /** What an order would execute at now: null when this customer's price has not reached it (or none is fresh). */
  function fillOf(order: OrderRow, trader: Trader): Execution | null {
    let prices: PriceUpdate;
    try {
      prices = market.quote(symbolOf(order.asset, order.fiat), { spreadMultiplier: order.spread_multiplier });
    } catch {
      return null;
    }
    const limit = new Exact(order.price);
    const crossed =
      order.type === 'stop'
        ? limit.gte(prices.bid)
        : order.side === 'buy'
          ? limit.gte(prices.ask)
          : limit.lte(prices.bid);
    if (!crossed) return null;
    // At the limit price or better: the customer's price now, which has crossed it.
    const price = order.side === 'buy' ? prices.ask : prices.bid;
    const quoted = instantQuote({
      side: order.side,
      coin: asAsset(order.asset),
      fiat: asAsset(order.fiat),
      price,
      feePercent: order.fee_percent,
      quantity: BigInt(order.quantity),
    });
    // Without a GBP value the order stays open: a later tick with fresh prices fills it.
    const gbpValue = gbpValueOf(order.asset, order.fiat, quoted.quantity, quoted.notional);
    if (gbpValue === null) return null;
    return {
      trader,
      kind: order.type,
      side: order.side,
      asset: order.asset,
      fiat: order.fiat,
      price,
      ...quoted,
      gbpValue,
      feePercent: order.fee_percent,
      order,
    };
  }

  type Fill = { trader: Trader; trade: TradeRow };

  /**
   * Fills those of these orders that their customer's price has reached, in
   * one transaction and a fixed number of statements however many there are
   * (a tick can cross thousands): the orders locked, their holds posted
   * together (ledger.postHolds), the trades inserted and the orders marked
   * filled in one statement each.
   */
  async function fillOrders(orderIds: readonly string[]): Promise<Fill[]> {
    return db.transaction().execute(async (trx) => {
      const orders = await repository.lockOpenOrders(trx, orderIds);
      if (orders.length === 0) return [];
      const customers = [...new Set(orders.map((order) => order.user_id))];
      const traders = new Map(
        (await repository.findTraders(trx, customers)).map((trader) => [trader.id, trader]),
      );
      const unverified = await verification.refusedAmong(customers, trx);
      const fills: (Execution & { order: OrderRow })[] = [];
      for (const order of orders) {
        const trader = traders.get(order.user_id);
        // What refuses a new order keeps a resting one unfilled: a customer on hold until compliance decides,
        // a terminated one (who may only withdraw, and cancel), a buyer until source of wealth is answered again,
        // a customer whose verification lapsed (a declined document, a new address) until it is complete again.
        if (!trader || refusalOf(trader, order.side) !== null || unverified.has(trader.id)) continue;
        const fill = fillOf(order, trader);
        if (fill) fills.push({ ...fill, order });
      }
      if (fills.length === 0) return [];
      const journals = await ledger.postHolds(
        trx,
        fills.map((fill) => ({
          ...journalOf(fill),
          holdId: fill.order.hold_id,
          amount: fill.side === 'buy' ? fill.total : fill.quantity,
          idempotencyKey: `order_fill:${fill.order.id}`,
          releaseRest: true,
        })),
      );

      const trades = await repository.insertTrades(
        trx,
        fills.map((fill, index) => tradeRowOf(fill, journals[index]?.journalId ?? '')),
      );
      await repository.markOrdersFilled(
        trx,
        fills.map((fill) => fill.order.id),
      );

      const traderOf = new Map(fills.map((fill) => [fill.order.id, fill.trader]));
      return trades.flatMap((trade) => {
        const trader = trade.order_id === null ? undefined : traderOf.get(trade.order_id);
        return trader ? [{ trader, trade }] : [];
      });
    });
  }

  /**
   * Fills crossed orders together; should that fail (one order's problem
   * must not hold up the others), one at a time. An order that cannot be
   * filled on its own stays open and is logged for staff, every pass until
   * someone looks: the sweep itself never fails because of it.
   */
  async function fillCrossed(orderIds: readonly string[]): Promise<Fill[]> {
    try {
      return await fillOrders(orderIds);
    } catch (error) {
      if (orderIds.length === 1) {
        log.error({ err: error, orderId: orderIds[0] }, 'order fill failed');
        return [];
      }
      const fills: Fill[] = [];
      for (const id of orderIds) fills.push(...(await fillCrossed([id])));
      return fills;
    }
  }

  /** After the fills committed: the source-of-wealth threshold checked, the customers' pages told, then each trade mailed. */
  async function afterFills(fills: readonly Fill[]): Promise<void> {
    if (fills.length === 0) return;
    const customers = [...new Set(fills.map((fill) => fill.trader.id))];
    await checkSourceOfWealth(customers);
    userEvents.moneyMoved(customers);
    userEvents.ordersChanged(customers);
    for (const { trader, trade } of fills) await mailTrade(trader, trade);
  }

  async function expireOrder(orderId: string): Promise<number | null> {
    return db.transaction().execute(async (trx) => {
      const order = await repository.lockOrder(trx, orderId);
      if (!order || order.status !== 'open' || !order.expires_at || order.expires_at > new Date())
        return null;
      await ledger.releaseHold(trx, { holdId: order.hold_id, outcome: 'expired' });
      await repository.updateOrder(trx, order.id, { status: 'expired' });
      return order.user_id;
    });
  }

  let sweeping: Promise<void> | null = null;
  let sweepAgain = false;
  /** Set at shutdown: no sweep starts, and the one running ends after the fills in flight commit. */
  let stopping = false;

  /** Fills every order the prices have crossed and expires those past their time, one pass at a time. */
  async function sweep(updates: readonly PriceUpdate[]): Promise<{ filled: number; expired: number }> {
    const filled: Fill[] = [];
    let expired = 0;
    for (const update of updates) {
      if (update.stale) continue;
      const [asset = '', fiat = ''] = update.symbol.split('/');
      // Orders that stay open (a customer on hold or unverified, a fill that failed) are passed over, not read
      // again: however many there are, the crossed orders behind them fill in this pass.
      let after: string | null = null;
      for (;;) {
        const crossed = await repository.listCrossedOrders(asset, fiat, update.mid, ordersPerRead, after);
        // Lanes by customer: no two lanes touch one customer's accounts, so they never wait on each other.
        const lanes = Array.from({ length: FILL_LANES }, (_, lane) =>
          crossed.filter((order) => order.user_id % FILL_LANES === lane).map((order) => order.id),
        ).filter((ids) => ids.length > 0);
        const fills = (await Promise.all(lanes.map((ids) => fillCrossed(ids)))).flat();
        filled.push(...fills);
        const last = crossed.at(-1);
        if (!last || crossed.length < ordersPerRead || stopping) break;
        after = last.seq;
      }
      // The orders not read stay open and crossed: the next leader's first tick fills them.
      if (stopping) break;
    }
    // Mails wait until every crossed order is filled: they must not hold up the next batch's commit.
    await afterFills(filled);
    const moved = new Set<number>();
    for (const { id } of stopping ? [] : await repository.listExpiredOrders(FILL_BATCH)) {
      const userId = await expireOrder(id);
      if (userId !== null) {
        expired += 1;
        moved.add(userId);
      }
    }
    if (moved.size > 0) {
      userEvents.moneyMoved([...moved]);
      userEvents.ordersChanged([...moved]);
    }
    return { filled: filled.length, expired };
  }

  const service = {
    /** Spec 000 §9: those of these customers whose trades this calendar year exceed £15,000 (kyc, compliance). */
    listOverSourceOfWealthThreshold: (userIds: readonly number[], executor?: Kysely<DB>) =>
      repository.listOverSourceOfWealthThreshold(userIds, executor),

    // ---- the customer's terms ----

    async terms(userId: number): Promise<{ data: TradingTerms }> {
      const trader = await requireTrader(userId);
      const base = await pricingOf(trader, null);
      const coins = (await repository.listCoins()).filter((coin) => coin.active);
      return {
        data: {
          platform: base.platform,
          tier: base.tier,
          custom_fee_percent:
            trader.custom_fee_percent === null ? null : trimZeros(trader.custom_fee_percent),
          volume_gbp: money(base.volume, 'GBP'),
          tier_fee_percents: FEE_TIERS.map((tier) => base.schedule[base.platform][tier]),
          coins: coins.map((coin) => ({
            coin_id: coin.coin_id as CoinId,
            fee_percent: feePercent({
              schedule: base.schedule,
              platform: base.platform,
              tier: base.tier,
              customPercent: trader.custom_fee_percent,
              coinPlatformFee: coin.platform_fee,
              // The fee the quote will charge, promo included, so the screens' totals and maximum agree with it.
              discountPercent: base.discountPercent,
            }),
            amount_min: money(coin.amount_min, coin.asset),
            amount_max: coin.amount_max === null ? null : money(coin.amount_max, coin.asset),
            can_buy: !coin.disable_buy,
            can_sell: !coin.disable_sell,
          })),
        },
      };
    },

    // ---- instant: quote, then execute it by id ----

    async quote(
      userId: number,
      body: {
        side: TradeSide;
        coin_id: CoinId;
        currency: TradeFiat;
        quantity?: string | null;
        cost?: string | null;
      },
    ): Promise<{ data: Quote }> {
      const trader = await requireTrader(userId);
      checkMayTrade(trader, body.side);
      await verification.assertComplete(userId);
      if (body.side === 'buy') await investor.assertMayInvest(userId);
      const coin = await coinFor(body.coin_id, body.side);
      const asset = coin.asset;
      const fiat = fiatOf(body.currency);
      const pricing = await pricingOf(trader, coin);
      const prices = market.quote(symbolOf(asset, fiat), { spreadMultiplier: pricing.multiplier });
      const price = body.side === 'buy' ? prices.ask : prices.bid;
      const quoted = instantQuote({
        side: body.side,
        coin: asAsset(asset),
        fiat: asAsset(fiat),
        price,
        feePercent: pricing.feePercent,
        ...(body.quantity ? { quantity: parseAmount(body.quantity, asAsset(asset)) } : {}),
        ...(!body.quantity && body.cost ? { cost: parseAmount(body.cost, asAsset(fiat)) } : {}),
      });
      checkLimits(coin, quoted.quantity, body.quantity ? 'quantity' : 'cost');
      const balance = await ledger.getBalance(db, userRef(userId, body.side === 'buy' ? fiat : asset));
      const exceeds =
        body.side === 'buy' ? quoted.total > balance.available : quoted.quantity > balance.available;
      const row = await repository.insertQuote({
        id: randomBytes(18).toString('base64url'),
        user_id: userId,
        side: body.side,
        asset,
        fiat,
        price,
        quantity: quoted.quantity.toString(),
        notional: quoted.notional.toString(),
        fee: quoted.fee.toString(),
        total: quoted.total.toString(),
        fee_percent: pricing.feePercent,
        expires_at: new Date(Date.now() + (QUOTE_SECONDS + QUOTE_GRACE_SECONDS) * 1000),
      });
      return {
        data: {
          id: row.id,
          side: body.side,
          coin_id: body.coin_id,
          currency: body.currency,
          symbol: symbolOf(asset, fiat),
          price,
          quantity: money(quoted.quantity, asset),
          total_cost_wo_fee: money(quoted.notional, fiat),
          fee: money(quoted.fee, fiat),
          fee_percent: pricing.feePercent,
          total_cost_w_fee: money(quoted.total, fiat),
          available: money(balance.available, body.side === 'buy' ? fiat : asset),
          exceeds_balance: exceeds,
          expires_at: new Date(row.expires_at.getTime() - QUOTE_GRACE_SECONDS * 1000).toISOString(),
          seconds: QUOTE_SECONDS,
        },
      };
    },

    /** POST /api/v1/order: executes the quote once, at its price, while it lasts and prices are live. */
    async executeQuote(userId: number, quoteId: string): Promise<Answer<Trade>> {
      const coins = await repository.listCoins();
      const { trader, trade } = await db.transaction().execute(async (trx) => {
        const quote = await repository.lockQuote(trx, quoteId);
        if (!quote || quote.user_id !== userId) throw new AppError('NOT_FOUND', TRADING_TEXTS.quoteNotFound);
        if (quote.executed_at) throw new AppError('CONFLICT', TRADING_TEXTS.quoteUsed);
        if (quote.expired) throw new AppError('CONFLICT', TRADING_TEXTS.quoteExpired);
        const trader = await repository.lockTrader(trx, userId);
        if (!trader) throw new AppError('UNAUTHENTICATED');
        checkMayTrade(trader, quote.side);
        const coin = coins.find((row) => row.asset === quote.asset);
        if (!coin?.active || (quote.side === 'buy' ? coin.disable_buy : coin.disable_sell))
          throw new AppError(
            'FORBIDDEN',
            quote.side === 'buy' ? TRADING_TEXTS.buyDisabled : TRADING_TEXTS.sellDisabled,
          );
        // A quote is not honoured on a price source that has stopped: PRICES_STALE.
        market.quote(symbolOf(quote.asset, quote.fiat));
        const trade = await execute(trx, {
          trader,
          kind: 'instant',
          side: quote.side,
          asset: quote.asset,
          fiat: quote.fiat,
          price: quote.price,
          quantity: BigInt(quote.quantity),
          notional: BigInt(quote.notional),
          fee: BigInt(quote.fee),
          total: BigInt(quote.total),
          gbpValue: requireGbpValue(quote.asset, quote.fiat, BigInt(quote.quantity), BigInt(quote.notional)),
          feePercent: quote.fee_percent,
          quoteId: quote.id,
        });
        await repository.markQuoteExecuted(trx, quote.id);
        return { trader, trade };
      });
      await afterTrade(trader, trade);
      return { data: toTrade(trade), message: TRADING_TEXTS.transactionSuccessful };
    },

    // ---- market orders (trading accounts) ----

    async marketOrder(
      userId: number,
      idempotencyKey: string,
      side: TradeSide,
      body: {
        coin_id: CoinId;
        crypto_amount: string;
        crypto_price?: string | null;
        currency: TradeFiat;
        max_slippage_percent: string;
      },
    ): Promise<Answer<Trade>> {
      const requestHash = hashRequest({ side, ...body });
      const replay = async (executor: Kysely<DB>) => {
        const earlier = await repository.findTradeByKey(executor, userId, idempotencyKey);
        if (!earlier) return undefined;
        if (earlier.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
        return { data: toTrade(earlier), message: TRADING_TEXTS.transactionSuccessful };
      };
      const earlier = await replay(db);
      if (earlier) return earlier;
      const trader = await requireTrader(userId);
      checkMayTrade(trader, side);
      checkTradingPlatform(trader);
      await verification.assertComplete(userId);
      if (side === 'buy') await investor.assertMayInvest(userId);
      const coin = await coinFor(body.coin_id, side);
      const asset = coin.asset;
      const fiat = fiatOf(body.currency);
      const quantity = parseAmount(body.crypto_amount, asAsset(asset));
      checkLimits(coin, quantity, 'crypto_amount');
      const pricing = await pricingOf(trader, coin);

      const outcome = await db.transaction().execute(async (trx) => {
        const locked = await repository.lockTrader(trx, userId);
        if (!locked) throw new AppError('UNAUTHENTICATED');
        const replayed = await replay(trx);
        if (replayed) return { replayed };
        checkMayTrade(locked, side);
        // DECISIONS.md: priced by the server now; the client's price only bounds the slippage.
        const prices = market.quote(symbolOf(asset, fiat), { spreadMultiplier: pricing.multiplier });
        const price = side === 'buy' ? prices.ask : prices.bid;
        if (body.crypto_price && /^\d+(\.\d+)?$/.test(body.crypto_price) && /[1-9]/.test(body.crypto_price)) {
          const allowed = new Exact(body.max_slippage_percent).div(100);
          const seen = new Exact(body.crypto_price);
          const tooFar =
            side === 'buy'
              ? new Exact(price).gt(seen.times(allowed.plus(1)))
              : new Exact(price).lt(seen.times(new Exact(1).minus(allowed)));
          if (tooFar) throw orderRefused(TRADING_TEXTS.slippageExceeded);
        }
        const quoted = instantQuote({
          side,
          coin: asAsset(asset),
          fiat: asAsset(fiat),
          price,
          feePercent: pricing.feePercent,
          quantity,
        });
        const trade = await execute(trx, {
          trader: locked,
          kind: 'market',
          side,
          asset,
          fiat,
          price,
          ...quoted,
          gbpValue: requireGbpValue(asset, fiat, quoted.quantity, quoted.notional),
          feePercent: pricing.feePercent,
          idempotencyKey,
          requestHash,
        });
        return { trade };
      });
      if (outcome.replayed) return outcome.replayed;
      await afterTrade(trader, outcome.trade);
      return { data: toTrade(outcome.trade), message: TRADING_TEXTS.transactionSuccessful };
    },

    // ---- limit and stop orders (trading accounts) ----

    async placeOrder(
      userId: number,
      idempotencyKey: string,
      body: {
        coin_id: CoinId;
        order_qty: string;
        price: string;
        side: 1 | 2;
        order_type: 2 | 3;
        currency: TradeFiat;
        expires_at?: string | null;
      },
    ): Promise<Answer<OpenOrder>> {
      const side: TradeSide = body.side === 1 ? 'buy' : 'sell';
      const type = body.order_type === 3 ? 'stop' : 'limit';
      const requestHash = hashRequest(body);
      const replay = async (executor: Kysely<DB>) => {
        const earlier = await repository.findOrderByKey(executor, userId, idempotencyKey);
        if (!earlier) return undefined;
        if (earlier.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
        return { data: toOrder(earlier), message: TRADING_TEXTS.orderPlaced };
      };
      const earlier = await replay(db);
      if (earlier) return earlier;
      const trader = await requireTrader(userId);
      checkMayTrade(trader, side);
      checkTradingPlatform(trader);
      await verification.assertComplete(userId);
      if (side === 'buy') await investor.assertMayInvest(userId);
      const coin = await coinFor(body.coin_id, side);
      const asset = coin.asset;
      const fiat = fiatOf(body.currency);
      const quantity = parseAmount(body.order_qty, asAsset(asset));
      checkLimits(coin, quantity, 'order_qty');
      const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
      if (expiresAt && expiresAt <= new Date())
        throw new AppError('VALIDATION_FAILED', TRADING_TEXTS.expiryInPast, {
          expires_at: [TRADING_TEXTS.expiryInPast],
        });
      const price = new Exact(body.price).toFixed();
      const pricing = await pricingOf(trader, coin);
      // The most it may spend: at the limit price with the fee for a buy; the coins for a sell.
      const value = notional(quantity, asAsset(asset), price, asAsset(fiat), 'ceil');
      const held = side === 'buy' ? value + tradeFee(value, pricing.feePercent) : quantity;

      const outcome = await db.transaction().execute(async (trx) => {
        const locked = await repository.lockTrader(trx, userId);
        if (!locked) throw new AppError('UNAUTHENTICATED');
        const replayed = await replay(trx);
        if (replayed) return { replayed };
        checkMayTrade(locked, side);
        let holdId: string;
        try {
          ({ holdId } = await ledger.placeHold(trx, {
            idempotencyKey: `order:${userId}:${idempotencyKey}`,
            account: userRef(userId, side === 'buy' ? fiat : asset),
            amount: held,
            reason: `${type}_order`,
            reference: `order:${userId}:${idempotencyKey}`,
          }));
        } catch (error) {
          if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')
            throw orderRefused(TRADING_TEXTS.insufficientFunds);
          throw error;
        }
        const order = await repository.insertOrder(trx, {
          user_id: userId,
          idempotency_key: idempotencyKey,
          request_hash: requestHash,
          type,
          side,
          asset,
          fiat,
          quantity: quantity.toString(),
          price,
          fee_percent: pricing.feePercent,
          spread_multiplier: pricing.multiplier,
          hold_id: holdId,
          held: held.toString(),
          status: 'open',
          expires_at: expiresAt,
        });
        return { order };
      });
      if (outcome.replayed) return outcome.replayed;
      userEvents.moneyMoved([userId]);
      userEvents.ordersChanged([userId]);
      // An order the price has already reached fills at once.
      await afterFills(await fillCrossed([outcome.order.id]));
      const current = (await repository.findOrder(outcome.order.id)) ?? outcome.order;
      return { data: toOrder(current), message: TRADING_TEXTS.orderPlaced };
    },

    async cancelOrder(userId: number, id: string): Promise<Answer<OpenOrder>> {
      const row = await db.transaction().execute(async (trx) => {
        const order = await repository.lockOrder(trx, id);
        if (!order || order.user_id !== userId) throw new AppError('NOT_FOUND', TRADING_TEXTS.orderNotFound);
        if (order.status !== 'open')
          throw new AppError('VALIDATION_FAILED', TRADING_TEXTS.orderNotOpen, {
            id: [TRADING_TEXTS.orderNotOpen],
          });
        await ledger.releaseHold(trx, { holdId: order.hold_id, outcome: 'voided' });
        return repository.updateOrder(trx, id, { status: 'cancelled', cancelled_at: new Date() });
      });
      userEvents.moneyMoved([userId]);
      userEvents.ordersChanged([userId]);
      return { data: toOrder(row), message: TRADING_TEXTS.orderCancelled };
    },

    async listOrders(
      userId: number,
      query: { page: number; status: OrderStatus; coin_id?: CoinId },
    ): Promise<Page<OpenOrder>> {
      const asset = query.coin_id ? assetOfCoinId(query.coin_id) : undefined;
      return readPage({
        page: query.page,
        path: listLimitOrders.path,
        perPage: OPEN_ORDERS_PAGE_SIZE,
        filters: { status: query.status, coin_id: query.coin_id },
        count: () => repository.countOrders(userId, query.status, asset),
        list: (limit, offset) => repository.listOrders(userId, query.status, asset, limit, offset),
        toItem: toOrder,
      });
    },

    // ---- positions ----

    /**
     * Each coin held, with a pooled average cost from the customer's trades
     * (buys add their GBP cost, fee included; sells take out their share of
     * the pool), valued at the customer's bid now.
     */
    async positions(userId: number): Promise<{ data: Position[] }> {
      const trader = await requireTrader(userId);
      const pricing = await pricingOf(trader, null);
      const holdings = await repository.coinHoldings(userId);
      const trades = await repository.listTradesOf(userId);
      const positions: Position[] = [];
      for (const { asset, posted } of holdings) {
        let poolQuantity = 0n;
        let poolCost = new Exact(0);
        for (const trade of trades.filter((row) => row.asset === asset)) {
          const quantity = BigInt(trade.quantity);
          if (trade.side === 'buy') {
            // In pence: a GBP trade's total; another fiat's at the GBP value of its notional, fee in proportion.
            const cost =
              trade.fiat === 'GBP'
                ? new Exact(trade.total)
                : BigInt(trade.notional) === 0n
                  ? new Exact(0)
                  : new Exact(trade.gbp_value).times(trade.total).div(trade.notional);
            poolQuantity += quantity;
            poolCost = poolCost.plus(cost);
          } else if (poolQuantity > 0n) {
            const taken = quantity > poolQuantity ? poolQuantity : quantity;
            poolCost = poolCost.minus(poolCost.times(taken.toString()).div(poolQuantity.toString()));
            poolQuantity -= taken;
          }
        }
        const scale = new Exact(10).pow(asset === 'XRP' ? 6 : asset === 'ETH' ? 18 : 8);
        const quantity = new Exact(posted.toString()).div(scale);
        const averageCost =
          poolQuantity > 0n ? poolCost.div(100).div(new Exact(poolQuantity.toString()).div(scale)) : null;
        let price: string | null = null;
        try {
          price = market.quote(symbolOf(asset, 'GBP'), { spreadMultiplier: pricing.multiplier }).bid;
        } catch {
          price = null;
        }
        const value = price === null ? null : quantity.times(price);
        const pnl = value !== null && averageCost !== null ? value.minus(quantity.times(averageCost)) : null;
        positions.push({
          coin_id: coinIdOf(asset),
          symbol: symbolOf(asset, 'GBP'),
          currency: 'gbp',
          quantity: money(posted, asset),
          average_cost: averageCost === null ? null : averageCost.toFixed(2, Exact.ROUND_HALF_UP),
          price,
          value: value === null ? null : value.toFixed(2, Exact.ROUND_DOWN),
          unrealised_pnl: pnl === null ? null : pnl.toFixed(2, Exact.ROUND_HALF_UP),
          direction: pnl === null ? null : pnl.isZero() ? 'flat' : pnl.isPositive() ? 'up' : 'down',
          order_type: 'MARKET',
        });
      }
      return { data: positions };
    },

    // ---- the fill engine (the leading instance) ----

    /**
     * Runs a sweep for these prices; a sweep already running is followed by
     * one more with the latest prices, so ticks never queue up.
     */
    onPrices(updates: readonly PriceUpdate[]): Promise<void> {
      if (stopping) return Promise.resolve();
      latestUpdates = mergeUpdates(latestUpdates, updates);
      if (sweeping) {
        sweepAgain = true;
        return sweeping;
      }
      const run = async (): Promise<void> => {
        do {
          sweepAgain = false;
          const batch = latestUpdates;
          latestUpdates = [];
          await sweep(batch);
        } while (!stopping && (sweepAgain || latestUpdates.length > 0));
      };
      sweeping = run().finally(() => {
        sweeping = null;
      });
      return sweeping;
    },

    sweep,

    /**
     * At shutdown, before the database closes: no sweep starts, the running one ends after the fills in
     * flight commit (their mails still go), and this resolves when it has.
     */
    async stop(): Promise<void> {
      stopping = true;
      // A sweep that failed was logged by its caller: the shutdown goes on to close the database.
      await sweeping?.catch(() => undefined);
    },
  };
  let latestUpdates: PriceUpdate[] = [];
  return service;
}

/** The newest update per symbol. */
function mergeUpdates(current: readonly PriceUpdate[], next: readonly PriceUpdate[]): PriceUpdate[] {
  const bySymbol = new Map(current.map((update) => [update.symbol, update]));
  for (const update of next) bySymbol.set(update.symbol, update);
  return [...bySymbol.values()];
}

/**
 * Invariant 8 for trading (shared/LEDGER.md): every trade has its journal
 * (an instant trade's keyed by its quote); an open order holds, a filled one
 * posted its hold once, a cancelled or expired one released it with nothing
 * posted.
 */
export const tradingDomainCheck: DomainCheck = {
  name: 'trading',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'trade ' || t.id || ' has no journal of its kind' AS message
      FROM trades t
      LEFT JOIN journals j ON j.id = t.journal_id
      WHERE j.id IS NULL
        OR (t.kind IN ('instant', 'market') AND j.kind <> 'trade')
        OR (t.kind IN ('limit', 'stop') AND j.kind <> 'limit_order_fill')
        OR (t.quote_id IS NOT NULL AND j.idempotency_key <> 'trade:quote:' || t.quote_id)
      UNION ALL
      SELECT 'order ' || o.id || ' is ' || o.status || ' but its hold is ' || h.status
        || ' with ' || count(j.id) || ' journals'
      FROM orders o
      JOIN holds h ON h.id = o.hold_id
      LEFT JOIN journals j ON j.hold_id = o.hold_id
      GROUP BY o.id, o.status, h.status
      HAVING NOT (
        (o.status = 'open' AND h.status = 'pending' AND count(j.id) = 0)
        OR (o.status = 'filled' AND h.status = 'posted' AND count(j.id) = 1)
        OR (o.status = 'cancelled' AND h.status = 'voided' AND count(j.id) = 0)
        OR (o.status = 'expired' AND h.status = 'expired' AND count(j.id) = 0)
      )`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
