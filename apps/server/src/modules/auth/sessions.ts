import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { createKeyedCache, NO_CACHE_SIGNALS, type CacheSignals } from '../../db/cached-read.js';
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
 * How long an instance may answer from a session's row it read (decision 133). Revocation does not
 * wait for it: the NOTIFY drops the row on every instance at commit.
 */
export const SESSION_CACHE_SECONDS = 5;

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

/** What a session's lookup answers from; the clock's checks run on it every request (isOpen). */
type SessionRow = {
  id: string;
  user_id: number;
  csrf_token: string;
  last_seen_at: Date;
  expires_at: Date;
  terminated_at: Date | null;
  access_ends_at: Date | null;
};

function isOpen(row: SessionRow, now: Date): boolean {
  return (
    row.expires_at > now &&
    row.last_seen_at.getTime() > now.getTime() - SESSION_IDLE_MINUTES * 60_000 &&
    (row.access_ends_at === null || row.access_ends_at > now)
  );
}

function isDueATouch(row: SessionRow, now: Date): boolean {
  return now.getTime() - row.last_seen_at.getTime() > TOUCH_EVERY_SECONDS * 1000;
}

/**
 * Sessions live and go idle by `clock`, the app's. `signals`: the cache triggers' NOTIFY (decision
 * 133); without them every lookup reads the database.
 */
export function createSessionStore(db: Kysely<DB>, clock: Clock, signals: CacheSignals = NO_CACHE_SIGNALS) {
  const cache = createKeyedCache<string, SessionRow | undefined>({
    maxAgeMs: SESSION_CACHE_SECONDS * 1000,
    signals,
    dropsOn: (topic, _tokenHash, row) => row !== undefined && topic === `session:${row.user_id}`,
  });

  /** The session's row unless revoked; the times are judged by isOpen. */
  function readSession(tokenHash: string): Promise<SessionRow | undefined> {
    return db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id',
        'sessions.user_id',
        'sessions.csrf_token',
        'sessions.last_seen_at',
        'sessions.expires_at',
        'users.terminated_at',
        'users.access_ends_at',
      ])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.revoked_at', 'is', null)
      .executeTakeFirst();
  }

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
     * customer made (`isAttended`) keeps it from going idle. The row may come from the cache (kept
     * SESSION_CACHE_SECONDS, dropped on every instance when it is revoked); expiry and idleness are
     * judged against the clock on every request, and a row that looks idle or due a touch is read
     * again, as another instance may have touched it.
     */
    async find(token: string, { isAttended }: { isAttended: boolean }): Promise<ActiveSession | null> {
      const now = clock.now();
      const tokenHash = hashToken(token);
      let row = await cache.get(
        tokenHash,
        () => readSession(tokenHash),
        (found) => found !== undefined,
      );
      if (row && (!isOpen(row, now) || (isAttended && isDueATouch(row, now)))) {
        cache.forget(tokenHash);
        row = await readSession(tokenHash);
      }
      if (!row || !isOpen(row, now)) return null;
      if (isAttended && isDueATouch(row, now)) {
        await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
      }
      return { id: row.id, userId: row.user_id, csrfToken: row.csrf_token, terminatedAt: row.terminated_at };
    },

    async revoke(sessionId: string): Promise<void> {
      const revoked = await db
        .updateTable('sessions')
        .set({ revoked_at: sql`now()` })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .returning('user_id')
        .executeTakeFirst();
      // The trigger's NOTIFY reaches this instance too, but a beat after the commit: drop it now.
      if (revoked) cache.drop(`session:${revoked.user_id}`);
    },

    /**
     * After a password change or reset: every session of the user ends, but the one making the
     * change, and every API token is deleted (revokeCustomerAccess).
     */
    async revokeAllForUser(
      userId: number,
      exceptSessionId?: string,
      executor: Kysely<DB> = db,
    ): Promise<void> {
      await revokeCustomerAccess(executor, userId, exceptSessionId);
      // Not waiting for the trigger's NOTIFY here (in a transaction it comes at the commit).
      cache.drop(`session:${userId}`);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
