import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import type { StaffSession } from '../../http/auth.js';
import { hashToken, randomToken } from '../../security/secret-box.js';

/** A staff session ends 8 hours after sign-in, whatever happens (a working day). */
export const STAFF_SESSION_LIFETIME_SECONDS = 8 * 60 * 60;
/** …and after 15 minutes without a request: back-office screens must not stay open on an empty desk. */
export const STAFF_SESSION_IDLE_MINUTES = 15;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_EVERY_SECONDS = 60;

/** The signed-in staff member of a request (`request.staff`). The role is read afresh on every request. */
export type { StaffSession };

/** Staff sessions live and go idle by `clock`, the app's. */
export function createStaffSessionStore(db: Kysely<DB>, clock: Clock) {
  return {
    async create(staffId: number, meta: { ip: string; userAgent?: string }, executor: Kysely<DB> = db) {
      const token = randomToken();
      const csrfToken = randomToken(24);
      const now = clock.now();
      await executor
        .insertInto('staff_sessions')
        .values({
          token_hash: hashToken(token),
          staff_id: staffId,
          csrf_token: csrfToken,
          ip: meta.ip,
          user_agent: meta.userAgent?.slice(0, 500) ?? null,
          last_seen_at: now,
          expires_at: new Date(now.getTime() + STAFF_SESSION_LIFETIME_SECONDS * 1000),
        })
        .execute();
      return { token, csrfToken, expiresIn: STAFF_SESSION_LIFETIME_SECONDS };
    },

    /**
     * The live session for a token: not revoked, not expired, not idle too long, its staff member not
     * disabled. A request the member made (`isAttended`) keeps it from going idle.
     */
    async find(token: string, { isAttended }: { isAttended: boolean }): Promise<StaffSession | null> {
      const now = clock.now();
      const row = await db
        .selectFrom('staff_sessions')
        .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
        .select([
          'staff_sessions.id',
          'staff_sessions.staff_id',
          'staff_sessions.csrf_token',
          'staff_sessions.last_seen_at',
          'staff.email',
          'staff.role',
        ])
        .where('staff_sessions.token_hash', '=', hashToken(token))
        .where('staff_sessions.revoked_at', 'is', null)
        .where('staff_sessions.expires_at', '>', now)
        .where(
          'staff_sessions.last_seen_at',
          '>',
          new Date(now.getTime() - STAFF_SESSION_IDLE_MINUTES * 60_000),
        )
        .where('staff.disabled_at', 'is', null)
        .executeTakeFirst();
      if (!row) return null;
      if (isAttended && now.getTime() - row.last_seen_at.getTime() > TOUCH_EVERY_SECONDS * 1000) {
        await db.updateTable('staff_sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
      }
      return {
        sessionId: row.id,
        staffId: row.staff_id,
        email: row.email,
        role: row.role,
        csrfToken: row.csrf_token,
      };
    },

    async revoke(sessionId: string, executor: Kysely<DB> = db): Promise<void> {
      await executor
        .updateTable('staff_sessions')
        .set({ revoked_at: sql`now()` })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /** Disabling, a 2FA reset or a new password: every session of the member ends. */
    async revokeAllForStaff(staffId: number, executor: Kysely<DB> = db): Promise<void> {
      await executor
        .updateTable('staff_sessions')
        .set({ revoked_at: sql`now()` })
        .where('staff_id', '=', staffId)
        .where('revoked_at', 'is', null)
        .execute();
    },
  };
}

export type StaffSessionStore = ReturnType<typeof createStaffSessionStore>;
