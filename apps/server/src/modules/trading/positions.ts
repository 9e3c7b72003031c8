import type { Position } from '@florin/contracts';
import { coinIdOf, Exact, money, symbolOf, type TradingServiceDeps } from './shared.js';
import type { TradingContext } from './trading-context.js';

/** The customer's coins with what they cost them and what they are worth now. */
export function createPositions(deps: TradingServiceDeps, context: TradingContext) {
  const { repository, market } = deps;
  const { requireTrader, pricingOf } = context;

  return {
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
  };
}
