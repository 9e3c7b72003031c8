import { randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { EMAILED_CODE_MINUTES } from '@florin/contracts';
import type { Clock } from '../clock.js';
import type { DB } from '../db/schema.js';
import { hmacHex, safeEqual } from './secret-box.js';

/** Wrong tries before an e-mailed code stops working. */
export const EMAILED_CODE_MAX_ATTEMPTS = 5;

export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'none';

export type EmailedCodes = ReturnType<typeof createEmailedCodes>;

/**
 * Six-digit codes mailed to a customer for one purpose: a withdrawal's second
 * factor, or one object's confirmation ("crypto_withdrawal:12",
 * "wallet_removal:7"), so a code never works for another. Stored as an HMAC
 * under a key of their own (a leaked table does not reveal them); a new code
 * replaces the open one; right once, or dead after five wrong tries or ten
 * minutes of the app's clock.
 */
export function createEmailedCodes(deps: { db: Kysely<DB>; key: string; clock: Clock }) {
  const { db, clock } = deps;
  const hash = (userId: number, purpose: string, code: string) =>
    hmacHex(deps.key, `${userId}:${purpose}:${code}`);

  return {
    /** A fresh code for the purpose (the caller mails it); the purpose's older open codes stop working. */
    async issue(executor: Kysely<DB>, userId: number, purpose: string): Promise<string> {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const now = clock.now();
      await executor
        .updateTable('withdrawal_codes')
        .set({ used_at: sql<Date>`now()` })
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .execute();
      await executor
        .insertInto('withdrawal_codes')
        .values({
          user_id: userId,
          purpose,
          code_hash: hash(userId, purpose, code),
          expires_at: new Date(now.getTime() + EMAILED_CODE_MINUTES * 60_000),
        })
        .execute();
      return code;
    },

    /**
     * Checks a code in its own transaction, so a wrong try counts even when
     * the caller then fails. The open code is locked: of concurrent right
     * tries exactly one gets 'ok'.
     */
    async check(userId: number, purpose: string, code: string): Promise<CodeCheck> {
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const open = await trx
          .selectFrom('withdrawal_codes')
          .select(['id', 'code_hash', 'expires_at'])
          .where('user_id', '=', userId)
          .where('purpose', '=', purpose)
          .where('used_at', 'is', null)
          .orderBy('id', 'desc')
          .forUpdate()
          .executeTakeFirst();
        if (!open) {
          // A code killed by its wrong tries is as good as expired: only a new one helps.
          const last = await trx
            .selectFrom('withdrawal_codes')
            .select('failed_attempts')
            .where('user_id', '=', userId)
            .where('purpose', '=', purpose)
            .orderBy('id', 'desc')
            .executeTakeFirst();
          return last && last.failed_attempts >= EMAILED_CODE_MAX_ATTEMPTS ? 'expired' : 'none';
        }
        if (open.expires_at <= now) return 'expired';
        if (!safeEqual(open.code_hash, hash(userId, purpose, code))) {
          await trx
            .updateTable('withdrawal_codes')
            .set((eb) => ({
              failed_attempts: eb('failed_attempts', '+', 1),
              used_at: sql<Date | null>`CASE WHEN failed_attempts + 1 >= ${EMAILED_CODE_MAX_ATTEMPTS} THEN now() ELSE NULL END`,
            }))
            .where('id', '=', open.id)
            .execute();
          return 'wrong';
        }
        await trx
          .updateTable('withdrawal_codes')
          .set({ used_at: sql<Date>`now()` })
          .where('id', '=', open.id)
          .execute();
        return 'ok';
      });
    },
  };
}
