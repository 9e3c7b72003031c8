import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export type AuditFilter = { targetType?: string; targetId?: string; staffId?: number };

export type NewAuditRow = {
  staff_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: string | null;
  after: string | null;
  ip: string | null;
};

export function insertAuditRow(executor: Kysely<DB>, row: NewAuditRow): Promise<unknown> {
  return executor.insertInto('audit_log').values(row).execute();
}

export function createAuditRepository(db: Kysely<DB>) {
  const filtered = (filter: AuditFilter) => {
    let query = db.selectFrom('audit_log');
    if (filter.targetType) query = query.where('audit_log.target_type', '=', filter.targetType);
    if (filter.targetId) query = query.where('audit_log.target_id', '=', filter.targetId);
    if (filter.staffId) query = query.where('audit_log.staff_id', '=', filter.staffId);
    return query;
  };

  return {
    async count(filter: AuditFilter): Promise<number> {
      const row = await filtered(filter)
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },

    /** Newest first; the id breaks ties between rows of one transaction (same created_at). */
    listPage(filter: AuditFilter, limit: number, offset: number) {
      return filtered(filter)
        .leftJoin('staff', 'staff.id', 'audit_log.staff_id')
        .select([
          'audit_log.id',
          'audit_log.staff_id',
          'staff.email as staff_email',
          'audit_log.action',
          'audit_log.target_type',
          'audit_log.target_id',
          'audit_log.before',
          'audit_log.after',
          'audit_log.ip',
          'audit_log.created_at',
        ])
        .orderBy('audit_log.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
