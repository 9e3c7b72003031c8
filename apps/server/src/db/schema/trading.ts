import type { ColumnType, Generated } from 'kysely';
import type { Numeric, Int8Id, CreatedAt, WriteOrder } from './columns.js';

// Quotes, orders, trades, auto-trades and platform upgrades.

export type TradeQuotesTable = {
  id: string;
  user_id: number;
  side: 'buy' | 'sell';
  asset: string;
  fiat: string;
  price: string;
  quantity: Numeric;
  notional: Numeric;
  fee: Numeric;
  total: Numeric;
  fee_percent: string;
  expires_at: Date;
  executed_at: Date | null;
  created_at: CreatedAt;
};

export type OrderStatus = 'open' | 'filled' | 'cancelled' | 'expired';

export type OrdersTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  idempotency_key: string;
  request_hash: string;
  type: 'limit' | 'stop';
  side: 'buy' | 'sell';
  asset: string;
  fiat: string;
  quantity: Numeric;
  price: string;
  fee_percent: string;
  spread_multiplier: string;
  hold_id: string;
  held: Numeric;
  status: OrderStatus;
  expires_at: Date | null;
  filled_at: Date | null;
  cancelled_at: Date | null;
  created_at: CreatedAt;
};

export type TradesTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  kind: 'instant' | 'market' | 'limit' | 'stop';
  side: 'buy' | 'sell';
  asset: string;
  fiat: string;
  price: string;
  quantity: Numeric;
  notional: Numeric;
  fee: Numeric;
  total: Numeric;
  fee_percent: string;
  gbp_value: Numeric;
  quote_id: string | null;
  order_id: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  journal_id: string;
  created_at: CreatedAt;
};

/** The tier volume: a customer's trades in a calendar year (database time zone), kept by the trades' insert (0035). */
export type TradingVolumesTable = {
  user_id: number;
  year: number;
  gbp_value: Numeric;
};

/** Upgrades to the trading platform and the staff webhook's delivery (0015). */
export type PlatformUpgradeWebhookStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

export type PlatformUpgradesTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  from_platform: number;
  to_platform: number;
  webhook_status: ColumnType<PlatformUpgradeWebhookStatus, PlatformUpgradeWebhookStatus | undefined>;
  webhook_attempts: Generated<number>;
  webhook_error: string | null;
  webhook_at: Date | null;
  created_at: CreatedAt;
};

export type AutoTradesTable = {
  id: Generated<number>;
  seq: WriteOrder;
  user_id: number;
  type: 'buy' | 'sell';
  asset: string;
  created_at: CreatedAt;
  cancelled_at: Date | null;
};

export type AutoTradeConversionStatus = 'pending' | 'converted' | 'skipped';

export type AutoTradeConversionsTable = {
  id: Int8Id;
  seq: WriteOrder;
  auto_trade_id: number;
  user_id: number;
  source: 'fiat' | 'crypto';
  deposit_id: string;
  status: AutoTradeConversionStatus;
  quote_id: string | null;
  trade_id: string | null;
  reason: string | null;
  created_at: CreatedAt;
  claimed_at: Generated<Date>;
  finished_at: Date | null;
};
