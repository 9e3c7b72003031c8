import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  AppError,
  CLOSURE_TEXTS,
  RETENTION_YEARS,
  TERMINATION_NOTICE_MONTHS,
  WITHDRAW_DAYS_AFTER_TERMINATION,
} from '@florin/contracts';
import type { FileStorage } from '../../adapters/storage/file-storage.js';
import type { DB } from '../../db/schema.js';
import { verifyPassword } from '../../security/passwords.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { Notifier } from '../notifications/service.js';
import type { TermDepositService } from '../term-deposits/service.js';
import type { ClosureRepository } from './repository.js';

const DAY_MS = 86_400_000;

/** The same day-of-month `months` later (clamped to the month's end), at the same time of day, in UTC. */
export function addMonths(date: Date, months: number): Date {
  const target = new Date(date);
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

const ukDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' });

export type ClosureServiceDeps = {
  db: Kysely<DB>;
  repository: ClosureRepository;
  /** Term deposits that would outlast the account end when it becomes withdraw-only (term deposits service). */
  termDeposits: Pick<TermDepositService, 'endByTermination'>;
  notifier: Notifier;
  storage: Pick<FileStorage, 'delete'>;
  log: Pick<FastifyBaseLogger, 'error' | 'info'>;
};

/**
 * The end of an account (issue 13). The firm terminates with a month's
 * notice, after which the account may only withdraw for 60 days (the door
 * in http/auth.ts enforces it); a customer closes an empty account at once.
 * Five years after access ends, the retention job erases the person's data
 * unless compliance placed a legal hold.
 */
export function createClosureService(deps: ClosureServiceDeps) {
  const { db, repository, notifier } = deps;

  async function lockLive(trx: Kysely<DB>, userId: number) {
    const customer = await repository.lockCustomer(trx, userId);
    if (!customer) throw new AppError('NOT_FOUND');
    return customer;
  }

  return {
    /** Staff: one month's notice by e-mail; withdraw-only from then for 60 days. */
    async terminate(userId: number, reason: string, actor: AuditActor, now: Date = new Date()) {
      const terminatedAt = addMonths(now, TERMINATION_NOTICE_MONTHS);
      const accessEndsAt = new Date(terminatedAt.getTime() + WITHDRAW_DAYS_AFTER_TERMINATION * DAY_MS);
      const mail = await db.transaction().execute(async (trx) => {
        const row = await lockLive(trx, userId);
        if (row.terminated_at) throw new AppError('CONFLICT', CLOSURE_TEXTS.alreadyTerminated);
        await repository.setTermination(trx, userId, {
          termination_notice_at: now,
          terminated_at: terminatedAt,
          access_ends_at: accessEndsAt,
          terminated_by: 'firm',
          termination_reason: reason,
        });
        await deps.termDeposits.endByTermination(trx, userId, terminatedAt, actor);
        await recordAudit(trx, {
          ...actor,
          action: 'user.terminated',
          targetType: 'user',
          targetId: userId,
          before: { terminated_at: null },
          after: {
            terminated_at: terminatedAt.toISOString(),
            access_ends_at: accessEndsAt.toISOString(),
            reason,
          },
        });
        return notifier.queue(trx, row, 'account_termination_notice', {
          firstName: row.first_name,
          terminatesOn: ukDate.format(terminatedAt),
          accessEndsOn: ukDate.format(accessEndsAt),
        });
      });
      await notifier.deliver(mail);
      return {
        data: { terminated_at: terminatedAt.toISOString(), access_ends_at: accessEndsAt.toISOString() },
        message: CLOSURE_TEXTS.terminated,
      };
    },

    /** The customer closes their own account: only once it holds nothing, with their password. */
    async close(userId: number, password: string) {
      const mail = await db.transaction().execute(async (trx) => {
        const row = await lockLive(trx, userId);
        if (!(await verifyPassword(row.password_hash, password)))
          throw new AppError('VALIDATION_FAILED', undefined, { password: ['The password is incorrect.'] });
        if (await repository.holdsAnything(trx, userId))
          throw new AppError('CONFLICT', CLOSURE_TEXTS.closeNotEmpty);
        const now = new Date();
        await repository.setTermination(trx, userId, {
          termination_notice_at: row.termination_notice_at ?? null,
          terminated_at: row.terminated_at && row.terminated_at < now ? row.terminated_at : now,
          access_ends_at: now,
          terminated_by: row.terminated_at ? 'firm' : 'customer',
          termination_reason: row.termination_reason ?? null,
        });
        await repository.revokeSessions(trx, userId);
        return notifier.queue(trx, row, 'account_closed', { firstName: row.first_name });
      });
      await notifier.deliver(mail);
      return { message: CLOSURE_TEXTS.closed };
    },

    /** Compliance keeps (reason) or releases (null) the customer's personal data past the retention period. */
    async setLegalHold(userId: number, reason: string | null, actor: AuditActor) {
      await db.transaction().execute(async (trx) => {
        const row = await lockLive(trx, userId);
        await repository.setLegalHold(trx, userId, reason);
        await recordAudit(trx, {
          ...actor,
          action: reason ? 'user.legal_hold_placed' : 'user.legal_hold_lifted',
          targetType: 'user',
          targetId: userId,
          before: { legal_hold_reason: row.legal_hold_reason },
          after: { legal_hold_reason: reason },
        });
      });
      return {
        data: { legal_hold_reason: reason },
        message: reason ? CLOSURE_TEXTS.legalHoldSet : CLOSURE_TEXTS.legalHoldLifted,
      };
    },

    /**
     * The retention job: erases the personal data of accounts whose access
     * ended more than five years ago, unless on legal hold. Each account is
     * one transaction. Files are deleted inside it, before the rows: should
     * the commit fail, the next pass finds the account again and finishes,
     * whereas the other order could leave identity documents no row names.
     */
    async eraseExpired(now: Date = new Date(), batch = 100): Promise<number> {
      const before = addMonths(now, -12 * RETENTION_YEARS);
      const due = await repository.listDueForErasure(before, batch);
      for (const userId of due) {
        await db.transaction().execute(async (trx) => {
          const row = await lockLive(trx, userId);
          // Checked again under the lock: a hold placed meanwhile wins.
          if (row.legal_hold_reason) return;
          const documentKeys = await repository.documentKeys(trx, userId);
          for (const key of documentKeys) await deps.storage.delete(key);
          await repository.erasePersonalData(trx, userId);
          await recordAudit(trx, {
            staffId: null,
            ip: null,
            action: 'user.personal_data_erased',
            targetType: 'user',
            targetId: userId,
            before: null,
            after: { documents: documentKeys.length, retention_years: RETENTION_YEARS },
          });
        });
      }
      if (due.length > 0) deps.log.info({ erased: due.length }, 'retention: personal data erased');
      return due.length;
    },
  };
}

export type ClosureService = ReturnType<typeof createClosureService>;
