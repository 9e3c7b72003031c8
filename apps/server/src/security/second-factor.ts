import type { EmailedCodes } from './emailed-codes.js';

export type SecondFactorResult = 'ok' | 'missing' | 'expired' | 'wrong';

export type SecondFactor = ReturnType<typeof createSecondFactor>;

/**
 * The second factor a withdrawal needs (DECISIONS.md "Second factor"): the
 * authenticator app's code, or for a customer staff switched to e-mailed
 * codes (platform_2fa_mobile) a code from POST /api/v1/mobile/request-2fa of
 * the withdrawal's purpose. A customer with neither needs none.
 */
export function createSecondFactor(deps: {
  emailedCodes: EmailedCodes;
  /** Checks the customer's authenticator code, taken once (the auth module's). */
  verifyAuthenticatorCode: (userId: number, passcode: string) => Promise<boolean>;
}) {
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
      if (customer.platform_2fa_mobile) {
        const emailed = await deps.emailedCodes.check(customer.id, purpose, passcode);
        if (emailed === 'ok') return 'ok';
        if (emailed === 'expired' && !customer.has_totp) return 'expired';
      }
      if (customer.has_totp && (await deps.verifyAuthenticatorCode(customer.id, passcode))) return 'ok';
      return 'wrong';
    },
  };
}
