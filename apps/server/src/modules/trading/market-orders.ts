import type { Kysely } from 'kysely';
import {
  AppError,
  TRADING_TEXTS,
  type CoinId,
  type Trade,
  type TradeFiat,
  type TradeSide,
} from '@florin/contracts';
import { instantQuote, parseAmount } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import type { ExecutionFlow } from './execution.js';
import {
  asAsset,
  Exact,
  fiatOf,
  hashRequest,
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
  };
}
