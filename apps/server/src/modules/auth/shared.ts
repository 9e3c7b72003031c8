import { AppError, AUTH_TEXTS, type VerificationState } from '@florin/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Notifier, QueuedMail } from '../notifications/service.js';
import type { Captcha } from '../../security/captcha.js';
import { isCommonPassword } from '../../security/passwords.js';
import type { RateLimiter } from '../../security/rate-limits.js';
import type { EmailedCodes } from '../../security/emailed-codes.js';
import type { SecretBox } from '../../security/secret-box.js';
import { matchTotpStep } from '../../security/totp.js';
import type { AuthRepository, UserRow } from './repository.js';
import type { SessionStore } from './sessions.js';

const EMAIL_CHANGE_MINUTES = 24 * 60;

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

export function passwordProblems(password: string): string[] | undefined {
  return isCommonPassword(password) ? [AUTH_TEXTS.passwordTooCommon] : undefined;
}

export function validation(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { [field]: [message] });
}

/** A link into the app, for mails. */
export function linkTo(deps: Pick<AuthServiceDeps, 'publicUrl'>, path: string): string {
  return `${deps.publicUrl}${path}`;
}

/**
 * Starts a mail and answers without waiting for it: for the routes that must not tell whether an
 * address has an account (registration, password reset), where awaiting the SMTP round trip for
 * real addresses only would. The mail is written to the outbox and sent after the answer (its sender
 * retries a failed send); a failure to write it is logged with the request and never fails it.
 */
export function sendAfterAnswer(meta: RequestMeta, send: () => Promise<void>): void {
  void send().catch((error: unknown) => meta.log.error({ err: error }, 'mail not sent'));
}

/** The link that confirms a new address, and its mail to that address, written in `trx`. */
export async function queueEmailChangeConfirmation(
  deps: AuthServiceDeps,
  trx: Kysely<DB>,
  user: UserRow,
  newEmail: string,
): Promise<QueuedMail | undefined> {
  const token = await deps.repository.createEmailToken(
    user.id,
    'email_change',
    EMAIL_CHANGE_MINUTES,
    newEmail,
    trx,
  );
  return deps.notifier.queue(
    trx,
    user,
    'email_change_confirm',
    { firstName: user.first_name, url: linkTo(deps, `/api/v1/settings/email/confirm/${token}`) },
    { to: newEmail },
  );
}

export async function sendEmailChangeConfirmation(
  deps: AuthServiceDeps,
  user: UserRow,
  newEmail: string,
): Promise<void> {
  const mail = await deps.repository.transaction((trx) =>
    queueEmailChangeConfirmation(deps, trx, user, newEmail),
  );
  await deps.notifier.deliver(mail);
}

/** A code from the user's authenticator (each 30-second step usable once) or an unused recovery code. */
export async function checkSecondFactor(
  deps: AuthServiceDeps,
  user: UserRow,
  passcode: string,
): Promise<'totp' | 'recovery' | null> {
  const { repository, secretBox, clock } = deps;
  if (!user.totp_secret_encrypted) return null;
  if (passcode.includes('-'))
    return (await repository.useRecoveryCode(user.id, passcode)) ? 'recovery' : null;
  const step = matchTotpStep(secretBox.decrypt(user.totp_secret_encrypted), passcode, clock.now());
  return step !== null && (await repository.claimTotpStep(user.id, step)) ? 'totp' : null;
}
