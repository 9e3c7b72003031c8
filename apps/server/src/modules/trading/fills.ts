import { instantQuote } from '@florin/domain';
import type { PriceUpdate } from '@florin/contracts';
import { journalOf, tradeMailOf, tradeRowOf, type Execution, type ExecutionFlow } from './execution.js';
import type { OrderRow, Trader, TradeRow } from './repository.js';
import { asAsset, Exact, symbolOf, type TradingServiceDeps } from './shared.js';
import { refusalOf, type TradingContext } from './trading-context.js';

/** A filled order's trade; its customer's mail was written in the fill's transaction, for the sender. */
export type Fill = { trader: Trader; trade: TradeRow };

/** Filling limit and stop orders their customer's price has reached, and what follows the commit. */
export function createFills(deps: TradingServiceDeps, context: TradingContext, execution: ExecutionFlow) {
  const { db, repository, ledger, market, userEvents, log, verification, notifier } = deps;
  const { gbpValueOf } = context;
  const { checkSourceOfWealth } = execution;

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

  /**
   * Fills those of these orders that their customer's price has reached, in
   * one transaction and a fixed number of statements however many there are
   * (a tick can cross thousands): the orders locked, their holds posted
   * together (ledger.postHolds), the trades inserted, the orders marked
   * filled and the mails and notifications written in one statement each.
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
        fills.map((fill, index) => ({ ...tradeRowOf(fill), journal_id: journals[index]?.journalId ?? '' })),
      );
      await repository.markOrdersFilled(
        trx,
        fills.map((fill) => fill.order.id),
      );

      const traderOf = new Map(fills.map((fill) => [fill.order.id, fill.trader]));
      const filled = trades.flatMap((trade) => {
        const trader = trade.order_id === null ? undefined : traderOf.get(trade.order_id);
        return trader ? [{ trader, trade }] : [];
      });
      // Every trade's mail and notification as one set of outbox rows (decision 136), sent by the outbox's
      // sender: the pass never waits for a mail, and a fill never commits without its customer's mail.
      await notifier.queueAll(
        trx,
        'trade_executed',
        filled.map(({ trader, trade }) => ({ user: trader, data: tradeMailOf(trader, trade) })),
      );
      return filled;
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

  /**
   * After the fills committed: the source-of-wealth threshold checked and the customers' pages told. Their
   * mails are the outbox sender's (deliverPending), due since the commit.
   */
  async function afterFills(fills: readonly Fill[]): Promise<void> {
    if (fills.length === 0) return;
    const customers = [...new Set(fills.map((fill) => fill.trader.id))];
    await checkSourceOfWealth(customers);
    userEvents.moneyMoved(customers);
    userEvents.ordersChanged(customers);
  }

  return { fillCrossed, afterFills };
}

export type Fills = ReturnType<typeof createFills>;
