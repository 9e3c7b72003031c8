import {
  AFFILIATE_CLAIM_TRANSITIONS,
  AppError,
  CRYPTO_WITHDRAWAL_TRANSITIONS,
  FIAT_WITHDRAWAL_TRANSITIONS,
  type AffiliateClaimStatus,
  type CryptoWithdrawalStatus,
  type FiatWithdrawalStatus,
} from '@florin/contracts';
import type { Lifecycle } from './lifecycle.js';

/**
 * The one lifecycle every payout follows (decision 129): fiat withdrawals, crypto withdrawals and
 * referral claims. The amount is held when it is requested, may wait for staff approval, and is
 * either paid (the hold posted) or refused (the hold voided, the money back in the balance).
 */
export type PayoutStage = 'requested' | 'approved' | 'paid' | 'refused';

export const PAYOUT_LIFECYCLE: Lifecycle<PayoutStage> = {
  requested: ['approved', 'paid', 'refused'],
  approved: ['paid', 'refused'],
  paid: [],
  refused: [],
};

/** A payout's own statuses, each placed on the shared lifecycle, with the map its code enforces. */
export type Payout<S extends string> = {
  lifecycle: Lifecycle<S>;
  stages: Readonly<Record<S, PayoutStage>>;
};

export const PAYOUTS: {
  fiatWithdrawal: Payout<FiatWithdrawalStatus>;
  cryptoWithdrawal: Payout<CryptoWithdrawalStatus>;
  referralClaim: Payout<AffiliateClaimStatus>;
} = {
  fiatWithdrawal: {
    lifecycle: FIAT_WITHDRAWAL_TRANSITIONS,
    stages: {
      pending: 'requested',
      approved: 'approved',
      paid: 'paid',
      rejected: 'refused',
      cancelled: 'refused',
    },
  },
  cryptoWithdrawal: {
    lifecycle: CRYPTO_WITHDRAWAL_TRANSITIONS,
    // A crypto withdrawal is confirmed by e-mail before staff see it, and is watched on chain after it is
    // sent: steps inside a stage, not stages of their own.
    stages: {
      awaiting_code: 'requested',
      verified: 'requested',
      pending: 'requested',
      approved: 'approved',
      sent: 'paid',
      confirmed: 'paid',
      rejected: 'refused',
      cancelled: 'refused',
      expired: 'refused',
    },
  },
  referralClaim: {
    lifecycle: AFFILIATE_CLAIM_TRANSITIONS,
    stages: { waiting: 'requested', paid: 'paid', rejected: 'refused' },
  },
};

/** The moves a payout's map declares that the shared lifecycle does not allow: none, for a payout that follows it. */
export function movesOutsideThePayoutLifecycle<S extends string>(payout: Payout<S>): string[] {
  const outside: string[] = [];
  for (const from of Object.keys(payout.lifecycle) as S[]) {
    for (const to of payout.lifecycle[from]) {
      const [a, b] = [payout.stages[from], payout.stages[to]];
      if (a !== b && !PAYOUT_LIFECYCLE[a].includes(b)) outside.push(`${from} → ${to}`);
    }
  }
  return outside;
}

/**
 * The four-eyes rule of every payout over its threshold: money leaves only after two different staff
 * members have acted on it. `firstStaffId` took the first step; the actor of the second must be
 * someone else, or the payout's own sentence refuses it.
 */
export function requireSecondPairOfEyes(
  firstStaffId: number | null,
  actor: { staffId: number | null },
  refusal: string,
): void {
  if (firstStaffId === actor.staffId) throw new AppError('CONFLICT', refusal);
}
