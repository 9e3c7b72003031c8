import {
  ADMIN_TEXTS,
  AppError,
  type CreateStaffBody,
  type StaffMember,
  type StaffRole,
} from '@florin/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { StaffMailer } from './mail.js';
import type { AdminRepository, StaffRow } from './repository.js';
import type { StaffSessionStore } from './sessions.js';

/** An invitation waits three days (a weekend); a link sent later, for a forgotten password, one. */
const INVITATION_HOURS = 72;
const PASSWORD_LINK_HOURS = 24;

/** Who acts on staff accounts: always a signed-in superadmin. */
export type StaffActor = AuditActor & { staffId: number };

export function toStaffMember(row: StaffRow): StaffMember {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    password_set: row.password_hash !== null,
    two_factor_enrolled: row.totp_secret_encrypted !== null,
    disabled: row.disabled_at !== null,
    last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/** The state the audit log keeps of a member: what a reviewer needs, nothing secret. */
function auditView(row: StaffRow): Record<string, unknown> {
  return {
    email: row.email,
    role: row.role,
    password_set: row.password_hash !== null,
    two_factor_enrolled: row.totp_secret_encrypted !== null,
    disabled: row.disabled_at !== null,
  };
}

export function createStaffService(deps: {
  db: Kysely<DB>;
  repository: AdminRepository;
  sessions: StaffSessionStore;
  mail: StaffMailer;
}) {
  const { db, repository, sessions, mail } = deps;

  /**
   * One change to one member, in one transaction with its audit row: the row
   * is locked, `change` says what to set (or throws why not), and the audit
   * row records the member before and after. The acting superadmin's own row
   * is locked too, both in id order: two superadmins disabling or demoting
   * each other at once take turns, and the second finds they no longer may,
   * rather than both succeeding and leaving nobody to run the back office.
   */
  async function changeMember(
    actor: StaffActor,
    staffId: number,
    action: string,
    change: (before: StaffRow) => Partial<StaffRow>,
    alsoInTransaction?: (trx: Kysely<DB>) => Promise<unknown>,
  ): Promise<StaffRow> {
    return db.transaction().execute(async (trx) => {
      const locked = new Map<number, StaffRow>();
      for (const id of [...new Set([actor.staffId, staffId])].sort((a, b) => a - b)) {
        const row = await repository.lockStaff(trx, id);
        if (row) locked.set(id, row);
      }
      const self = locked.get(actor.staffId);
      // What the door answers a member who is no longer an enabled superadmin.
      if (!self || self.disabled_at || self.role !== 'superadmin') throw new AppError('NOT_FOUND');
      const before = locked.get(staffId);
      if (!before) throw new AppError('NOT_FOUND');
      const values = change(before);
      await repository.updateStaff(trx, staffId, values);
      const after = { ...before, ...values };
      await alsoInTransaction?.(trx);
      await recordAudit(trx, {
        ...actor,
        action,
        targetType: 'staff',
        targetId: staffId,
        before: auditView(before),
        after: auditView(after),
      });
      return after;
    });
  }

  return {
    async list(): Promise<StaffMember[]> {
      return (await repository.listStaff()).map(toStaffMember);
    },

    /** The new member sets their own password through an e-mailed link: nobody else ever knows it. */
    async create(actor: StaffActor, input: CreateStaffBody): Promise<StaffMember> {
      const { created, token } = await db.transaction().execute(async (trx) => {
        const row = await repository.insertStaff(trx, input);
        if (!row) {
          throw new AppError('VALIDATION_FAILED', ADMIN_TEXTS.staffEmailTaken, {
            email: [ADMIN_TEXTS.staffEmailTaken],
          });
        }
        const passwordToken = await repository.createPasswordToken(trx, row.id, INVITATION_HOURS);
        await recordAudit(trx, {
          ...actor,
          action: 'staff.created',
          targetType: 'staff',
          targetId: row.id,
          after: auditView(row),
        });
        return { created: row, token: passwordToken };
      });
      await mail.sendInvitation(created.email, created.role, token);
      return toStaffMember(created);
    },

    async changeRole(actor: StaffActor, staffId: number, role: StaffRole): Promise<StaffMember> {
      // A superadmin who could demote themselves could leave the back office with nobody to run it.
      if (staffId === actor.staffId) throw new AppError('FORBIDDEN', ADMIN_TEXTS.cannotChangeOwnRole);
      const after = await changeMember(actor, staffId, 'staff.role_changed', (before) => {
        if (before.role === role) throw new AppError('CONFLICT', ADMIN_TEXTS.sameRole);
        return { role };
      });
      return toStaffMember(after);
    },

    async disable(actor: StaffActor, staffId: number): Promise<StaffMember> {
      if (staffId === actor.staffId) throw new AppError('FORBIDDEN', ADMIN_TEXTS.cannotDisableSelf);
      const after = await changeMember(
        actor,
        staffId,
        'staff.disabled',
        (before) => {
          if (before.disabled_at) throw new AppError('CONFLICT', ADMIN_TEXTS.alreadyDisabled);
          return { disabled_at: new Date() };
        },
        (trx) => sessions.revokeAllForStaff(staffId, trx),
      );
      return toStaffMember(after);
    },

    async enable(actor: StaffActor, staffId: number): Promise<StaffMember> {
      const after = await changeMember(actor, staffId, 'staff.enabled', (before) => {
        if (!before.disabled_at) throw new AppError('CONFLICT', ADMIN_TEXTS.alreadyEnabled);
        return { disabled_at: null };
      });
      return toStaffMember(after);
    },

    /** After identity checks outside Florin: the member enrolls a new authenticator at their next sign-in. */
    async resetTwoFactor(actor: StaffActor, staffId: number): Promise<StaffMember> {
      // Four eyes: someone who took over a superadmin's session must not swap in their own phone.
      if (staffId === actor.staffId) throw new AppError('FORBIDDEN', ADMIN_TEXTS.cannotResetOwnTwoFactor);
      const after = await changeMember(
        actor,
        staffId,
        'staff.two_factor_reset',
        (before) => {
          if (!before.totp_secret_encrypted) throw new AppError('CONFLICT', ADMIN_TEXTS.notEnrolled);
          return { totp_secret_encrypted: null, totp_last_step: null };
        },
        (trx) => sessions.revokeAllForStaff(staffId, trx),
      );
      await mail.sendTwoFactorReset(after.email);
      return toStaffMember(after);
    },

    /** A new set-password link (the invitation expired, or a password was forgotten); the old password works until it is used. */
    async sendPasswordLink(actor: StaffActor, staffId: number): Promise<StaffMember> {
      const { member, token } = await db.transaction().execute(async (trx) => {
        const row = await repository.lockStaff(trx, staffId);
        if (!row) throw new AppError('NOT_FOUND');
        const passwordToken = await repository.createPasswordToken(trx, row.id, PASSWORD_LINK_HOURS);
        await recordAudit(trx, {
          ...actor,
          action: 'staff.password_link_sent',
          targetType: 'staff',
          targetId: row.id,
        });
        return { member: row, token: passwordToken };
      });
      await mail.sendPasswordLink(member.email, token);
      return toStaffMember(member);
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
