import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { AppError, type AffiliateClaim, type BankAccount } from '@florin/contracts';
import { formatAmount } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import type { HouseAccountRef, Ledger, UserAccountRef } from '../../ledger/index.js';
import type { SecondFactor } from '../../security/second-factor.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier } from '../notifications/service.js';
import type { ClaimRow, ReferralCustomer, ReferralRepository } from './repository.js';

export type ReferralServiceDeps = {
  db: Kysely<DB>;
  repository: ReferralRepository;
  ledger: Ledger;
  secondFactor: SecondFactor;
  notifier: Pick<Notifier, 'queue' | 'deliver'>;
  /** The customer's registered GBP bank account (the fiat module's), or null. */
  bankAccountOf: (userId: number) => Promise<BankAccount | null>;
  /** Spec 000 §6: a customer whose verification is incomplete is paid nothing out. */
  verification: VerificationGate;
  /** What a claim's waits (a 2FA reset, new bank details) are judged by (the app's clock). */
  clock: Clock;
};

export type Answer<T> = { data: T; message: string };

export const affiliateRef = (userId: number): UserAccountRef => ({
  asset: 'GBP',
  kind: 'affiliate',
  ownerUserId: String(userId),
});
export const availableRef = (userId: number): UserAccountRef => ({
  asset: 'GBP',
  kind: 'available',
  ownerUserId: String(userId),
});
export const REFERRAL_EXPENSE: HouseAccountRef = { asset: 'GBP', kind: 'referral_expense' };
export const BANK_GBP: HouseAccountRef = { asset: 'GBP', kind: 'bank' };

export const pounds = (units: bigint | string) => formatAmount(BigInt(units), 'GBP');

export function refused(message: string, field: 'passcode' | 'withdraw_amount'): AppError {
  return new AppError('WITHDRAWAL_REFUSED', message, undefined, { [field]: message });
}

export function toClaim(row: ClaimRow): AffiliateClaim {
  return {
    id: row.id,
    amount: pounds(row.amount),
    status: row.status,
    created_at: row.created_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
  };
}

/** The last four digits of a bank account number, as mails show it. */
export function endingOf(accountNumber: string | null): string {
  return (accountNumber ?? '').slice(-4);
}

export function isSlugClash(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  const constraint = (error as { constraint?: string }).constraint ?? '';
  return code === '23505' && /slug/.test(constraint || String((error as Error).message));
}

export async function requireCustomer(
  repository: ReferralRepository,
  userId: number,
): Promise<ReferralCustomer> {
  const customer = await repository.findCustomer(userId);
  if (!customer) throw new AppError('UNAUTHENTICATED');
  return customer;
}
