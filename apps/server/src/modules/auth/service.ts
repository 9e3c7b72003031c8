import {
  AppError,
  AUTH_TEXTS,
  type LoginResponse,
  type RegisterBody,
  type User,
  type VerificationState,
} from '@florin/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Notifier } from '../notifications/service.js';
import type { Captcha } from '../../security/captcha.js';
import { hashPassword, isCommonPassword, verifyPassword } from '../../security/passwords.js';
import { LIMITS, type Limit, type RateLimiter } from '../../security/rate-limits.js';
import type { EmailedCodes } from '../../security/emailed-codes.js';
import type { SecretBox } from '../../security/secret-box.js';
import { createTotpSecret, matchTotpStep } from '../../security/totp.js';
import { newRecoveryCode, type AuthRepository, type UserRow } from './repository.js';
import type { SessionStore } from './sessions.js';

const VERIFY_EMAIL_MINUTES = 24 * 60;
const PASSWORD_RESET_MINUTES = 60;
const EMAIL_CHANGE_MINUTES = 24 * 60;
const LOGIN_CHALLENGE_SECONDS = 300;
const LOGIN_CHALLENGE_MAX_FAILURES = 5;
const RECOVERY_CODE_COUNT = 10;

/** `log`: the request's logger, for work that outlives the answer. */
export type RequestMeta = { ip: string; userAgent?: string; log: FastifyBaseLogger };
export type NewSession = { token: string; csrfToken: string; expiresIn: number };

export type AuthServiceDeps = {
  repository: AuthRepository;
  sessions: SessionStore;
  notifier: Notifier;
  captcha: Captcha;
  limits: RateLimiter;
  secretBox: SecretBox;
  publicUrl: string;
  /** The verification part of the user (the KYC module's), so this module needs none of its tables. */
  loadVerificationState: (userId: number) => Promise<VerificationState>;
  /**
   * Whether the customer may sign in from `ip` (the IP whitelist, issue 8): true when they
   * whitelist no IPs. Unset: every address may.
   */
  isSignInIpAllowed?: (userId: number, ip: string) => Promise<boolean>;
  /** Sign-in codes by e-mail for a customer staff switched to them (platform_2fa_mobile) who has no authenticator. */
  emailedCodes: { issue: (userId: number, purpose: string) => Promise<string>; check: EmailedCodes['check'] };
  /** The time TOTP codes are judged at and security changes are stamped with (the app's clock). */
  clock: Clock;
};

/** The user without the verification part. */
export type AccountView = Omit<User, keyof VerificationState>;

function passwordProblems(password: string): string[] | undefined {
  return isCommonPassword(password) ? [AUTH_TEXTS.passwordTooCommon] : undefined;
}

function validation(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { [field]: [message] });
}

export function toUserView(user: UserRow, recoveryCodesLeft: number): AccountView {
  return {
    id: user.id,
    user_identification: user.user_identification,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    pending_email: user.pending_email,
    email_verified: user.email_verified_at !== null,
    // The sign-in before this one: on the first there is none, and "now" would hide nothing.
    last_login: user.previous_login_at?.toISOString() ?? null,
    status: user.status,
    block_status: user.block_status,
    account_type: user.account_type,
    platform: user.platform,
    upgraded: user.upgraded,
    disable_florin_2fa: user.totp_secret_encrypted ? 1 : 0,
    platform_2fa_mobile: user.platform_2fa_mobile ? 1 : 0,
    recovery_codes_left: recoveryCodesLeft,
    referral_code: user.referral_code,
    is_referral_used: user.referred_by_user_id === null ? 0 : 1,
    login_notifications: user.login_notifications,
    loginout_notifications: user.loginout_notifications,
    marketing_notifications: user.marketing_notifications,
    trade_notifications: user.trade_notifications,
    termination_notice_at: user.termination_notice_at?.toISOString() ?? null,
    terminated_at: user.terminated_at?.toISOString() ?? null,
    access_ends_at: user.access_ends_at?.toISOString() ?? null,
  };
}

