import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { type CoinId, type TermDepositStatus, type TermDepositTransaction } from '@florin/contracts';
import { formatAmount, trimZeros, type AssetCode } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import type { Ledger, UserAccountRef } from '../../ledger/index.js';
import type { Notifier } from '../notifications/service.js';
import type { InvestorService } from '../investor/service.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { DepositRow, TermDepositRepository } from './repository.js';

export const DAY_MS = 86_400_000;

/** Spec 002 §4: a deposit is Live until it is paid back, then Expired. */
export const TERM_DEPOSIT_TRANSITIONS: Record<TermDepositStatus, readonly TermDepositStatus[]> = {
  live: ['expired'],
  expired: [],
};

export type TermDepositServiceDeps = {
  db: Kysely<DB>;
  repository: TermDepositRepository;
  ledger: Ledger;
  notifier: Notifier;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** The first-investment journey (issue 13): locking coins is an investment. */
  investor: Pick<InvestorService, 'assertMayInvest'>;
  /** Spec 000 §6: a customer whose verification is incomplete locks nothing. */
  verification: VerificationGate;
};

export function asAsset(code: string): AssetCode {
  return code as AssetCode;
}

/** '1.2500' → '1.25': rates as people read and compare them. */
export function rateText(value: string): string {
  return trimZeros(value.includes('.') ? value : `${value}.0`);
}

export function termAccount(deposit: Pick<DepositRow, 'id' | 'user_id' | 'asset'>): UserAccountRef {
  return {
    asset: asAsset(deposit.asset),
    kind: 'term',
    ownerUserId: String(deposit.user_id),
    reference: String(deposit.id),
  };
}

export function availableAccount(userId: number, asset: string): UserAccountRef {
  return { asset: asAsset(asset), kind: 'available', ownerUserId: String(userId) };
}

export const lockKey = (id: string) => `term_deposit:lock:${id}`;
export const maturityKey = (id: string) => `term_deposit:maturity:${id}`;

export function toTransaction(row: DepositRow, coinId: string): TermDepositTransaction {
  const asset = asAsset(row.asset);
  const amount = BigInt(row.amount);
  const interest = BigInt(row.interest);
  return {
    id: Number(row.id),
    coin_id: coinId as CoinId,
    amount: formatAmount(amount, asset),
    rate: rateText(row.interest_rate),
    start_day: row.starts_at.toISOString(),
    end_day: row.matures_at.toISOString(),
    deposit_return: formatAmount(interest, asset),
    total_balance_amount: formatAmount(amount + interest, asset),
    term_days: row.no_days,
    is_active: row.status === 'live',
    status: row.status,
  };
}
