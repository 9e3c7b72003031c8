import { randomBytes } from 'node:crypto';
import {
  AppError,
  assetOfCoinId,
  QUOTE_GRACE_SECONDS,
  QUOTE_SECONDS,
  TRADING_TEXTS,
  type CoinId,
  type Quote,
  type Trade,
  type TradeFiat,
  type TradeSide,
} from '@florin/contracts';
import { instantQuote, parseAmount } from '@florin/domain';
import type { ExecutionFlow } from './execution.js';
import {
  asAsset,
  fiatOf,
  money,
  symbolOf,
  toTrade,
  userRef,
  type Answer,
  type TradingServiceDeps,
} from './shared.js';
import { checkLimits, checkMayTrade, type TradingContext } from './trading-context.js';

/** Instant trading: a quote fixes the customer's price for a few seconds, then executes once by its id. */
export function createQuotes(deps: TradingServiceDeps, context: TradingContext, execution: ExecutionFlow) {
  const { db, repository, ledger, market, quoteFacts } = deps;
  const { coinFor, pricingFrom, requireGbpValue } = context;
  const { execute, afterTrade } = execution;

  return {
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
      const asset = assetOfCoinId(body.coin_id);
      const fiat = fiatOf(body.currency);
      // Everything the quote decides on, with the customer, in one statement (issue 43).
      const read = await repository.findTraderWithFacts(userId, {
        moneyRefused: quoteFacts.moneyRefused(userId),
        mayInvest: quoteFacts.mayInvest(userId),
        volume: quoteFacts.volumeThisYear(userId),
        runningDiscount: quoteFacts.runningDiscount(userId),
        balance: ledger.balanceFact(userRef(userId, body.side === 'buy' ? fiat : asset)),
      });
      if (!read) throw new AppError('UNAUTHENTICATED');
      const { trader, facts } = read;
      checkMayTrade(trader, body.side);
      if (facts.moneyRefused) throw new AppError('VERIFICATION_INCOMPLETE');
      if (body.side === 'buy' && !facts.mayInvest) throw new AppError('INVESTOR_JOURNEY_INCOMPLETE');
      // The customer's refusals first, then the coin's, as before the single read.
      const coin = await coinFor(body.coin_id, body.side);
      const pricing = await pricingFrom(trader, coin, {
        volume: facts.volume,
        discountPercent: await quoteFacts.eligibleDiscount(userId, facts.runningDiscount),
      });
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
      const balance = facts.balance;
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
      const { trader, trade, mayBeAsked } = await db.transaction().execute(async (trx) => {
        // The quote and its customer locked together; a quote of someone else's is not found.
        const locked = await repository.lockQuoteAndTrader(
          trx,
          quoteId,
          userId,
          deps.sourceOfWealth.mayBeAskedByThresholdFact(userId),
        );
        if (!locked) throw new AppError('NOT_FOUND', TRADING_TEXTS.quoteNotFound);
        const { quote, trader, mayBeAsked } = locked;
        if (quote.executed_at) throw new AppError('CONFLICT', TRADING_TEXTS.quoteUsed);
        if (quote.expired) throw new AppError('CONFLICT', TRADING_TEXTS.quoteExpired);
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
        // The trade's statement marked the quote executed (repository.insertTrades).
        return { trader, trade, mayBeAsked };
      });
      await afterTrade(trader, trade, mayBeAsked);
      return { data: toTrade(trade), message: TRADING_TEXTS.transactionSuccessful };
    },
  };
}
