import type { AssetBalance, FiatCurrency } from '@florin/contracts';
import { FIAT_CODES } from '@florin/domain';
import type { AssetNavigationState } from '../../lib/paths';

/**
 * What the Deposit / Withdraw screen's asset selector lists (spec 001
 * section 2): GBP (on the withdraw tab only once a GBP bank account is
 * registered), the other fiats the customer holds, and one entry per coin.
 */

export type WalletTab = 'deposit' | 'withdraw';

export type WalletAsset =
  { kind: 'fiat'; key: FiatCurrency; label: string } | { kind: 'coin'; key: string; label: string };

export type BuildWalletAssetsInput = {
  tab: WalletTab;
  balances: Readonly<Record<string, AssetBalance>>;
  /** coin_id → name of every active coin, in market order. */
  coins: readonly { coinId: string; name: string }[];
  hasGbpBankAccount: boolean;
  /** The asset the dashboard asked for: listed even when it is a fiat not held. */
  preselected?: AssetNavigationState | null;
};

const FIATS: readonly string[] = FIAT_CODES;

export function isFiatCurrency(code: string): code is FiatCurrency {
  return FIATS.includes(code);
}

function isHeld(balance: AssetBalance | undefined): boolean {
  if (!balance) return false;
  return !/^-?0+(\.0+)?$/.test(balance.total);
}

export function buildWalletAssets({
  tab,
  balances,
  coins,
  hasGbpBankAccount,
  preselected,
}: BuildWalletAssetsInput): WalletAsset[] {
  const fiats: WalletAsset[] = [];
  for (const code of FIAT_CODES) {
    const wanted = preselected?.type === 'fiat' && preselected.name.toUpperCase() === code;
    const listed = code === 'GBP' ? tab === 'deposit' || hasGbpBankAccount : isHeld(balances[code]) || wanted;
    if (listed) fiats.push({ kind: 'fiat', key: code, label: code });
  }
  const coinEntries: WalletAsset[] = coins.map(({ coinId, name }) => ({
    kind: 'coin',
    key: coinId,
    label: `${name} (${coinId.toUpperCase()})`,
  }));
  // A coin held but no longer active still shows, so no money is out of sight.
  for (const [key, balance] of Object.entries(balances)) {
    if (balance.kind === 'coin' && !coins.some((coin) => coin.coinId === key) && isHeld(balance))
      coinEntries.push({ kind: 'coin', key, label: key.toUpperCase() });
  }
  return [...fiats, ...coinEntries];
}

/** The selector's value for an asset: fiats and coins never share a key ("fiat:GBP", "coin:btc"). */
export function assetValue(asset: Pick<WalletAsset, 'kind' | 'key'>): string {
  return `${asset.kind}:${asset.key}`;
}

/** The asset to show first: the one asked for when listed, else the first. */
export function pickInitialAsset(
  assets: readonly WalletAsset[],
  preselected?: AssetNavigationState | null,
): WalletAsset | undefined {
  if (preselected) {
    const match = assets.find(
      (asset) =>
        asset.kind === preselected.type && asset.key.toLowerCase() === preselected.name.toLowerCase(),
    );
    if (match) return match;
  }
  return assets[0];
}

/** `?withdraw` opens the withdraw tab; an empty or any other value means deposit (spec 001 section 2). */
export function tabFromSearch(search: string): WalletTab {
  const params = new URLSearchParams(search);
  return params.has('withdraw') || params.get('tab') === 'withdraw' ? 'withdraw' : 'deposit';
}

/** Whether the navigation state is the dashboard's { name, type }. */
export function readNavigationState(state: unknown): AssetNavigationState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { name, type } = state as Record<string, unknown>;
  if (typeof name !== 'string' || (type !== 'fiat' && type !== 'coin')) return null;
  return { name, type };
}
