import { AppError, AUTH_TEXTS } from '@florin/contracts';
import { LIMITS } from '../../security/rate-limits.js';
import { createTotpSecret, matchTotpStep } from '../../security/totp.js';
import { newRecoveryCode } from './repository.js';
import { checkSecondFactor, type AuthServiceDeps } from './shared.js';

const RECOVERY_CODE_COUNT = 10;

/** Turning the authenticator on and off, and checking its codes for money-moving routes. */
export function createTwoFactor(deps: AuthServiceDeps) {
  const { repository, notifier, limits, secretBox, clock } = deps;

  return {
    async generateTwoFactorSecret(userId: number): Promise<{ secret: string; qr_url: string }> {
      const user = await repository.findUserById(userId);
      if (!user) throw new AppError('UNAUTHENTICATED');
      if (user.totp_secret_encrypted)
        throw new AppError('CONFLICT', 'Two-factor authentication is already on.');
      const { secret, uri } = createTotpSecret(user.email);
      await repository.updateUser(user.id, { totp_pending_secret_encrypted: secretBox.encrypt(secret) });
      return { secret, qr_url: uri };
    },

    /** Turns 2FA on (with a code from the secret just generated) or off (with a current code). */
    async toggleTwoFactor(
      userId: number,
      input: { passcode: string; disable_2fa: 0 | 1 },
    ): Promise<{ recoveryCodes?: string[] }> {
      const user = await repository.findUserById(userId);
      if (!user) throw new AppError('UNAUTHENTICATED');
      // Each code is counted before it is judged and the count cleared by a right one (as at sign-in);
      // a toggle refused for the state it finds judges no code and is not counted.
      const judged = async <T>(judge: () => T): Promise<Exclude<Awaited<T>, null | false>> => {
        await limits.take(LIMITS.twoFactorToggleFailuresPerUser, String(userId));
        const outcome = await judge();
        if (outcome === null || outcome === false)
          throw new AppError('INVALID_PASSCODE', AUTH_TEXTS.wrongToggleCode);
        await limits.clear(LIMITS.twoFactorToggleFailuresPerUser, String(userId));
        return outcome as Exclude<Awaited<T>, null | false>;
      };

      if (input.disable_2fa === 0) {
        if (user.totp_secret_encrypted)
          throw new AppError('CONFLICT', 'Two-factor authentication is already on.');
        if (!user.totp_pending_secret_encrypted) {
          throw new AppError('CONFLICT', 'Scan a new QR code first: the setup has expired.');
        }
        const pending = secretBox.decrypt(user.totp_pending_secret_encrypted);
        const step = await judged(() => matchTotpStep(pending, input.passcode, clock.now()));
        // One statement that only the first of concurrent requests with the same code gets through:
        // a second must not hand out recovery codes that replace the first's.
        const pendingSecret = user.totp_pending_secret_encrypted;
        const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
        const mail = await repository.transaction(async (trx) => {
          if (!(await repository.enableTwoFactor(user.id, pendingSecret, step, trx)))
            throw new AppError('CONFLICT', 'Two-factor authentication is already on.');
          await repository.replaceRecoveryCodes(user.id, recoveryCodes, trx);
          return notifier.queue(trx, user, 'two_factor_enabled', { firstName: user.first_name });
        });
        await notifier.deliver(mail);
        return { recoveryCodes };
      }

      if (!user.totp_secret_encrypted)
        throw new AppError('CONFLICT', 'Two-factor authentication is already off.');
      await judged(() => checkSecondFactor(deps, user, input.passcode));
      const mail = await repository.transaction(async (trx) => {
        await repository.updateUser(
          user.id,
          { totp_secret_encrypted: null, totp_last_step: null, security_changed_at: clock.now() },
          trx,
        );
        await repository.replaceRecoveryCodes(user.id, [], trx);
        return notifier.queue(trx, user, 'two_factor_disabled', { firstName: user.first_name });
      });
      await notifier.deliver(mail);
      return {};
    },

    /**
     * For money-moving routes (issues 7, 8): whether `passcode` is the customer's current
     * authenticator code, taken once (a code seen before is refused). Recovery codes do not count.
     */
    async verifyAuthenticatorCode(userId: number, passcode: string): Promise<boolean> {
      const user = await repository.findUserById(userId);
      if (!user?.totp_secret_encrypted || !/^\d{6}$/.test(passcode)) return false;
      const step = matchTotpStep(secretBox.decrypt(user.totp_secret_encrypted), passcode, clock.now());
      return step !== null && (await repository.claimTotpStep(user.id, step));
    },
  };
}
