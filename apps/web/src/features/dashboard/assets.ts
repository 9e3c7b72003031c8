import type { AssetBalance } from '@florin/contracts';
import { FIAT_CODES } from '@florin/domain';

/**
 * The rows of the dashboard's Assets table (spec 000 section 2): GBP first,
 * then every other fiat the customer has a balance in, then one row per
 * active coin, held or not.
 */

export type AssetKind = AssetBalance['kind'];

export type AssetRow = {
  /** GBP, EUR; btc, eth: the key the balances use. */
  asset: string;
  kind: AssetKind;
  /** What the screen calls it: the code for fiats, the coin's name (BTC when unknown) for coins. */
  name: string;
  /** The code shown beside amounts: GBP, BTC. */
  code: string;
  /** The balance shown: what can be spent or withdrawn now, the same figure on every screen. */
  amount: string;
  heldByOrders: string;
  heldByWithdrawals: string;
  termDeposit: string;
  /** amount + both holds + termDeposit. */
  total: string;
  gbpValue: string | null;
  percentage: string | null;
  canBuy: boolean;
  canSell: boolean;
  canDeposit: boolean;
  canWithdraw: boolean;
};

export type BuildAssetRowsInput = {
  balances: Readonly<Record<string, AssetBalance>>;
  /** coin_id of every active coin, in the order the market lists them. */
  activeCoins: readonly string[];
  /** coin_id → name, where known. */
  coinNames?: Readonly<Record<string, string>>;
};

const ZERO = /^-?0+(\.0+)?$/;

export function isZeroAmount(value: string): boolean {
  return ZERO.test(value);
}

function rowOf(asset: string, kind: AssetKind, balance: AssetBalance | undefined, name: string): AssetRow {
  return {
    asset,
    kind,
    name,
    code: asset.toUpperCase(),
    amount: balance?.available ?? '0',
    heldByOrders: balance?.held_orders ?? '0',
    heldByWithdrawals: balance?.held_withdrawals ?? '0',
    termDeposit: balance?.term_deposit ?? '0',
    total: balance?.total ?? '0',
    gbpValue: balance ? balance.gbp_value : '0',
    percentage: balance ? balance.percentage : '0',
    canBuy: balance?.disable_buy !== true,
    canSell: balance?.disable_sell !== true,
    canDeposit: balance?.disable_deposit !== true,
    canWithdraw: balance?.disable_withdraw !== true,
  };
}

const FIAT_ORDER: readonly string[] = FIAT_CODES;

function fiatRank(code: string): number {
  const rank = FIAT_ORDER.indexOf(code);
  return rank < 0 ? FIAT_ORDER.length : rank;
}

export function buildAssetRows({ balances, activeCoins, coinNames = {} }: BuildAssetRowsInput): AssetRow[] {
  // Keyed by code for fiats (GBP) and by coin_id for coins (btc).
  const entries = Object.entries(balances);
  const fiats = entries
    .filter(([key, balance]) => balance.kind === 'fiat' && key !== 'GBP' && !isZeroAmount(balance.total))
    .sort(([a], [b]) => fiatRank(a) - fiatRank(b) || a.localeCompare(b));

  // Active coins in market order; a coin held but not in that list still shows, so no money is out of sight.
  const coinIds = [...activeCoins];
  for (const [key, balance] of entries) {
    if (balance.kind === 'coin' && !coinIds.includes(key)) coinIds.push(key);
  }

  return [
    rowOf('GBP', 'fiat', balances.GBP, 'GBP'),
    ...fiats.map(([key, balance]) => rowOf(key, 'fiat', balance, key)),
    ...coinIds.map((coinId) =>
      rowOf(coinId, 'coin', balances[coinId], coinNames[coinId] ?? coinId.toUpperCase()),
    ),
  ];
}

/** How a share of the portfolio is drawn: at zero, and under 10 %, the spec styles it apart. */
export type ShareStyle = 'zero' | 'small' | 'normal';

export type PortfolioShare = { percent: number; style: ShareStyle };

/** A percentage string ("12.50") as the whole number shown (13) and its style; null when unknown. */
export function portfolioShare(percentage: string | null): PortfolioShare | null {
  if (percentage === null) return null;
  const value = Number(percentage);
  if (!Number.isFinite(value)) return null;
  const percent = Math.min(100, Math.max(0, Math.round(value)));
  // A holding worth 0.4 % is not nothing: only a true zero reads as zero.
  if (value <= 0) return { percent: 0, style: 'zero' };
  return { percent, style: value < 10 ? 'small' : 'normal' };
}

/** What a hidden balance shows instead of its digits. */
export const HIDDEN_FUNDS_TEXT = '*****';

/** The local storage key the eye toggle is remembered under (spec 000 section 2). */
export const HIDE_FUNDS_KEY = 'hide-funds';

/** The Details popover's lines, in order: the balance, what holds it back, term deposits, and their total. */
export function balanceDetails(row: AssetRow): { label: string; value: string }[] {
  return [
    { label: 'Balance', value: row.amount },
    { label: 'Held by open orders', value: row.heldByOrders },
    { label: 'Held by pending withdrawals', value: row.heldByWithdrawals },
    { label: 'Term Deposit', value: row.termDeposit },
    { label: 'Total', value: row.total },
  ];
}
