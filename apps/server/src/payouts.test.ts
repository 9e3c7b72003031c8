import { describe, expect, it } from 'vitest';
import { AFFILIATE_CLAIM_TRANSITIONS, AppError } from '@florin/contracts';
import { statesThatMayBecome, transition } from './lifecycle.js';
import {
  movesOutsideThePayoutLifecycle,
  PAYOUT_LIFECYCLE,
  PAYOUTS,
  requireSecondPairOfEyes,
  type Payout,
  type PayoutStage,
} from './payouts.js';

describe('the payout lifecycle every payout shares', () => {
  it.each(Object.entries(PAYOUTS))('%s moves only as the shared lifecycle allows', (_name, payout) => {
    expect(movesOutsideThePayoutLifecycle(payout as Payout<string>)).toEqual([]);
  });

  it('finds a payout whose map pays out again after a refusal', () => {
    const drifted: Payout<'open' | 'refused' | 'paid'> = {
      lifecycle: { open: ['refused', 'paid'], refused: ['paid'], paid: [] },
      stages: { open: 'requested', refused: 'refused', paid: 'paid' },
    };
    expect(movesOutsideThePayoutLifecycle(drifted)).toEqual(['refused → paid']);
  });

  it('ends in paid or refused, and nothing leaves either', () => {
    const finals: PayoutStage[] = ['paid', 'refused'];
    for (const stage of finals) expect(PAYOUT_LIFECYCLE[stage]).toEqual([]);
  });
});

describe('the referral claim lifecycle (AFFILIATE_CLAIM_TRANSITIONS)', () => {
  it('lets finance pay or reject a waiting claim, and nothing else', () => {
    expect(statesThatMayBecome(AFFILIATE_CLAIM_TRANSITIONS, 'paid')).toEqual(['waiting']);
    expect(statesThatMayBecome(AFFILIATE_CLAIM_TRANSITIONS, 'rejected')).toEqual(['waiting']);
  });

  it('refuses an undeclared move: a paid claim is never rejected', () => {
    expect(() => transition(AFFILIATE_CLAIM_TRANSITIONS, 'paid', 'rejected')).toThrow(
      expect.objectContaining({ code: 'CONFLICT', status: 409 }),
    );
  });
});

describe('the four-eyes rule', () => {
  it('lets a second staff member take the second step', () => {
    expect(() => requireSecondPairOfEyes(7, { staffId: 8 }, 'Someone else must.')).not.toThrow();
  });

  it('refuses the staff member who took the first step, in the payout’s own words', () => {
    expect(() => requireSecondPairOfEyes(7, { staffId: 7 }, 'Someone else must.')).toThrow(
      new AppError('CONFLICT', 'Someone else must.'),
    );
  });
});