export function createAuthService(deps: AuthServiceDeps) {
  const { repository, sessions, notifier, limits, secretBox, clock } = deps;
  const link = (path: string) => `${deps.publicUrl}${path}`;

  /** Writes a verification token and returns the mail that carries it, for the caller to send now or later. */
  async function verificationMail(user: UserRow): Promise<() => Promise<void>> {
    const token = await repository.createEmailToken(user.id, 'verify_email', VERIFY_EMAIL_MINUTES);
    return () =>
      notifier.notify(user, 'email_verification', {
        firstName: user.first_name,
        url: link(`/verify/${token}`),
      });
  }

  /**
   * Starts a mail and answers without waiting for it: for the routes that must not tell whether an
   * address has an account (registration, password reset), where awaiting the SMTP round trip for
   * real addresses only would. There is no mail queue to hand it to yet (TODO(#14) in the notifier),
   * so the mail goes after the answer; a failure is logged with the request and never fails it.
   */
  function sendAfterAnswer(meta: RequestMeta, send: () => Promise<void>): void {
    void send().catch((error: unknown) => meta.log.error({ err: error }, 'mail not sent'));
  }

  async function sendEmailChangeConfirmation(user: UserRow, newEmail: string): Promise<void> {
    const token = await repository.createEmailToken(user.id, 'email_change', EMAIL_CHANGE_MINUTES, newEmail);
    await notifier.notify(
      user,
      'email_change_confirm',
      { firstName: user.first_name, url: link(`/api/v1/settings/email/confirm/${token}`) },
      { to: newEmail },
    );
  }

  /** An e-mailed sign-in code works for the sign-in it was mailed for, and only that one. */
  const signInCodePurpose = (challengeId: string) => `sign_in:${challengeId}`;

  /** A sign-in's second step: as checkSecondFactor, or without an authenticator the code mailed for this sign-in. */
  async function checkSignInFactor(
    user: UserRow,
    passcode: string,
    challengeId: string,
  ): Promise<'totp' | 'recovery' | 'emailed' | null> {
    if (user.totp_secret_encrypted || !user.platform_2fa_mobile) return checkSecondFactor(user, passcode);
    const emailed = await deps.emailedCodes.check(user.id, signInCodePurpose(challengeId), passcode);
    return emailed === 'ok' ? 'emailed' : null;
  }

  /** A code from the user's authenticator (each 30-second step usable once) or an unused recovery code. */
  async function checkSecondFactor(user: UserRow, passcode: string): Promise<'totp' | 'recovery' | null> {
    if (!user.totp_secret_encrypted) return null;
    if (passcode.includes('-'))
      return (await repository.useRecoveryCode(user.id, passcode)) ? 'recovery' : null;
    const step = matchTotpStep(secretBox.decrypt(user.totp_secret_encrypted), passcode, clock.now());
    return step !== null && (await repository.claimTotpStep(user.id, step)) ? 'totp' : null;
  }

  /** Refuses a sign-in from an address off the customer's IP whitelist, and tells them. */
  async function checkSignInIp(user: UserRow, meta: RequestMeta): Promise<void> {
    if (!deps.isSignInIpAllowed || (await deps.isSignInIpAllowed(user.id, meta.ip))) return;
    await notifier.notify(user, 'login_blocked_ip', {
      firstName: user.first_name,
      ip: meta.ip,
      at: clock.now().toUTCString(),
    });
    throw new AppError('IP_NOT_WHITELISTED');
  }

  /**
   * Where a failed password or code is counted: with everyone's against the
   * account, or, from an address the account has signed in from before, apart
   * (per account and address). Guesses from elsewhere then stop at the
   * account's limit without locking the owner out at home (docs/decisions.md).
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
    await notifier.notify(user, 'login', { firstName: user.first_name, ip: meta.ip, at: now.toUTCString() });
    return session;
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
        await sendEmailChangeConfirmation(user, user.pending_email);
    },

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
        await notifier.notify(user, 'logout', { firstName: user.first_name, at: clock.now().toUTCString() });
    },

    async getUser(userId: number): Promise<User> {
      const user = await repository.findUserById(userId);
      if (!user) throw new AppError('UNAUTHENTICATED');
      const [recoveryCodesLeft, verification] = await Promise.all([
        repository.countRecoveryCodesLeft(user.id),
        deps.loadVerificationState(user.id),
      ]);
      return { ...toUserView(user, recoveryCodesLeft), ...verification };
    },

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
      if (!(await repository.consumeEmailToken(input.token, 'password_reset'))) {
        throw validation('token', AUTH_TEXTS.resetTokenInvalid);
      }
      await repository.updateUser(user.id, {
        password_hash: await hashPassword(input.password),
        password_changed_at: clock.now(),
        // Crypto withdrawals wait 24 hours from it (issue 8).
        security_changed_at: clock.now(),
        // Following a link from the mailbox proves the address too.
        email_verified_at: user.email_verified_at ?? clock.now(),
      });
      await sessions.revokeAllForUser(user.id);
      await notifier.notify(user, 'password_changed', { firstName: user.first_name });
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
      await repository.updateUser(user.id, {
        password_hash: await hashPassword(input.password),
        password_changed_at: clock.now(),
        security_changed_at: clock.now(),
      });
      await sessions.revokeAllForUser(user.id, sessionId);
      await notifier.notify(user, 'password_changed', { firstName: user.first_name });
    },

    async requestEmailChange(userId: number, input: { email: string; password: string }): Promise<void> {
      await limits.take(LIMITS.passwordChangeFailuresPerUser, String(userId));
      const user = await repository.findUserById(userId);
      if (!user) throw new AppError('UNAUTHENTICATED');
      if (!(await verifyPassword(user.password_hash, input.password))) {
        throw validation('password', AUTH_TEXTS.currentPasswordWrong);
      }
      await limits.clear(LIMITS.passwordChangeFailuresPerUser, String(userId));
      if (input.email === user.email.toLowerCase()) {
        throw validation('email', 'This is already your email address.');
      }
      await repository.updateUser(user.id, { pending_email: input.email });
      // A taken address gets no mail (confirming would fail), but the answer is the same.
      if (!(await repository.findUserByEmail(input.email)))
        await sendEmailChangeConfirmation(user, input.email);
      await notifier.notify(user, 'email_change_requested', {
        firstName: user.first_name,
        newEmail: input.email,
      });
    },

    async confirmEmailChange(token: string): Promise<boolean> {
      const live = await repository.findLiveEmailToken(token, 'email_change');
      if (!live?.new_email || (await repository.findUserByEmail(live.new_email))) return false;
      const used = await repository.consumeEmailToken(token, 'email_change');
      const user = used ? await repository.findUserById(used.user_id) : undefined;
      if (!used?.new_email || !user) return false;
      const oldEmail = user.email;
      await repository.updateUser(user.id, {
        email: used.new_email,
        pending_email: null,
        email_verified_at: clock.now(),
        // Withdrawal codes now go to the new address: crypto withdrawals wait 24 hours (issue 8).
        security_changed_at: clock.now(),
      });
      await notifier.notify(
        user,
        'email_changed',
        { firstName: user.first_name, newEmail: used.new_email },
        { to: oldEmail },
      );
      return true;
    },

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
        if (!(await repository.enableTwoFactor(user.id, user.totp_pending_secret_encrypted, step)))
          throw new AppError('CONFLICT', 'Two-factor authentication is already on.');
        const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
        await repository.replaceRecoveryCodes(user.id, recoveryCodes);
        await notifier.notify(user, 'two_factor_enabled', { firstName: user.first_name });
        return { recoveryCodes };
      }

      if (!user.totp_secret_encrypted)
        throw new AppError('CONFLICT', 'Two-factor authentication is already off.');
      await judged(() => checkSecondFactor(user, input.passcode));
      await repository.updateUser(user.id, {
        totp_secret_encrypted: null,
        totp_last_step: null,
        security_changed_at: clock.now(),
      });
      await repository.replaceRecoveryCodes(user.id, []);
      await notifier.notify(user, 'two_factor_disabled', { firstName: user.first_name });
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

export type AuthService = ReturnType<typeof createAuthService>;
