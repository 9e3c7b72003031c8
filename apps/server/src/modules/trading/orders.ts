import {
  AppError,
  assetOfCoinId,
  listLimitOrders,
  OPEN_ORDERS_PAGE_SIZE,
  ORDER_TYPE_LABELS,
  TRADING_TEXTS,
  type CoinId,
  type OpenOrder,
  type OrderStatus,
  type Page,
  type TradeFiat,
  type TradeSide,
} from '@florin/contracts';
import { notional, parseAmount, tradeFee } from '@florin/domain';
import { idempotentRequest } from '../../http/idempotency.js';
import { readPage } from '../../http/pages.js';
import type { Fills } from './fills.js';
import type { OrderRow } from './repository.js';
import {
  asAsset,
  coinIdOf,
  Exact,
  fiatOf,
  money,
  orderRefused,
  symbolOf,
  userRef,
  type Answer,
  type TradingServiceDeps,
} from './shared.js';
import { checkLimits, checkMayTrade, checkTradingPlatform, type TradingContext } from './trading-context.js';

/** Limit and stop orders (trading accounts): placed with a hold on what they may spend, listed and cancelled. */
export function createOrders(deps: TradingServiceDeps, context: TradingContext, fills: Fills) {
  const { db, repository, ledger, market, userEvents, investor, verification } = deps;
  const { requireTrader, coinFor, pricingOf } = context;
  const { fillCrossed, afterFills } = fills;

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

  return {
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
      const request = idempotentRequest({
        request: body,
        find: (executor) => repository.findOrderByKey(executor, userId, idempotencyKey),
        answer: (row) => ({ data: toOrder(row), message: TRADING_TEXTS.orderPlaced }),
      });
      const earlier = await request.replay(db);
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
        return request.replayOrRun(trx, async () => {
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
          return repository.insertOrder(trx, {
            user_id: userId,
            idempotency_key: idempotencyKey,
            request_hash: request.requestHash,
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
        });
      });
      if (outcome.replayed) return outcome.answer;
      const order = outcome.result;
      userEvents.moneyMoved([userId]);
      userEvents.ordersChanged([userId]);
      // An order the price has already reached fills at once.
      await afterFills(await fillCrossed([order.id]));
      const current = (await repository.findOrder(order.id)) ?? order;
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
  };
}
