import type { Generated } from 'kysely';
import type { Numeric, Int8Id, CreatedAt, WriteOrder } from './columns.js';

// Term deposits and their options.

/** Term deposits (issue 11, migration 0018). */
export type TermDepositOptionsTable = {
  id: Generated<number>;
  asset: string;
  no_days: number;
  /** Percent for the whole term, as numeric(8, 4) reads back: '1.2500'. */
  interest_rate: string;
  active: Generated<boolean>;
  amount_min: Numeric;
  amount_max: Numeric | null;
  total_cap: Numeric | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
};

export type TermDepositStatus = 'live' | 'expired';

export type TermDepositsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  option_id: number;
  idempotency_key: string;
  request_hash: string;
  asset: string;
  amount: Numeric;
  no_days: number;
  interest_rate: string;
  interest: Numeric;
  status: TermDepositStatus;
  starts_at: Date;
  matures_at: Date;
  paid_at: Date | null;
  created_at: CreatedAt;
};
