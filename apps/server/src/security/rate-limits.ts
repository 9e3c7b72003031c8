import { sql, type Kysely } from 'kysely';
import { AppError, RATE_LIMIT_TEXTS, waitUntilText } from '@florin/contracts';
import type { DB } from '../db/schema.js';

/** An abuse limit: at most `max` counted events per key in a sliding window. */
export type Limit = { name: string; max: number; windowMinutes: number };

/** Limits on the identity routes and on second factors, per account and per IP (issue 3). */
export const LIMITS = {
  loginPerIp: { name: 'login:ip', max: 30, windowMinutes: 10 },
  loginFailuresPerAccount: { name: 'login:account', max: 5, windowMinutes: 15 },
  /** From an address the account has signed in from before: counted apart, so strangers cannot lock the owner out. */
  loginFailuresPerKnownAddress: { name: 'login:account-address', max: 5, windowMinutes: 15 },
  twoFactorFailuresPerUser: { name: '2fa:user', max: 5, windowMinutes: 15 },
  twoFactorFailuresPerKnownAddress: { name: '2fa:user-address', max: 5, windowMinutes: 15 },
  /** Turning 2FA on or off, signed in: apart from sign-in's codes, so neither count clears or fills the other. */
  twoFactorToggleFailuresPerUser: { name: '2fa-toggle:user', max: 5, windowMinutes: 15 },
  registerPerIp: { name: 'register:ip', max: 10, windowMinutes: 60 },
  resendPerUser: { name: 'resend:user', max: 3, windowMinutes: 60 },
  resendPerIp: { name: 'resend:ip', max: 10, windowMinutes: 60 },
  resetRequestsPerEmail: { name: 'reset:email', max: 3, windowMinutes: 60 },
  resetRequestsPerIp: { name: 'reset:ip', max: 10, windowMinutes: 60 },
  resetAttemptsPerIp: { name: 'reset-submit:ip', max: 10, windowMinutes: 60 },
  passwordChangeFailuresPerUser: { name: 'password:user', max: 5, windowMinutes: 15 },
  /**
   * The code a money route (withdrawals, claims, auto-trades) or a whitelist change asks for, signed
   * in: per customer from every address, apart from sign-in's and the toggle's codes.
   */
  secondFactorFailuresPerUser: { name: 'second-factor:user', max: 5, windowMinutes: 15 },
  /** New e-mailed codes for one crypto withdrawal, counted over longer than the request can wait for one. */
  withdrawalCodeResends: { name: 'withdrawal-code-resend:withdrawal', max: 5, windowMinutes: 24 * 60 },
} as const satisfies Record<string, Limit>;

/**
 * Names the moment a retry works, as the page's alert does: the window's length overstates
 * the wait once the oldest counted event is part-way through it. `retry_after` (seconds to
 * the same moment) becomes the answer's Retry-After header.
 */
function tooMany(freeAt: Date, retryAfterSeconds: number): AppError {
  const { tooManyAttempts, tryAgainFrom } = RATE_LIMIT_TEXTS;
  return new AppError(
    'RATE_LIMITED',
    waitUntilText(`${tooManyAttempts} ${tryAgainFrom}`, freeAt),
    undefined,
    { retry_after: retryAfterSeconds },
  );
}

/** The events a key has in its window, and when a retry works (null when there are none). */
type WindowState = { count: number; free_at: Date | null; seconds: number | null };

/**
 * Counts in the database so several instances share one count. `take`
 * counts one more event or refuses once the window is full; `clear` forgets
 * a key's events (the right password ends a run of failures).
 */
export function createRateLimiter(db: Kysely<DB>, options: { enabled: boolean } = { enabled: true }) {
  /*
   * One read for the count and the wait, on the database's clock. The wait ends on the whole
   * minute after the oldest counted event leaves the window: the message names minutes, and
   * a retry at the minute it names must work.
   */
  const windowOf = async (executor: Kysely<DB>, limit: Limit, key: string): Promise<WindowState> => {
    const span = sql`make_interval(mins => ${limit.windowMinutes})`;
    const row = await sql<WindowState>`
      SELECT count, free_at, ceil(extract(epoch FROM free_at - now()))::int AS seconds
      FROM (
        SELECT count(*)::int AS count, to_timestamp(ceil(extract(epoch FROM min(at) + ${span}) / 60) * 60) AS free_at
        FROM rate_limit_hits
        WHERE key = ${key} AND at > now() - ${span}
      ) AS counted`.execute(executor);
    return row.rows[0] ?? { count: 0, free_at: null, seconds: null };
  };
  return {
    /**
     * Counts and records under a lock on the key: of many concurrent attempts
     * exactly `max` get through (counted and then recorded apart, all of them
     * could pass the count first, as the brute-force test found).
     */
    async take(limit: Limit, subject: string): Promise<void> {
      const key = `${limit.name}:${subject}`;
      await db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
        // ABUSE_LIMITS=off (never in production): nothing is ever over its limit.
        if (options.enabled) {
          const { count, free_at, seconds } = await windowOf(trx, limit, key);
          if (count >= limit.max && free_at) throw tooMany(new Date(free_at), Math.max(1, seconds ?? 1));
        }
        await trx.insertInto('rate_limit_hits').values({ key }).execute();
      });
    },
    async clear(limit: Limit, subject: string): Promise<void> {
      await db.deleteFrom('rate_limit_hits').where('key', '=', `${limit.name}:${subject}`).execute();
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
