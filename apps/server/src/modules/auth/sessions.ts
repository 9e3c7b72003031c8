import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import type { ActiveSession } from '../../http/auth.js';
import { hashToken, randomToken } from '../../security/secret-box.js';

/** The spec's expires_in: one day. The cookie lasts floor(expires_in / 86400) days. */
export const SESSION_LIFETIME_SECONDS = 86_400;
/** A session unused this long is over (DECISIONS.md: idle timeout 30 minutes). */
export const SESSION_IDLE_MINUTES = 30;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_EVERY_SECONDS = 60;

/**
 * A signed-in customer. `terminatedAt`: from then on the account may only
 * withdraw (issue 13); once its access has ended no session is found at all.
 */
export type { ActiveSession };

/**
 * Ends everything that signs the customer in: every session but `exceptSessionId`, and every API
 * token (soft-deleted, as closing the account does). For the security events that end sessions: a
 * password changed or reset, staff signing the customer out or resetting their 2FA, the account
 * closed. A token minted by whoever held the account must not outlive the change that shuts them
 * out. Runs in the caller's transaction when given one; the number of sessions that had not expired.
 */
export async function revokeCustomerAccess(
  executor: Kysely<DB>,
  userId: number,
  exceptSessionId?: string,
): Promise<number> {
  let sessions = executor
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId) sessions = sessions.where('id', '<>', exceptSessionId);
  const ended = await sessions.returning(sql<boolean>`expires_at > now()`.as('was_open')).execute();
  await executor
    .updateTable('api_tokens')
    .set({ deleted_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .execute();
  return ended.filter((session) => session.was_open).length;
}

/** Sessions live and go idle by `clock`, the app's. */
export function createSessionStore(db: Kysely<DB>, clock: Clock) {
  return {
    async create(userId: number, meta: { ip: string; userAgent?: string }) {
      const token = randomToken();
      const csrfToken = randomToken(24);
      const now = clock.now();
      await db
        .insertInto('sessions')
        .values({
          token_hash: hashToken(token),
          user_id: userId,
          csrf_token: csrfToken,
          ip: meta.ip,
          user_agent: meta.userAgent?.slice(0, 500) ?? null,
          last_seen_at: now,
          expires_at: new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000),
        })
        .execute();
      return { token, csrfToken, expiresIn: SESSION_LIFETIME_SECONDS };
    },

    /**
     * The live session for a token: not revoked, not expired, not idle too long. A request the
     * customer made (`isAttended`) keeps it from going idle.
     */
    async find(token: string, { isAttended }: { isAttended: boolean }): Promise<ActiveSession | null> {
      const now = clock.now();
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'sessions.id',
          'sessions.user_id',
          'sessions.csrf_token',
          'sessions.last_seen_at',
          'users.terminated_at',
        ])
        .where('sessions.token_hash', '=', hashToken(token))
        .where('sessions.revoked_at', 'is', null)
        .where((eb) => eb.or([eb('users.access_ends_at', 'is', null), eb('users.access_ends_at', '>', now)]))
        .where('sessions.expires_at', '>', now)
        .where('sessions.last_seen_at', '>', new Date(now.getTime() - SESSION_IDLE_MINUTES * 60_000))
        .executeTakeFirst();
      if (!row) return null;
      if (isAttended && now.getTime() - row.last_seen_at.getTime() > TOUCH_EVERY_SECONDS * 1000) {
        await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
      }
      return { id: row.id, userId: row.user_id, csrfToken: row.csrf_token, terminatedAt: row.terminated_at };
    },

    async revoke(sessionId: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ revoked_at: sql`now()` })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /**
     * After a password change or reset: every session of the user ends, but the one making the
     * change, and every API token is deleted (revokeCustomerAccess).
     */
    async revokeAllForUser(userId: number, exceptSessionId?: string): Promise<void> {
      await revokeCustomerAccess(db, userId, exceptSessionId);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
