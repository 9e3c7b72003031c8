import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import { withTransaction } from '../../db/index.js';
import type { DB, EmailTokenPurpose, UsersTable, RowOf } from '../../db/schema.js';
import { hashToken, randomToken } from '../../security/secret-box.js';

export type UserRow = RowOf<UsersTable>;
type Executor = Kysely<DB> | Transaction<DB>;

/** No 0/O, 1/I/L: a reference a person reads out to their bank without mistakes. */
const IDENTIFICATION_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const REFERRAL_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function randomFrom(alphabet: string, length: number): string {
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/** FL + 8 characters: unique, and short enough for a Faster Payments reference (18). */
export function newUserIdentification(): string {
  return `FL${randomFrom(IDENTIFICATION_ALPHABET, 8)}`;
}

/** Ends the user's unused e-mail tokens of a purpose. */
async function voidEmailTokens(
  executor: Executor,
  userId: number,
  purpose: EmailTokenPurpose,
): Promise<void> {
  await executor
    .updateTable('email_tokens')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** E-mailed links and sign-in challenges expire, and security changes are stamped, by `clock`, the app's. */
export function createAuthRepository(db: Kysely<DB>, clock: Clock) {
  return {
    /** Runs `work` in one transaction: a change to the account and the mail about it commit together. */
    transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    findUserByEmail(email: string, executor: Executor = db) {
      return executor
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(email)`, '=', email.toLowerCase())
        .executeTakeFirst();
    },

    findUserById(id: number, executor: Executor = db) {
      return executor.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findUserIdByReferralCode(code: string) {
      return db
        .selectFrom('users')
        .select('id')
        .where('referral_code', '=', code.toLowerCase())
        .executeTakeFirst();
    },

    /** Retries the rare clash of a random identification or referral code. */
    async insertUser(values: {
      first_name: string;
      last_name: string;
      email: string;
      password_hash: string;
      referred_by_user_id: number | null;
    }): Promise<UserRow> {
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await db
            .insertInto('users')
            .values({
              ...values,
              user_identification: newUserIdentification(),
              referral_code: randomFrom(REFERRAL_ALPHABET, 8),
            })
            .returningAll()
            .executeTakeFirstOrThrow();
        } catch (error) {
          const constraint = (error as { constraint?: string }).constraint ?? '';
          const clash = /users_(user_identification|referral_code)_key/.test(constraint);
          if (!clash || attempt >= 5) throw error;
        }
      }
    },

    updateUser(id: number, values: Partial<Omit<UserRow, 'id' | 'created_at'>>, executor: Executor = db) {
      return executor.updateTable('users').set(values).where('id', '=', id).execute();
    },

    /** Makes a 30-second TOTP step used; false when it (or a later one) was used before. */
    /**
     * Turns on the authenticator set up with `pendingSecret`, claiming `step` as used; false when it
     * is already on or the setup changed meanwhile (a concurrent request with the same code won).
     */
    async enableTwoFactor(
      userId: number,
      pendingSecret: string,
      step: number,
      executor: Executor = db,
    ): Promise<boolean> {
      const result = await executor
        .updateTable('users')
        .set({
          totp_secret_encrypted: pendingSecret,
          totp_pending_secret_encrypted: null,
          totp_last_step: String(step),
          security_changed_at: clock.now(),
        })
        .where('id', '=', userId)
        .where('totp_secret_encrypted', 'is', null)
        .where('totp_pending_secret_encrypted', '=', pendingSecret)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async claimTotpStep(userId: number, step: number): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ totp_last_step: String(step) })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    /**
     * A new single-use e-mail token. The user's older unused ones of that purpose stop working, except
     * password reset links: mails can arrive out of order, so every link of the hour works until one is used.
     */
    async createEmailToken(
      userId: number,
      purpose: EmailTokenPurpose,
      lifetimeMinutes: number,
      newEmail: string | null = null,
      executor: Kysely<DB> = db,
    ): Promise<string> {
      const token = randomToken();
      await withTransaction(executor, async (trx) => {
        if (purpose !== 'password_reset') await voidEmailTokens(trx, userId, purpose);
        await trx
          .insertInto('email_tokens')
          .values({
            user_id: userId,
            purpose,
            token_hash: hashToken(token),
            new_email: newEmail,
            expires_at: new Date(clock.now().getTime() + lifetimeMinutes * 60_000),
          })
          .execute();
      });
      return token;
    },

    voidEmailTokens: (userId: number, purpose: EmailTokenPurpose, executor: Executor = db) =>
      voidEmailTokens(executor, userId, purpose),

    /** Uses a token once: the row that comes back is the only use it will ever have. */
    consumeEmailToken(token: string, purpose: EmailTokenPurpose, executor: Executor = db) {
      return executor
        .updateTable('email_tokens')
        .set({ used_at: sql`now()` })
        .where('token_hash', '=', hashToken(token))
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', clock.now())
        .returning(['user_id', 'new_email'])
        .executeTakeFirst();
    },

    findLiveEmailToken(token: string, purpose: EmailTokenPurpose) {
      return db
        .selectFrom('email_tokens')
        .select(['user_id', 'new_email'])
        .where('token_hash', '=', hashToken(token))
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', clock.now())
        .executeTakeFirst();
    },

    /** Whether the account has had a session from this address: its sessions keep the address they began at. */
    async hasSignedInFrom(userId: number, ip: string): Promise<boolean> {
      const row = await db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('ip', '=', ip)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async createLoginChallenge(
      userId: number,
      lifetimeSeconds: number,
    ): Promise<{ id: string; token: string }> {
      const token = randomToken();
      const row = await db
        .insertInto('login_challenges')
        .values({
          user_id: userId,
          token_hash: hashToken(token),
          expires_at: new Date(clock.now().getTime() + lifetimeSeconds * 1000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: String(row.id), token };
    },

    findLoginChallenge(token: string) {
      return db
        .selectFrom('login_challenges')
        .select(['id', 'user_id', 'failed_attempts'])
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', clock.now())
        .executeTakeFirst();
    },

    async failLoginChallenge(id: string): Promise<void> {
      await db
        .updateTable('login_challenges')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },

    async useLoginChallenge(id: string): Promise<boolean> {
      const result = await db
        .updateTable('login_challenges')
        .set({ used_at: sql`now()` })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async replaceRecoveryCodes(userId: number, codes: string[], executor: Kysely<DB> = db): Promise<void> {
      await withTransaction(executor, async (trx) => {
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        if (codes.length > 0) {
          await trx
            .insertInto('recovery_codes')
            .values(codes.map((code) => ({ user_id: userId, code_hash: hashToken(code.toLowerCase()) })))
            .execute();
        }
      });
    },

    async useRecoveryCode(userId: number, code: string): Promise<boolean> {
      const result = await db
        .updateTable('recovery_codes')
        .set({ used_at: sql`now()` })
        .where('user_id', '=', userId)
        .where('code_hash', '=', hashToken(code.toLowerCase()))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async countRecoveryCodesLeft(userId: number): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<string>().as('left'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.left);
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;

export function newRecoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `${randomFrom(alphabet, 5)}-${randomFrom(alphabet, 5)}`;
}
