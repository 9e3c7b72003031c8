import {
  AppError,
  TRADING_TEXTS,
  type CoinId,
  type Trade,
  type TradeFiat,
  type TradeSide,
} from '@florin/contracts';
import { instantQuote, parseAmount } from '@florin/domain';
import { idempotentRequest } from '../../http/idempotency.js';
import type { ExecutionFlow } from './execution.js';
import {
  asAsset,
  Exact,
  fiatOf,
  orderRefused,
  symbolOf,
  toTrade,
  type Answer,
  type TradingServiceDeps,
} from './shared.js';
import { checkLimits, checkMayTrade, checkTradingPlatform, type TradingContext } from './trading-context.js';

/** Market orders (trading accounts): priced by the server at execution, within the customer's maximum slippage. */
export function createMarketOrders(
  deps: TradingServiceDeps,
  context: TradingContext,
  execution: ExecutionFlow,
) {
  const { db, repository, market, investor, verification } = deps;
  const { requireTrader, coinFor, pricingOf, requireGbpValue } = context;
  const { execute, afterTrade } = execution;

  return {
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
      const request = idempotentRequest({
        request: { side, ...body },
        find: (executor) => repository.findTradeByKey(executor, userId, idempotencyKey),
        answer: (row) => ({ data: toTrade(row), message: TRADING_TEXTS.transactionSuccessful }),
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
      const quantity = parseAmount(body.crypto_amount, asAsset(asset));
      checkLimits(coin, quantity, 'crypto_amount');
      const pricing = await pricingOf(trader, coin);

      const outcome = await db.transaction().execute(async (trx) => {
        const locked = await repository.lockTrader(trx, userId);
        if (!locked) throw new AppError('UNAUTHENTICATED');
        return request.replayOrRun(trx, async () => {
          checkMayTrade(locked, side);
          // DECISIONS.md: priced by the server now; the client's price only bounds the slippage.
          const prices = market.quote(symbolOf(asset, fiat), { spreadMultiplier: pricing.multiplier });
          const price = side === 'buy' ? prices.ask : prices.bid;
          if (
            body.crypto_price &&
            /^\d+(\.\d+)?$/.test(body.crypto_price) &&
            /[1-9]/.test(body.crypto_price)
          ) {
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
            requestHash: request.requestHash,
          });
          return { trade };
        });
      });
      if (outcome.replayed) return outcome.answer;
      await afterTrade(trader, outcome.result.trade);
      return { data: toTrade(outcome.result.trade), message: TRADING_TEXTS.transactionSuccessful };
    },
  };
}
