import { AppError } from '@florin/contracts';
import type { PortfolioRepository } from './repository.js';

export type AssetInfo = {
  code: string;
  kind: 'fiat' | 'coin';
  scale: number;
  /** Listed now (an active coin or currency). */
  active: boolean;
  sortOrder: number;
  coinId?: string;
  symbol?: string;
  /** A coin's switches: what the dashboard's buttons may do. */
  flags?: {
    disable_buy: boolean;
    disable_sell: boolean;
    disable_deposit: boolean;
    disable_withdraw: boolean;
  };
};

/** Every asset with what the portfolio shows of it: kind, scale, listing, order, a coin's switches. */
export async function readAssetInfo(repository: PortfolioRepository): Promise<Map<string, AssetInfo>> {
  const { assets, coins, currencies } = await repository.listAssets();
  const info = new Map<string, AssetInfo>();
  for (const asset of assets) {
    info.set(asset.code, {
      code: asset.code,
      kind: asset.kind,
      scale: asset.scale,
      active: false,
      sortOrder: 0,
    });
  }
  for (const coin of coins) {
    const entry = info.get(coin.asset);
    if (!entry) continue;
    const { disable_buy, disable_sell, disable_deposit, disable_withdraw } = coin;
    Object.assign(entry, {
      coinId: coin.coin_id,
      active: coin.active,
      sortOrder: coin.sort_order,
      flags: { disable_buy, disable_sell, disable_deposit, disable_withdraw },
    });
  }
  for (const currency of currencies) {
    const entry = info.get(currency.code);
    if (entry)
      Object.assign(entry, {
        symbol: currency.symbol,
        active: currency.active,
        sortOrder: currency.sort_order,
      });
  }
  return info;
}

/** The asset a history query's coin_id names (a coin's id or an asset code); undefined: every asset. */
export function assetOfCoinId(
  coinId: string | undefined,
  assets: Map<string, AssetInfo>,
): string | undefined {
  if (coinId === undefined) return undefined;
  const asset = [...assets.values()].find(
    (info) => info.coinId === coinId || info.code.toLowerCase() === coinId,
  )?.code;
  if (!asset) throw new AppError('VALIDATION_FAILED', undefined, { coin_id: ['Unknown asset.'] });
  return asset;
}
