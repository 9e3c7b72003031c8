import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AUDIT_LOG_PAGE_SIZE, listAuditLog, type AuditEntry, type Page } from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import { createAuditRepository, insertAuditRow, type AuditFilter } from './repository.js';

/** Who acted, and from where: the signed-in staff member (null for the system) and the client address. */
export type AuditActor = { staffId: number | null; ip: string | null };

/** What Florin does by itself (a screening, a rule), not at anyone's request. */
export const SYSTEM_ACTOR: AuditActor = { staffId: null, ip: null };

export type AuditRecord = AuditActor & {
  /** `<area>.<verb in the past>`, e.g. staff.created, staff.role_changed, kyc.document_declined. */
  action: string;
  /** What was acted on: staff, user, kyc_document, … */
  targetType: string;
  targetId: string | number | null;
  /** The target's relevant state before and after; never secrets (hashes, 2FA secrets, tokens). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

/** bigint amounts as strings: JSON has no integers that large. */
function toJson(value: Record<string, unknown> | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

/**
 * Writes one audit row. Call it with the transaction that makes the change,
 * so the change and its record commit or roll back together:
 *
 *   await db.transaction().execute(async (trx) => {
 *     await trx.updateTable('users').set({ status: CUSTOMER_STATUS.live }).where('id', '=', userId).execute();
 *     await recordAudit(trx, { ...actor, action: 'user.made_live', targetType: 'user', targetId: userId,
 *       before: { status: CUSTOMER_STATUS.notLive }, after: { status: CUSTOMER_STATUS.live } });
 *   });
 *
 * The table refuses UPDATE, DELETE and TRUNCATE (migration 0007).
 */
export async function recordAudit(executor: Kysely<DB>, record: AuditRecord): Promise<void> {
  await insertAuditRow(executor, {
    staff_id: record.staffId,
    action: record.action,
    target_type: record.targetType,
    target_id: record.targetId === null ? null : String(record.targetId),
    before: toJson(record.before),
    after: toJson(record.after),
    ip: record.ip,
  });
}

/** The actor of a back-office request: its staff member (if signed in) and client address. */
export function auditActorOf(request: FastifyRequest): AuditActor {
  return { staffId: request.staff?.staffId ?? null, ip: request.ip };
}

function pageUrl(filter: AuditFilter, page: number): string {
  const search = new URLSearchParams({ page: String(page) });
  if (filter.targetType) search.set('target_type', filter.targetType);
  if (filter.targetId) search.set('target_id', filter.targetId);
  if (filter.staffId) search.set('staff_id', String(filter.staffId));
  return `${listAuditLog.path}?${search.toString()}`;
}

export function createAuditService(db: Kysely<DB>) {
  const repository = createAuditRepository(db);
  return {
    async list(filter: AuditFilter, page: number): Promise<Page<AuditEntry>> {
      const total = await repository.count(filter);
      const lastPage = Math.max(1, Math.ceil(total / AUDIT_LOG_PAGE_SIZE));
      const rows = await repository.listPage(filter, AUDIT_LOG_PAGE_SIZE, (page - 1) * AUDIT_LOG_PAGE_SIZE);
      return {
        data: rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })),
        current_page: page,
        last_page: lastPage,
        per_page: AUDIT_LOG_PAGE_SIZE,
        total,
        next_page_url: page < lastPage ? pageUrl(filter, page + 1) : null,
        prev_page_url: page > 1 ? pageUrl(filter, Math.min(page - 1, lastPage)) : null,
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
