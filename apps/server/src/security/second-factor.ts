import type { EmailedCodes } from './emailed-codes.js';
import { LIMITS, type RateLimiter } from './rate-limits.js';

export type SecondFactorResult = 'ok' | 'missing' | 'expired' | 'wrong';

/** What a money route needs of it; the whitelist module is given verifyAuthenticatorCode alone. */
export type SecondFactor = Pick<ReturnType<typeof createSecondFactor>, 'isRequired' | 'check'>;

/**
 * The second factor a withdrawal needs (DECISIONS.md "Second factor"): the
 * authenticator app's code, or for a customer staff switched to e-mailed
 * codes (platform_2fa_mobile) a code from POST /api/v1/mobile/request-2fa of
 * the withdrawal's purpose. A customer with neither needs none.
 *
 * Every code judged here, and the authenticator code of a whitelist change,
 * counts against one limit per customer (5 wrong in 15 minutes, as at
 * sign-in): the per-IP limit alone let a thief with a session guess from
 * many addresses.
 */
export function createSecondFactor(deps: {
  emailedCodes: EmailedCodes;
  limits: Pick<RateLimiter, 'take' | 'clear'>;
  /** Checks the customer's authenticator code, taken once (the auth module's). */
  verifyAuthenticatorCode: (userId: number, passcode: string) => Promise<boolean>;
}) {
  /**
   * Counted before it is judged, so concurrent guesses cannot all slip in before the first failure
   * is written and a customer over the limit is refused (429) even the right code; a right one
   * clears the count.
   */
  async function judgeCounted<T>(
    userId: number,
    judge: () => Promise<T>,
    isRight: (outcome: T) => boolean,
  ): Promise<T> {
    await deps.limits.take(LIMITS.secondFactorFailuresPerUser, String(userId));
    const outcome = await judge();
    if (isRight(outcome)) await deps.limits.clear(LIMITS.secondFactorFailuresPerUser, String(userId));
    return outcome;
  }

  async function judge(
    customer: { id: number; has_totp: boolean; platform_2fa_mobile: boolean },
    passcode: string,
    purpose: string,
  ): Promise<SecondFactorResult> {
    if (customer.platform_2fa_mobile) {
      const emailed = await deps.emailedCodes.check(customer.id, purpose, passcode);
      if (emailed === 'ok') return 'ok';
      if (emailed === 'expired' && !customer.has_totp) return 'expired';
    }
    if (customer.has_totp && (await deps.verifyAuthenticatorCode(customer.id, passcode))) return 'ok';
    return 'wrong';
  }

  return {
    isRequired(customer: { has_totp: boolean; platform_2fa_mobile: boolean }): boolean {
      return customer.has_totp || customer.platform_2fa_mobile;
    },

    async check(
      customer: { id: number; has_totp: boolean; platform_2fa_mobile: boolean },
      passcode: string | null | undefined,
      purpose: string,
    ): Promise<SecondFactorResult> {
      if (!customer.has_totp && !customer.platform_2fa_mobile) return 'ok';
      if (!passcode) return 'missing';
      return judgeCounted(
        customer.id,
        () => judge(customer, passcode, purpose),
        (result) => result === 'ok',
      );
    },

    /** The authenticator code alone (adding or removing a whitelisted wallet or IP), under the same count. */
    async verifyAuthenticatorCode(userId: number, passcode: string): Promise<boolean> {
      return judgeCounted(
        userId,
        () => deps.verifyAuthenticatorCode(userId, passcode),
        (isRight) => isRight,
      );
    },
  };
}
