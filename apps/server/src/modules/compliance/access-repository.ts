import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { revokeCustomerAccess, SESSION_IDLE_MINUTES } from '../auth/service.js';

/** The customer's ways in that staff may reset or end: recovery codes, two-factor and sessions. */
export function createComplianceAccessRepository(db: Kysely<DB>) {
  return {
    async countRecoveryCodesLeft(userId: number, executor: Kysely<DB> = db): Promise<number> {
      const row = await executor
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<string>().as('left'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.left);
    },

    async deleteRecoveryCodes(executor: Kysely<DB>, userId: number): Promise<void> {
      await executor.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    },

    /** `resetAt` starts the withdrawals' wait. */
    async clearTwoFactor(executor: Kysely<DB>, userId: number, resetAt: Date): Promise<void> {
      await executor
        .updateTable('users')
        .set({
          totp_secret_encrypted: null,
          totp_pending_secret_encrypted: null,
          totp_last_step: null,
          two_factor_reset_at: resetAt,
        })
        .where('id', '=', userId)
        .execute();
    },

    /** Sessions that still let someone in at `now`: not revoked, not expired, not idle too long. */
    listActiveSessions(userId: number, now: Date, executor: Kysely<DB> = db) {
      return executor
        .selectFrom('sessions')
        .select(['id', 'ip', 'user_agent', 'created_at', 'last_seen_at', 'expires_at'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', new Date(now.getTime() - SESSION_IDLE_MINUTES * 60_000))
        .orderBy('last_seen_at', 'desc')
        .execute();
    },

    /** Ends every session of the customer and deletes their API tokens; the number of sessions still open. */
    revokeSessions(executor: Kysely<DB>, userId: number): Promise<number> {
      return revokeCustomerAccess(executor, userId);
    },
  };
}
