import type { Kysely } from 'kysely';
import {
  AppError,
  FIAT_TEXTS,
  waitUntilText,
  type FiatCurrency,
  type FiatWithdrawal,
} from '@florin/contracts';
import { formatAmount, isLive } from '@florin/domain';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import type { Ledger } from '../../ledger/index.js';
import type { EmailedCodes } from '../../security/emailed-codes.js';
import type { SecondFactor } from '../../security/second-factor.js';
import { withdrawalsBlockedUntil } from '../compliance/service.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier } from '../notifications/service.js';
import type { UserEvents } from '../realtime/index.js';
import type { BankAccountRow, FiatCustomer, FiatRepository } from './repository.js';
import type { WithdrawalRow } from './withdrawal-repository.js';

/*
 * What the fiat flows (bank-accounts.ts, withdrawals.ts, payouts.ts, ...) share: their dependencies,
 * the live-customer checks, the ledger accounts fiat money moves between and the customer's view of
 * a withdrawal. service.ts composes the flows into the module's one service.
 */

/** DECISIONS.md: after bank details change (or are first given), fiat withdrawals wait this long. */
export const BANK_CHANGE_WAIT_HOURS = 24;

export type Answer<T> = { data: T; message: string };

export type FiatServiceDeps = {
  db: Kysely<DB>;
  repository: FiatRepository;
  ledger: Ledger;
  notifier: Notifier;
  userEvents: UserEvents;
  /** Mails the one-time codes of customers with platform_2fa_mobile. */
  emailedCodes: EmailedCodes;
  secondFactor: SecondFactor;
  /** Spec 000 §6: a customer whose verification is incomplete does not withdraw. */
  verification: VerificationGate;
  /** What the waits after a 2FA reset or a change of bank details are judged by (the app's clock). */
  clock: Clock;
};

/**
 * What must hold before money leaves a customer for their bank: a live account not on hold, source of wealth
 * answered when staff or the £15,000 threshold asked again, and no wait after a staff 2FA reset at `now`.
 * Fiat withdrawals and affiliate claims (referrals) both check it.
 */
export function checkMayPayOut(
  customer: Pick<FiatCustomer, 'status' | 'block_status' | 'is_sow_reset' | 'two_factor_reset_at'>,
  now: Date,
): void {
  if (!isLive(customer)) throw new AppError('ACCOUNT_NOT_LIVE');
  if (customer.is_sow_reset === 1) throw new AppError('FORBIDDEN', FIAT_TEXTS.sourceOfWealthPending);
  const until = withdrawalsBlockedUntil(customer, now);
  if (until) throw new AppError('FORBIDDEN', waitUntilText(FIAT_TEXTS.twoFactorResetWait, until));
}

export async function requireCustomer(
  repository: Pick<FiatRepository, 'findCustomer'>,
  userId: number,
): Promise<FiatCustomer> {
  const customer = await repository.findCustomer(userId);
  if (!customer) throw new AppError('UNAUTHENTICATED');
  return customer;
}

export function asCurrency(code: string): FiatCurrency {
  return code as FiatCurrency;
}

export function money(units: string | bigint, currency: string): string {
  return formatAmount(BigInt(units), asCurrency(currency));
}

export function withdrawalsAllowedFrom(
  row: Pick<BankAccountRow, 'details_changed_at'>,
  now: Date,
): Date | null {
  const from = new Date(row.details_changed_at.getTime() + BANK_CHANGE_WAIT_HOURS * 3_600_000);
  return from > now ? from : null;
}

export function endingOf(row: { account_number: string | null; iban: string | null }): string {
  return (row.account_number ?? row.iban ?? '').slice(-4);
}

export function toWithdrawal(row: WithdrawalRow): FiatWithdrawal {
  const amount = BigInt(row.amount);
  const fee = BigInt(row.fee);
  return {
    id: row.id,
    currency: asCurrency(row.currency),
    amount: money(amount, row.currency),
    fee: money(fee, row.currency),
    amount_receive: money(amount - fee, row.currency),
    status: row.status,
    name_of_account: row.name_of_account,
    account_ending: endingOf(row),
    // Once a payout file lists it the bank is paying it: cancelling then would pay it twice.
    can_cancel: row.status === 'pending' && row.exported_at === null,
    reject_reason: row.reject_reason,
    created_at: row.created_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
  };
}

/** The ledger accounts fiat money moves between. */
export const bankRef = (currency: string) => ({ asset: asCurrency(currency), kind: 'bank' as const });
export const suspenseRef = (currency: string) => ({ asset: asCurrency(currency), kind: 'suspense' as const });
export const feeRef = (currency: string) => ({
  asset: asCurrency(currency),
  kind: 'withdrawal_fee_revenue' as const,
});
export const userRef = (userId: number, currency: string) => ({
  asset: asCurrency(currency),
  kind: 'available' as const,
  ownerUserId: String(userId),
});
