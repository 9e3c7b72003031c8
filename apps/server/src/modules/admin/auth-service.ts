import {
  ADMIN_TEXTS,
  AppError,
  type AdminLoginBody,
  type AdminLoginResponse,
  type AdminSetPasswordBody,
  type StaffMe,
} from '@florin/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import { isCommonPassword, hashPassword, verifyPassword } from '../../security/passwords.js';
import type { Limit, RateLimiter } from '../../security/rate-limits.js';
import type { SecretBox } from '../../security/secret-box.js';
import { createTotpSecret, matchTotpStep } from '../../security/totp.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { AdminRepository, StaffRow } from './repository.js';
import type { StaffSessionStore } from './sessions.js';

/** Time to type a code from the app. */
const LOGIN_CHALLENGE_SECONDS = 300;
/** Time to install an app, scan the code and type one: longer than for a code alone. */
const ENROLLMENT_CHALLENGE_SECONDS = 600;
const LOGIN_CHALLENGE_MAX_FAILURES = 5;

/** The customer sign-in's limits (docs/decisions/018-abuse-limits-in-the-database.md), counted apart for staff. */
export const STAFF_LIMITS = {
  loginPerIp: { name: 'staff-login:ip', max: 30, windowMinutes: 10 },
  loginFailuresPerAccount: { name: 'staff-login:account', max: 5, windowMinutes: 15 },
  twoFactorFailuresPerStaff: { name: 'staff-2fa:staff', max: 5, windowMinutes: 15 },
  setPasswordPerIp: { name: 'staff-set-password:ip', max: 10, windowMinutes: 60 },
} as const satisfies Record<string, Limit>;

export type RequestMeta = { ip: string; userAgent?: string };
export type NewStaffSession = { token: string; csrfToken: string; expiresIn: number };

export function toStaffMe(staff: Pick<StaffRow, 'id' | 'email' | 'role'>): StaffMe {
  return { id: staff.id, email: staff.email, role: staff.role };
}

function validation(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { [field]: [message] });
}

