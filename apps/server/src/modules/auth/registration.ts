import { AppError, AUTH_TEXTS, type RegisterBody } from '@florin/contracts';
import { hashPassword } from '../../security/passwords.js';
import { LIMITS } from '../../security/rate-limits.js';
import type { UserRow } from './repository.js';
import {
  linkTo,
  passwordProblems,
  sendAfterAnswer,
  sendEmailChangeConfirmation,
  type AuthServiceDeps,
  type RequestMeta,
} from './shared.js';

const VERIFY_EMAIL_MINUTES = 24 * 60;

/** Registration and the proof that the address is the customer's. */
export function createRegistration(deps: AuthServiceDeps) {
  const { repository, notifier, limits, clock } = deps;
  const link = (path: string) => linkTo(deps, path);

  /** Writes a verification token and returns the mail that carries it, for the caller to send now or later. */
  async function verificationMail(user: UserRow): Promise<() => Promise<void>> {
    const token = await repository.createEmailToken(user.id, 'verify_email', VERIFY_EMAIL_MINUTES);
    return () =>
      notifier.notify(user, 'email_verification', {
        firstName: user.first_name,
        url: link(`/verify/${token}`),
      });
  }

  return {
    async register(body: RegisterBody, meta: RequestMeta): Promise<void> {
      await limits.take(LIMITS.registerPerIp, meta.ip);
      const common = passwordProblems(body.password);
      if (common) throw new AppError('VALIDATION_FAILED', AUTH_TEXTS.passwordTooCommon, { password: common });
      // Hashed before the look-up, for a taken address too: answering one without the hash's work
      // would tell by the time taken who has an account.
      const passwordHash = await hashPassword(body.password);
      const existing = await repository.findUserByEmail(body.email);
      if (existing) {
        // Same answer as a new registration, so the form cannot be used to find out who has an account.
        sendAfterAnswer(meta, () =>
          notifier.notify(existing, 'already_registered', {
            firstName: existing.first_name,
            loginUrl: link('/login'),
            resetUrl: link('/forgot-password'),
          }),
        );
        return;
      }
      const referrer = body.referral_code
        ? await repository.findUserIdByReferralCode(body.referral_code)
        : undefined;
      const user = await repository.insertUser({
        first_name: body.first_name,
        last_name: body.last_name,
        email: body.email,
        password_hash: passwordHash,
        referred_by_user_id: referrer?.id ?? null,
      });
      sendAfterAnswer(meta, await verificationMail(user));
    },

    async verifyEmail(token: string): Promise<void> {
      const used = await repository.consumeEmailToken(token, 'verify_email');
      if (!used) throw new AppError('NOT_FOUND', AUTH_TEXTS.verifyErrorBanner);
      await repository.updateUser(used.user_id, { email_verified_at: clock.now() });
    },

    /** Sends the verification mail again, or the pending e-mail change's confirmation. Never says whether the user exists. */
    async resendVerification(userId: number, meta: RequestMeta): Promise<void> {
      await limits.take(LIMITS.resendPerIp, meta.ip);
      await limits.take(LIMITS.resendPerUser, String(userId));
      const user = await repository.findUserById(userId);
      if (!user) return;
      if (!user.email_verified_at) await (await verificationMail(user))();
      // As when the change was asked for: an address someone else has gets no mail.
      else if (user.pending_email && !(await repository.findUserByEmail(user.pending_email)))
        await sendEmailChangeConfirmation(deps, user, user.pending_email);
    },
  };
}
