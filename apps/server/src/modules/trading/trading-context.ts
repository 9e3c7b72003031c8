import { AppError, assetOfCoinId, TRADING_TEXTS, type CoinId, type TradeSide } from '@florin/contracts';
import {
  feePercent,
  isLive,
  notional,
  spreadMultiplier,
  tierForVolume,
  trimZeros,
  type TradingPlatform,
} from '@florin/domain';
import type { TradeCoin, Trader } from './repository.js';
import { asAsset, money, type TradingServiceDeps } from './shared.js';

/** Why this customer may not trade this side now; DECISIONS.md [4]: a source-of-wealth reset stops buying only. */
export function refusalOf(trader: Trader, side: TradeSide): AppError | null {
  if (!isLive(trader)) return new AppError('ACCOUNT_NOT_LIVE');
  if (trader.terminated_at && trader.terminated_at <= new Date()) return new AppError('ACCOUNT_TERMINATED');
  if (side === 'buy' && trader.is_sow_reset === 1)
    return new AppError('FORBIDDEN', 'Please answer the source-of-wealth questions before buying.');
  return null;
}

export function checkMayTrade(trader: Trader, side: TradeSide): void {
  const refusal = refusalOf(trader, side);
  if (refusal) throw refusal;
}

export function checkTradingPlatform(trader: Trader): void {
  if (trader.platform !== 2) throw new AppError('FORBIDDEN', TRADING_TEXTS.notTradingPlatform);
}

export function checkLimits(coin: TradeCoin, quantity: bigint, field: string): void {
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

/** What every trading flow reads before it prices: the customer, the coin, their fee and a trade's GBP value. */
export function createTradingContext(deps: TradingServiceDeps) {
  const { repository, market } = deps;

  async function requireTrader(userId: number): Promise<Trader> {
    const trader = await repository.findTrader(userId);
    if (!trader) throw new AppError('UNAUTHENTICATED');
    return trader;
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
    return pricingFrom(trader, coin, {
      volume: await deps.volumes.volumeThisYear(trader.id),
      discountPercent: await deps.feeDiscountFor(trader.id),
    });
  }

  /** pricingOf, with the customer's volume and discount already read (a quote reads them with the customer). */
  async function pricingFrom(
    trader: Trader,
    coin: TradeCoin | null,
    { volume, discountPercent }: { volume: bigint; discountPercent: string | null },
  ) {
    const platform: TradingPlatform = trader.platform === 2 ? 2 : 1;
    const tier = tierForVolume(volume);
    const schedule = await deps.feeSchedule.current();
    const base = { schedule, platform, tier, customPercent: trader.custom_fee_percent };
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

  return { requireTrader, coinFor, pricingOf, pricingFrom, gbpValueOf, requireGbpValue };
}

export type TradingContext = ReturnType<typeof createTradingContext>;
