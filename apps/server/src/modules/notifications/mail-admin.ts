import type { Kysely } from 'kysely';
import { AppError, MAIL_TEXTS, listFailedMail, type AdminMail, type Page } from '@florin/contracts';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import { readPage } from '../../http/pages.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { createOutboxRepository, type OutboxRow } from './outbox-repository.js';

function toAdminMail(row: OutboxRow): AdminMail {
  return {
    id: row.id,
    user_id: row.user_id,
    event: row.event,
    to: row.to_address,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    sent_at: row.sent_at === null ? null : row.sent_at.toISOString(),
  };
}

export type MailAdmin = ReturnType<typeof createMailAdmin>;

/** What staff do with the outbox: read the mail that failed every attempt, and send one again. */
export function createMailAdmin(deps: { db: Kysely<DB>; clock: Clock }) {
  const { db } = deps;
  const repository = createOutboxRepository(db);
  return {
    listFailed(page: number): Promise<Page<AdminMail>> {
      return readPage({
        page,
        path: listFailedMail.path,
        count: () => repository.countFailed(),
        list: (limit, offset) => repository.listFailed(limit, offset),
        toItem: toAdminMail,
      });
    },

    /** Back to pending with a fresh set of attempts, due now: the sender sends it on its next run. */
    async resend(id: string, actor: AuditActor): Promise<{ data: AdminMail; message: string }> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await repository.lock(trx, id);
        if (!before) throw new AppError('NOT_FOUND');
        if (before.status !== 'failed') throw new AppError('CONFLICT', MAIL_TEXTS.notFailed);
        const after = await repository.requeue(trx, id, deps.clock.now());
        await recordAudit(trx, {
          ...actor,
          action: 'mail.resent',
          targetType: 'mail',
          targetId: id,
          before: { status: before.status, attempts: before.attempts, last_error: before.last_error },
          after: { status: after.status, attempts: after.attempts },
        });
        return after;
      });
      return { data: toAdminMail(row), message: MAIL_TEXTS.resent };
    },
  };
}