export function createAdminAuthService(deps: {
  db: Kysely<DB>;
  repository: AdminRepository;
  sessions: StaffSessionStore;
  limits: RateLimiter;
  secretBox: SecretBox;
  /** The time codes are judged at (the app's clock). */
  clock: Clock;
}) {
  const { db, repository, sessions, limits, secretBox, clock } = deps;

  /** The code's step when it is right and unused: from the enrolled secret, or from the one being enrolled. */
  async function acceptCode(
    staff: StaffRow,
    pendingSecretEncrypted: string | null,
    code: string,
  ): Promise<'signed-in' | 'enrolled' | null> {
    if (staff.totp_secret_encrypted) {
      const step = matchTotpStep(secretBox.decrypt(staff.totp_secret_encrypted), code, clock.now());
      return step !== null && (await repository.claimTotpStep(staff.id, step)) ? 'signed-in' : null;
    }
    if (!pendingSecretEncrypted) return null;
    const step = matchTotpStep(secretBox.decrypt(pendingSecretEncrypted), code, clock.now());
    return step !== null && (await repository.enrollTotp(staff.id, pendingSecretEncrypted, step))
      ? 'enrolled'
      : null;
  }

  return {
    /**
     * Step one. A disabled member with the right password is told so; every
     * other failure reads the same, so the form tells nobody who is staff.
     */
    async login(input: AdminLoginBody, meta: RequestMeta): Promise<AdminLoginResponse> {
      await limits.take(STAFF_LIMITS.loginPerIp, meta.ip);
      // Counted before judged and cleared by the right password, as for customers: concurrent guesses
      // cannot all pass the count before the first failure is written.
      await limits.take(STAFF_LIMITS.loginFailuresPerAccount, input.email);
      const staff = await repository.findStaffByEmail(input.email);
      // verifyPassword spends one hash check even without a hash, so timing tells nothing either.
      if (!(await verifyPassword(staff?.password_hash ?? undefined, input.password)) || !staff) {
        throw new AppError('INVALID_CREDENTIALS', ADMIN_TEXTS.invalidCredentials);
      }
      await limits.clear(STAFF_LIMITS.loginFailuresPerAccount, input.email);
      if (staff.disabled_at) throw new AppError('FORBIDDEN', ADMIN_TEXTS.staffDisabled);

      if (staff.totp_secret_encrypted) {
        return {
          login_token: await repository.createLoginChallenge(staff.id, LOGIN_CHALLENGE_SECONDS, null),
          expires_in: LOGIN_CHALLENGE_SECONDS,
          must_enroll_2fa: false,
          enrollment: null,
        };
      }
      const { secret, uri } = createTotpSecret(`Florin staff: ${staff.email}`);
      return {
        login_token: await repository.createLoginChallenge(
          staff.id,
          ENROLLMENT_CHALLENGE_SECONDS,
          secretBox.encrypt(secret),
        ),
        expires_in: ENROLLMENT_CHALLENGE_SECONDS,
        must_enroll_2fa: true,
        enrollment: { secret, otpauth_url: uri },
      };
    },

    /** Step two: a code from the app (enrolling the new secret the first time) opens a session. */
    async loginSecondFactor(
      input: { login_token: string; code: string },
      meta: RequestMeta,
    ): Promise<{ staff: StaffMe; session: NewStaffSession }> {
      const challenge = await repository.findLoginChallenge(input.login_token);
      if (!challenge) throw new AppError('UNAUTHENTICATED', ADMIN_TEXTS.loginExpired);
      await limits.take(STAFF_LIMITS.twoFactorFailuresPerStaff, String(challenge.staff_id));
      if (challenge.failed_attempts >= LOGIN_CHALLENGE_MAX_FAILURES) {
        throw new AppError('RATE_LIMITED', ADMIN_TEXTS.tooManyWrongCodes);
      }
      const staff = await repository.findStaffById(challenge.staff_id);
      // Disabled while typing the code: the sign-in is over.
      if (!staff || staff.disabled_at) throw new AppError('UNAUTHENTICATED', ADMIN_TEXTS.loginExpired);

      const outcome = await acceptCode(staff, challenge.pending_totp_secret_encrypted, input.code);
      if (!outcome) {
        await repository.failLoginChallenge(challenge.id);
        throw new AppError('INVALID_PASSCODE', ADMIN_TEXTS.wrongCode);
      }
      await limits.clear(STAFF_LIMITS.twoFactorFailuresPerStaff, String(staff.id));

      const actor: AuditActor = { staffId: staff.id, ip: meta.ip };
      const session = await db.transaction().execute(async (trx) => {
        if (!(await repository.useLoginChallenge(trx, challenge.id))) {
          throw new AppError('UNAUTHENTICATED', ADMIN_TEXTS.loginExpired);
        }
        await repository.updateStaff(trx, staff.id, { last_sign_in_at: clock.now() });
        if (outcome === 'enrolled') {
          await recordAudit(trx, {
            ...actor,
            action: 'staff.two_factor_enrolled',
            targetType: 'staff',
            targetId: staff.id,
            before: { two_factor_enrolled: false },
            after: { two_factor_enrolled: true },
          });
        }
        // The browser it came from is kept with the session (staff_sessions.user_agent).
        await recordAudit(trx, {
          ...actor,
          action: 'staff.signed_in',
          targetType: 'staff',
          targetId: staff.id,
        });
        return sessions.create(staff.id, meta, trx);
      });
      return { staff: toStaffMe(staff), session };
    },

    async logout(sessionId: string, actor: AuditActor & { staffId: number }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await sessions.revoke(sessionId, trx);
        await recordAudit(trx, {
          ...actor,
          action: 'staff.signed_out',
          targetType: 'staff',
          targetId: actor.staffId,
        });
      });
    },

    /** The e-mailed link: sets the password once, and ends any session the member had. */
    async setPassword(input: AdminSetPasswordBody, meta: RequestMeta): Promise<void> {
      await limits.take(STAFF_LIMITS.setPasswordPerIp, meta.ip);
      if (isCommonPassword(input.password)) throw validation('password', ADMIN_TEXTS.passwordTooCommon);
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        const used = await repository.consumePasswordToken(trx, input.token);
        if (!used) throw validation('token', ADMIN_TEXTS.passwordLinkInvalid);
        const staff = await repository.lockStaff(trx, used.staff_id);
        if (!staff) throw validation('token', ADMIN_TEXTS.passwordLinkInvalid);
        await repository.updateStaff(trx, staff.id, { password_hash: passwordHash });
        await sessions.revokeAllForStaff(staff.id, trx);
        await recordAudit(trx, {
          staffId: staff.id,
          ip: meta.ip,
          action: 'staff.password_set',
          targetType: 'staff',
          targetId: staff.id,
          before: { password_set: staff.password_hash !== null },
          after: { password_set: true },
        });
      });
    },

    async me(staffId: number): Promise<StaffMe> {
      const staff = await repository.findStaffById(staffId);
      if (!staff) throw new AppError('NOT_FOUND');
      return toStaffMe(staff);
    },
  };
}

export type AdminAuthService = ReturnType<typeof createAdminAuthService>;
