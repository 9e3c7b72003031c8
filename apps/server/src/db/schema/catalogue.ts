import type { Generated } from 'kysely';
import type { Numeric } from './columns.js';

// What can be traded and at what cost: currencies, coins, fees and price candles.

export type CurrenciesTable = {
  id: Generated<number>;
  code: string;
  name: string;
  symbol: string;
  active: boolean;
  sort_order: number;
  withdraw_min: Numeric;
  withdraw_fee: Numeric;
  withdraw_fee_free_from: Numeric | null;
};

/** One fee of the schedule, per platform and tier (migration 0029). */
export type FeeScheduleTable = {
  platform: 1 | 2;
  tier: 1 | 2 | 3 | 4;
  fee_percent: Numeric;
  updated_at: Generated<Date>;
};

export type CoinsTable = {
  id: Generated<number>;
  coin_id: string;
  asset: string;
  name: string;
  primary: number;
  active: boolean;
  sort_order: number;
  disable_buy: boolean;
  disable_sell: boolean;
  disable_deposit: boolean;
  disable_withdraw: boolean;
  withdraw_fee: Numeric;
  amount_min: Numeric;
  amount_max: Numeric | null;
  platform_fee: string | null;
  ask_spread: string;
  bid_spread: string;
  confirmations: number;
  /** Per customer and rolling 24 hours; beyond it a withdrawal needs a second staff approval. */
  withdraw_daily_limit: Numeric | null;
  auto_approve_whitelisted: Generated<boolean>;
  /** Whether the payout job sends this coin's approved withdrawals from the node's hot wallet (decision 131). */
  auto_payout: Generated<boolean>;
  /** The most one withdrawal the job sends may be; larger ones wait for staff. */
  payout_max_per_withdrawal: Numeric | null;
  /** The most the job sends in a rolling 24 hours, all customers together. */
  payout_daily_total: Numeric | null;
  /** The most the hot wallet may hold: above it the job sends nothing until staff move coins to cold storage. */
  hot_wallet_ceiling: Numeric | null;
};

/** Price candles (0009): prices as numeric text with 8 decimals. */
export type CandlesTable = {
  symbol: string;
  resolution: 'minute' | 'hour' | 'day';
  start_at: Date;
  open: string;
  high: string;
  low: string;
  close: string;
  last_tick_at: Date;
};
