import { Decimal } from 'decimal.js';
import { CRYPTO_ASSETS, type InventoryRow } from '@florin/contracts';
import { FIAT_CODES, formatAmount } from '@florin/domain';
import type { TradingAdminDeps } from './admin-shared.js';

/** The house's side of the trades, as staff watch it. */
export function createInventoryAdmin(deps: TradingAdminDeps) {
  const { db, ledger, market } = deps;

  return {
    /**
     * The house's net position: each asset's inventory account (the other
     * side of every trade), valued in GBP at the current bid so staff see
     * their exposure. A negative coin balance is coins customers bought that
     * the house has not bought back.
     */
    async inventory(): Promise<{
      data: { assets: InventoryRow[]; total_gbp_value: string; complete: boolean };
    }> {
      const fiats: readonly string[] = FIAT_CODES;
      let total = new Decimal(0);
      let complete = true;
      const assets: InventoryRow[] = [];
      // Coins first, in the order every screen lists them, then the fiat currencies.
      for (const asset of [...CRYPTO_ASSETS, ...FIAT_CODES]) {
        const { posted } = await ledger.getBalance(db, { asset, kind: 'inventory' });
        const balance = formatAmount(posted, asset);
        const rate = market.gbpRate(asset);
        const value =
          rate === null ? null : new Decimal(balance).times(rate).toDecimalPlaces(2, Decimal.ROUND_DOWN);
        if (value === null) {
          if (posted !== 0n) complete = false;
        } else total = total.plus(value);
        assets.push({
          asset,
          kind: fiats.includes(asset) ? 'fiat' : 'coin',
          balance,
          gbp_rate: rate,
          gbp_value: value === null ? null : value.toFixed(2),
        });
      }
      return { data: { assets, total_gbp_value: total.toFixed(2), complete } };
    },
  };
}
