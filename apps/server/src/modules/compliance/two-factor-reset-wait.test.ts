import { describe, expect, it } from 'vitest';
import { isWithdrawalBlockedByTwoFactorReset, withdrawalsBlockedUntil } from './customer-service.js';

describe('the withdrawal wait after a 2FA reset', () => {
  it('lasts 24 hours from the reset', () => {
    const resetAt = new Date('2026-11-23T10:00:00Z');
    expect(isWithdrawalBlockedByTwoFactorReset({ two_factor_reset_at: null }, resetAt)).toBe(false);
    expect(
      isWithdrawalBlockedByTwoFactorReset({ two_factor_reset_at: resetAt }, new Date('2026-11-24T09:59:59Z')),
    ).toBe(true);
    expect(
      isWithdrawalBlockedByTwoFactorReset({ two_factor_reset_at: resetAt }, new Date('2026-11-24T10:00:00Z')),
    ).toBe(false);
    expect(withdrawalsBlockedUntil({ two_factor_reset_at: resetAt }, resetAt)?.toISOString()).toBe(
      '2026-11-24T10:00:00.000Z',
    );
  });
});
