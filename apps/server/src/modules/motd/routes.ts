import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  AppError,
  createAdminMotd,
  deleteAdminMotd,
  getMotd,
  listAdminMotds,
  type AdminMotd,
} from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import { registerRoute } from '../../http/route.js';
import { auditActorOf, recordAudit } from '../audit/service.js';
import type { Clock } from '../../clock.js';

/** Who writes messages of the day (a superadmin always may). */
const MOTD_WRITERS = { staff: ['support'] as const };
/** The most messages the back office lists: they are few, and old ones stop mattering. */
const ADMIN_LIST_LIMIT = 100;

/**
 * The message of the day: staff schedule a short message with the window it
 * shows in; signed-in customers see the one showing now (the newest to start,
 * when windows overlap) as a toast.
 */
export function registerMotdRoutes(app: FastifyInstance, deps: { db: Kysely<DB>; clock: Clock }): void {
  const { db } = deps;
  const now = () => deps.clock.now();

  registerRoute(app, getMotd, {
    access: 'customer',
    handler: async () => {
      const at = now();
      const row = await db
        .selectFrom('motd')
        .select(['id', 'message'])
        .where('starts_at', '<=', at)
        .where('ends_at', '>', at)
        .orderBy('starts_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return { data: row ? { id: String(row.id), message: row.message } : null };
    },
  });

  const toAdmin = (row: {
    id: string;
    message: string;
    starts_at: Date;
    ends_at: Date;
    created_at: Date;
    created_by: string;
  }): AdminMotd => ({
    id: String(row.id),
    message: row.message,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    created_at: row.created_at.toISOString(),
    created_by: row.created_by,
  });

  const selectAdmin = (executor: Kysely<DB>) =>
    executor
      .selectFrom('motd')
      .innerJoin('staff', 'staff.id', 'motd.created_by_staff_id')
      .select([
        'motd.id',
        'motd.message',
        'motd.starts_at',
        'motd.ends_at',
        'motd.created_at',
        'staff.email as created_by',
      ]);

  registerRoute(app, listAdminMotds, {
    access: MOTD_WRITERS,
    handler: async () => {
      const rows = await selectAdmin(db).orderBy('motd.starts_at', 'desc').limit(ADMIN_LIST_LIMIT).execute();
      return { data: rows.map(toAdmin) };
    },
  });

  registerRoute(app, createAdminMotd, {
    access: MOTD_WRITERS,
    handler: async (request, reply) => {
      const actor = auditActorOf(request);
      const created = await db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('motd')
          .values({
            message: request.body.message,
            starts_at: new Date(request.body.starts_at),
            ends_at: new Date(request.body.ends_at),
            created_by_staff_id: actor.staffId!,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const row = await selectAdmin(trx).where('motd.id', '=', id).executeTakeFirstOrThrow();
        await recordAudit(trx, {
          ...actor,
          action: 'motd.created',
          targetType: 'motd',
          targetId: String(id),
          before: null,
          after: toAdmin(row),
        });
        return row;
      });
      reply.code(201);
      return toAdmin(created);
    },
  });

  registerRoute(app, deleteAdminMotd, {
    access: MOTD_WRITERS,
    handler: async (request, reply) => {
      const actor = auditActorOf(request);
      await db.transaction().execute(async (trx) => {
        const row = await selectAdmin(trx).where('motd.id', '=', request.params.id).executeTakeFirst();
        if (!row) throw new AppError('NOT_FOUND');
        await trx.deleteFrom('motd').where('id', '=', request.params.id).execute();
        await recordAudit(trx, {
          ...actor,
          action: 'motd.deleted',
          targetType: 'motd',
          targetId: request.params.id,
          before: toAdmin(row),
          after: null,
        });
      });
      reply.code(204);
      return null;
    },
  });
}
