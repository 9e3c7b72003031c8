import type { CoinId, TradingTerms } from '@florin/contracts';
import { FEE_TIERS, feePercent, trimZeros } from '@florin/domain';
import { money, type TradingServiceDeps } from './shared.js';
import type { TradingContext } from './trading-context.js';

/** The customer's terms: their tier, this year's volume and each coin's fee and limits. */
export function createTerms(deps: TradingServiceDeps, context: TradingContext) {
  const { repository } = deps;
  const { requireTrader, pricingOf } = context;

  return {
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
  };
}
