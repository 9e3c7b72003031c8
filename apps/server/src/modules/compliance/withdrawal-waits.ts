/** DECISIONS.md: after a staff-assisted 2FA reset, withdrawals wait this long. */
export const TWO_FACTOR_RESET_WITHDRAWAL_WAIT_HOURS = 24;

/** When withdrawals may start again after staff reset the customer's 2FA; null when they need not wait at `now`. */
export function withdrawalsBlockedUntil(user: { two_factor_reset_at: Date | null }, now: Date): Date | null {
  if (!user.two_factor_reset_at) return null;
  const until = new Date(
    user.two_factor_reset_at.getTime() + TWO_FACTOR_RESET_WITHDRAWAL_WAIT_HOURS * 3_600_000,
  );
  return until > now ? until : null;
}

/** Issue 8: after a password change or reset, or 2FA turned on or off, crypto withdrawals wait this long. */
export const SECURITY_CHANGE_CRYPTO_WAIT_HOURS = 24;

/**
 * When crypto withdrawals may start again: 24 hours after the later of a
 * staff 2FA reset and the customer's own security change (password changed
 * or reset, 2FA on or off); null when they need not wait.
 */
export function cryptoWithdrawalsBlockedUntil(
  user: { two_factor_reset_at: Date | null; security_changed_at: Date | null },
  now: Date,
): Date | null {
  const changes = [user.two_factor_reset_at, user.security_changed_at].filter(
    (moment): moment is Date => moment !== null,
  );
  if (changes.length === 0) return null;
  const latest = Math.max(...changes.map((moment) => moment.getTime()));
  const until = new Date(latest + SECURITY_CHANGE_CRYPTO_WAIT_HOURS * 3_600_000);
  return until > now ? until : null;
}

/**
 * For the withdrawal flows (issues 7 and 8): true while the customer's 2FA
 * was reset by staff less than 24 hours ago. Someone who took over the
 * mailbox and talked support into a reset cannot move the money out at once.
 */
export function isWithdrawalBlockedByTwoFactorReset(
  user: { two_factor_reset_at: Date | null },
  now: Date,
): boolean {
  return withdrawalsBlockedUntil(user, now) !== null;
}
