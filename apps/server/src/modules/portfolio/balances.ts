import type { AssetBalance, Balances } from '@florin/contracts';
import { fromMinorUnits } from '@florin/domain';
import { PriceDecimal } from '../../adapters/prices/decimal.js';
import type { MarketService } from '../market/service.js';
import { readAssetInfo } from './asset-info.js';
import { NO_BALANCE, type CustomerBalance } from './customer-balances.js';
import type { PortfolioRepository } from './repository.js';

/** The customer's balances of every asset, valued in GBP at the market's rates. */
export function createPortfolioBalances(deps: { repository: PortfolioRepository; market: MarketService }) {
  const { repository, market } = deps;

  return {
    async balances(userId: string): Promise<Balances> {
      const [assets, owned] = await Promise.all([readAssetInfo(repository), repository.balancesOf(userId)]);
      const totals = new Map<string, CustomerBalance>();
      // GBP and every active coin have a row, held or not (the dashboard lists them); other fiats once held.
      for (const info of assets.values())
        if (info.code === 'GBP' || (info.kind === 'coin' && info.active)) totals.set(info.code, NO_BALANCE);
      for (const [asset, balance] of owned) totals.set(asset, balance);

      let pricesStale = false;
      const values = new Map<string, PriceDecimal | null>();
      let portfolio = new PriceDecimal(0);
      for (const [asset, total] of totals) {
        const info = assets.get(asset);
        if (!info) continue;
        const rate = market.gbpRate(asset);
        if (rate === null) {
          if (total.total !== 0n) pricesStale = true;
          values.set(asset, null);
          continue;
        }
        const value = new PriceDecimal(fromMinorUnits(total.total, info.scale))
          .times(rate)
          .toDecimalPlaces(2, PriceDecimal.ROUND_DOWN);
        values.set(asset, value);
        portfolio = portfolio.plus(value);
      }

      const balances: Record<string, AssetBalance> = {};
      const termBalances: Record<string, { balance: string }> = {};
      const order = (asset: string) => {
        const info = assets.get(asset);
        return info ? (info.kind === 'fiat' ? 0 : 1_000_000) + info.sortOrder : Number.MAX_SAFE_INTEGER;
      };
      for (const [asset, total] of [...totals].sort(([a], [b]) => order(a) - order(b))) {
        const info = assets.get(asset);
        if (!info) continue;
        const key = info.kind === 'coin' ? (info.coinId ?? asset.toLowerCase()) : asset;
        const value = values.get(asset) ?? null;
        balances[key] = {
          asset,
          kind: info.kind,
          amount: fromMinorUnits(total.available, info.scale),
          available: fromMinorUnits(total.available, info.scale),
          held: fromMinorUnits(total.held, info.scale),
          held_orders: fromMinorUnits(total.heldByOrders, info.scale),
          held_withdrawals: fromMinorUnits(total.heldByWithdrawals, info.scale),
          term_deposit: fromMinorUnits(total.termDeposit, info.scale),
          total: fromMinorUnits(total.total, info.scale),
          gbp_value: value === null ? null : value.toFixed(2),
          percentage:
            value === null ? null : portfolio.isZero() ? '0.00' : value.div(portfolio).times(100).toFixed(2),
          ...info.flags,
        };
        if (info.kind === 'coin' && total.termDeposit > 0n)
          termBalances[key] = { balance: fromMinorUnits(total.termDeposit, info.scale) };
      }
      return {
        data: [
          {
            balances,
            term_deposit_balances: termBalances,
            total_gbp: portfolio.toFixed(2),
            prices_stale: pricesStale,
          },
        ],
      };
    },
  };
}
