import { AppError, AUTH_TEXTS } from '@florin/contracts';
import { hashPassword, verifyPassword } from '../../security/passwords.js';
import { LIMITS } from '../../security/rate-limits.js';
import {
  linkTo,
  passwordProblems,
  sendAfterAnswer,
  validation,
  type AuthServiceDeps,
  type RequestMeta,
} from './shared.js';

const PASSWORD_RESET_MINUTES = 60;

/** A forgotten password reset through a mailed link, and a known one changed. */
export function createPasswords(deps: AuthServiceDeps) {
  const { repository, sessions, notifier, limits, clock } = deps;
  const link = (path: string) => linkTo(deps, path);

  return {
    async requestPasswordReset(email: string, meta: RequestMeta): Promise<void> {
      await limits.take(LIMITS.resetRequestsPerIp, meta.ip);
      await limits.take(LIMITS.resetRequestsPerEmail, email);
      const user = await repository.findUserByEmail(email);
      if (!user) return;
      const token = await repository.createEmailToken(user.id, 'password_reset', PASSWORD_RESET_MINUTES);
      sendAfterAnswer(meta, () =>
        notifier.notify(user, 'password_reset', {
          firstName: user.first_name,
          url: link(`/password-reset?${token}`),
        }),
      );
    },

    async resetPassword(
      input: { email: string; password: string; token: string },
      meta: RequestMeta,
    ): Promise<void> {
      await limits.take(LIMITS.resetAttemptsPerIp, meta.ip);
      const common = passwordProblems(input.password);
      if (common) throw new AppError('VALIDATION_FAILED', AUTH_TEXTS.passwordTooCommon, { password: common });
      const user = await repository.findUserByEmail(input.email);
      const live = await repository.findLiveEmailToken(input.token, 'password_reset');
      if (!user || !live || live.user_id !== user.id) throw validation('token', AUTH_TEXTS.resetTokenInvalid);
      const passwordHash = await hashPassword(input.password);
      // The new password, the sessions it ends and the mail that tells of it commit together.
      const mail = await repository.transaction(async (trx) => {
        if (!(await repository.consumeEmailToken(input.token, 'password_reset', trx))) {
          throw validation('token', AUTH_TEXTS.resetTokenInvalid);
        }
        // The other links of the hour end with the one used.
        await repository.voidEmailTokens(user.id, 'password_reset', trx);
        await repository.updateUser(
          user.id,
          {
            password_hash: passwordHash,
            password_changed_at: clock.now(),
            // Crypto withdrawals wait 24 hours from it (issue 8).
            security_changed_at: clock.now(),
            // Following a link from the mailbox proves the address too.
            email_verified_at: user.email_verified_at ?? clock.now(),
          },
          trx,
        );
        await sessions.revokeAllForUser(user.id, undefined, trx);
        return notifier.queue(trx, user, 'password_changed', { firstName: user.first_name });
      });
      await notifier.deliver(mail);
    },

    async changePassword(
      userId: number,
      sessionId: string,
      input: { current_password: string; password: string },
    ): Promise<void> {
      // Counted before judged, cleared by the right password (as at sign-in).
      await limits.take(LIMITS.passwordChangeFailuresPerUser, String(userId));
      const user = await repository.findUserById(userId);
      if (!user) throw new AppError('UNAUTHENTICATED');
      if (!(await verifyPassword(user.password_hash, input.current_password))) {
        throw validation('current_password', AUTH_TEXTS.currentPasswordWrong);
      }
      await limits.clear(LIMITS.passwordChangeFailuresPerUser, String(userId));
      const common = passwordProblems(input.password);
      if (common) throw new AppError('VALIDATION_FAILED', AUTH_TEXTS.passwordTooCommon, { password: common });
      const passwordHash = await hashPassword(input.password);
      const mail = await repository.transaction(async (trx) => {
        await repository.updateUser(
          user.id,
          { password_hash: passwordHash, password_changed_at: clock.now(), security_changed_at: clock.now() },
          trx,
        );
        await sessions.revokeAllForUser(user.id, sessionId, trx);
        return notifier.queue(trx, user, 'password_changed', { firstName: user.first_name });
      });
      await notifier.deliver(mail);
    },
  };
}
