import { AppError, AUTH_TEXTS, ukDateTime, type LoginResponse } from '@florin/contracts';
import { verifyPassword } from '../../security/passwords.js';
import { LIMITS, type Limit } from '../../security/rate-limits.js';
import type { UserRow } from './repository.js';
import { checkSecondFactor, type AuthServiceDeps, type NewSession, type RequestMeta } from './shared.js';

const LOGIN_CHALLENGE_SECONDS = 300;
const LOGIN_CHALLENGE_MAX_FAILURES = 5;

/** Signing in (a password, then a second factor when the customer has one) and signing out. */
export function createSignIn(deps: AuthServiceDeps) {
  const { repository, sessions, notifier, limits, clock } = deps;

  /** An e-mailed sign-in code works for the sign-in it was mailed for, and only that one. */
  const signInCodePurpose = (challengeId: string) => `sign_in:${challengeId}`;

  /** A sign-in's second step: as checkSecondFactor, or without an authenticator the code mailed for this sign-in. */
  async function checkSignInFactor(
    user: UserRow,
    passcode: string,
    challengeId: string,
  ): Promise<'totp' | 'recovery' | 'emailed' | null> {
    if (user.totp_secret_encrypted || !user.platform_2fa_mobile)
      return checkSecondFactor(deps, user, passcode);
    const emailed = await deps.emailedCodes.check(user.id, signInCodePurpose(challengeId), passcode);
    return emailed === 'ok' ? 'emailed' : null;
  }

  /** Refuses a sign-in from an address off the customer's IP whitelist, and tells them. */
  async function checkSignInIp(user: UserRow, meta: RequestMeta): Promise<void> {
    if (!deps.isSignInIpAllowed || (await deps.isSignInIpAllowed(user.id, meta.ip))) return;
    await notifier.notify(user, 'login_blocked_ip', {
      firstName: user.first_name,
      ip: meta.ip,
      at: ukDateTime(clock.now()),
    });
    throw new AppError('IP_NOT_WHITELISTED');
  }

  /**
   * Where a failed password or code is counted: with everyone's against the
   * account, or, from an address the account has signed in from before, apart
   * (per account and address). Guesses from elsewhere then stop at the
   * account's limit without locking the owner out at home
   * (docs/decisions/073-brute-force-from-many-addresses.md).
   */
  async function failureCount(
    userId: number | undefined,
    ip: string,
    accountWide: { limit: Limit; subject: string },
    perKnownAddress: Limit,
  ): Promise<{ limit: Limit; subject: string }> {
    if (userId === undefined || !(await repository.hasSignedInFrom(userId, ip))) return accountWide;
    return { limit: perKnownAddress, subject: `${accountWide.subject}:${ip}` };
  }

  async function startSession(user: UserRow, meta: RequestMeta): Promise<NewSession> {
    const session = await sessions.create(user.id, meta);
    const now = clock.now();
    await repository.updateUser(user.id, { previous_login_at: user.last_login_at, last_login_at: now });
    await notifier.notify(user, 'login', { firstName: user.first_name, ip: meta.ip, at: ukDateTime(now) });
    return session;
  }

  return {
    async login(
      input: { username: string; password: string; altcha: string },
      meta: RequestMeta,
    ): Promise<{ response: LoginResponse; session?: NewSession }> {
      await limits.take(LIMITS.loginPerIp, meta.ip);
      if (!(await deps.captcha.verify(input.altcha))) throw new AppError('CAPTCHA_FAILED');
      const user = await repository.findUserByEmail(input.username);
      const failures = await failureCount(
        user?.id,
        meta.ip,
        { limit: LIMITS.loginFailuresPerAccount, subject: input.username },
        LIMITS.loginFailuresPerKnownAddress,
      );
      // Every attempt is counted before it is judged, and the count cleared by the right password:
      // concurrent guesses cannot all slip in before the first failure is written.
      await limits.take(failures.limit, failures.subject);
      if (!(await verifyPassword(user?.password_hash, input.password)) || !user) {
        throw new AppError('INVALID_CREDENTIALS');
      }
      await limits.clear(failures.limit, failures.subject);
      // Only the right password learns that the account is closed (issue 13).
      if (user.access_ends_at && user.access_ends_at <= clock.now()) throw new AppError('ACCOUNT_CLOSED');
      await checkSignInIp(user, meta);
      if (!user.email_verified_at) {
        throw new AppError('EMAIL_NOT_VERIFIED', undefined, undefined, { verified: false, user_id: user.id });
      }
      // Staff switch a customer who cannot use an authenticator to e-mailed codes: theirs is mailed
      // now, for this sign-in only. A customer with an authenticator uses it (or a recovery code).
      const emailCode = !user.totp_secret_encrypted && user.platform_2fa_mobile;
      if (user.totp_secret_encrypted || emailCode) {
        const challenge = await repository.createLoginChallenge(user.id, LOGIN_CHALLENGE_SECONDS);
        if (emailCode) {
          const code = await deps.emailedCodes.issue(user.id, signInCodePurpose(challenge.id));
          await notifier.notify(user, 'sign_in_code', {
            firstName: user.first_name,
            code,
            // The code would last longer, but the sign-in it finishes does not.
            minutes: LOGIN_CHALLENGE_SECONDS / 60,
            ip: meta.ip,
          });
        }
        return {
          response: {
            login_token: challenge.token,
            expires_in: LOGIN_CHALLENGE_SECONDS,
            data: { disable_2fa: 1, verified: true, email_code: emailCode },
          },
        };
      }
      const session = await startSession(user, meta);
      return {
        session,
        response: {
          access_token: session.token,
          expires_in: session.expiresIn,
          platform: user.platform,
          upgraded: user.upgraded,
          data: { disable_2fa: 0, verified: true },
        },
      };
    },

    async loginSecondFactor(input: { login_token: string; passcode: string }, meta: RequestMeta) {
      const challenge = await repository.findLoginChallenge(input.login_token);
      if (!challenge) throw new AppError('UNAUTHENTICATED', AUTH_TEXTS.loginSessionExpired);
      const failures = await failureCount(
        challenge.user_id,
        meta.ip,
        { limit: LIMITS.twoFactorFailuresPerUser, subject: String(challenge.user_id) },
        LIMITS.twoFactorFailuresPerKnownAddress,
      );
      // Counted before judged, cleared by the right code, as the password is.
      await limits.take(failures.limit, failures.subject);
      if (challenge.failed_attempts >= LOGIN_CHALLENGE_MAX_FAILURES) {
        throw new AppError('RATE_LIMITED', 'Too many wrong codes. Please sign in again.');
      }
      const user = await repository.findUserById(challenge.user_id);
      const factor = user ? await checkSignInFactor(user, input.passcode, challenge.id) : null;
      if (!user || !factor) {
        await repository.failLoginChallenge(challenge.id);
        throw new AppError('INVALID_PASSCODE', AUTH_TEXTS.wrongPasscode);
      }
      await limits.clear(failures.limit, failures.subject);
      if (!(await repository.useLoginChallenge(challenge.id))) {
        throw new AppError('UNAUTHENTICATED', AUTH_TEXTS.loginSessionExpired);
      }
      // The challenge may have been started from a whitelisted address and finished from another.
      await checkSignInIp(user, meta);
      if (factor === 'recovery') {
        await notifier.notify(user, 'recovery_code_used', {
          firstName: user.first_name,
          left: await repository.countRecoveryCodesLeft(user.id),
        });
      }
      const session = await startSession(user, meta);
      return {
        session,
        response: {
          access_token: session.token,
          expires_in: session.expiresIn,
          platform: user.platform,
          upgraded: user.upgraded,
        },
      };
    },

    async logout(sessionId: string, userId: number): Promise<void> {
      await sessions.revoke(sessionId);
      const user = await repository.findUserById(userId);
      if (user)
        await notifier.notify(user, 'logout', { firstName: user.first_name, at: ukDateTime(clock.now()) });
    },
  };
}
