import type { StaffRole } from '@florin/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB, StaffTable } from '../../db/schema.js';
import { hashToken, randomToken } from '../../security/secret-box.js';

export type StaffRow = Selectable<StaffTable>;

/** What the rules need of a staff row; the views (staff-service.ts) leave out the hash and the secrets. */
const STAFF_COLUMNS = [
  'id',
  'email',
  'role',
  'password_hash',
  'totp_secret_encrypted',
  'totp_last_step',
  'disabled_at',
  'last_sign_in_at',
  'created_at',
] as const;

/** Sign-in challenges and set-password links expire by `clock`, the app's. */
export function createAdminRepository(db: Kysely<DB>, clock: Clock) {
  const findStaffById = (id: number, executor: Kysely<DB> = db) =>
    executor.selectFrom('staff').select(STAFF_COLUMNS).where('id', '=', id).executeTakeFirst();

  return {
    findStaffById,

    findStaffByEmail(email: string) {
      return db
        .selectFrom('staff')
        .select(STAFF_COLUMNS)
        .where(sql<string>`lower(email)`, '=', email.toLowerCase())
        .executeTakeFirst();
    },

    /** The row, locked until the transaction ends: two superadmins changing one member take turns. */
    lockStaff(executor: Kysely<DB>, id: number) {
      return executor
        .selectFrom('staff')
        .select(STAFF_COLUMNS)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    listStaff() {
      return db.selectFrom('staff').select(STAFF_COLUMNS).orderBy('id').execute();
    },

    /** Undefined when the address is taken (the unique index on lower(email) decides, also under a race). */
    async insertStaff(executor: Kysely<DB>, values: { email: string; role: StaffRole }) {
      const inserted = await sql<{ id: number }>`
        INSERT INTO staff (email, role) VALUES (${values.email}, ${values.role})
        ON CONFLICT DO NOTHING
        RETURNING id`.execute(executor);
      const id = inserted.rows[0]?.id;
      return id === undefined ? undefined : findStaffById(id, executor);
    },

    async updateStaff(
      executor: Kysely<DB>,
      id: number,
      values: Partial<Omit<StaffRow, 'id' | 'email' | 'created_at'>>,
    ) {
      await executor.updateTable('staff').set(values).where('id', '=', id).execute();
    },

    /** Makes a 30-second TOTP step used; false when it (or a later one) was used before. */
    async claimTotpStep(staffId: number, step: number): Promise<boolean> {
      const result = await db
        .updateTable('staff')
        .set({ totp_last_step: String(step) })
        .where('id', '=', staffId)
        .where('totp_secret_encrypted', 'is not', null)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    /** Makes the pending secret the member's, unless someone enrolled in between. */
    async enrollTotp(staffId: number, secretEncrypted: string, step: number): Promise<boolean> {
      const result = await db
        .updateTable('staff')
        .set({ totp_secret_encrypted: secretEncrypted, totp_last_step: String(step) })
        .where('id', '=', staffId)
        .where('totp_secret_encrypted', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async createLoginChallenge(
      staffId: number,
      lifetimeSeconds: number,
      pendingSecretEncrypted: string | null,
    ): Promise<string> {
      const token = randomToken();
      await db
        .insertInto('staff_login_challenges')
        .values({
          staff_id: staffId,
          token_hash: hashToken(token),
          pending_totp_secret_encrypted: pendingSecretEncrypted,
          expires_at: new Date(clock.now().getTime() + lifetimeSeconds * 1000),
        })
        .execute();
      return token;
    },

    findLoginChallenge(token: string) {
      return db
        .selectFrom('staff_login_challenges')
        .select(['id', 'staff_id', 'failed_attempts', 'pending_totp_secret_encrypted'])
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', clock.now())
        .executeTakeFirst();
    },

    async failLoginChallenge(id: string): Promise<void> {
      await db
        .updateTable('staff_login_challenges')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },

    async useLoginChallenge(executor: Kysely<DB>, id: string): Promise<boolean> {
      const result = await executor
        .updateTable('staff_login_challenges')
        .set({ used_at: sql`now()` })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    /** A new single-use set-password token; the member's older unused ones stop working. */
    async createPasswordToken(executor: Kysely<DB>, staffId: number, lifetimeHours: number): Promise<string> {
      const token = randomToken();
      await executor
        .updateTable('staff_password_tokens')
        .set({ used_at: sql`now()` })
        .where('staff_id', '=', staffId)
        .where('used_at', 'is', null)
        .execute();
      await executor
        .insertInto('staff_password_tokens')
        .values({
          staff_id: staffId,
          token_hash: hashToken(token),
          expires_at: new Date(clock.now().getTime() + lifetimeHours * 3_600_000),
        })
        .execute();
      return token;
    },

    /** Uses a token once: the row that comes back is the only use it will ever have. */
    consumePasswordToken(executor: Kysely<DB>, token: string) {
      return executor
        .updateTable('staff_password_tokens')
        .set({ used_at: sql`now()` })
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', clock.now())
        .returning(['staff_id'])
        .executeTakeFirst();
    },
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
