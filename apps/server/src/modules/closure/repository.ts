import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { revokeCustomerAccess } from '../auth/service.js';

export function createClosureRepository(db: Kysely<DB>) {
  return {
    /** The customer row, locked for the rest of the transaction. */
    lockCustomer(trx: Kysely<DB>, userId: number) {
      return trx
        .selectFrom('users')
        .select([
          'id',
          'email',
          'first_name',
          'password_hash',
          'termination_notice_at',
          'terminated_at',
          'access_ends_at',
          'termination_reason',
          'legal_hold_reason',
          'login_notifications',
          'loginout_notifications',
          'marketing_notifications',
          'trade_notifications',
        ])
        .where('id', '=', userId)
        .forUpdate()
        .executeTakeFirst();
    },

    /** Whether any of the customer's ledger accounts holds or reserves anything (LEDGER.md: posted and held). */
    async holdsAnything(trx: Kysely<DB>, userId: number): Promise<boolean> {
      const row = await trx
        .selectFrom('accounts')
        .select('id')
        .where('owner_user_id', '=', String(userId))
        .where((eb) => eb.or([eb('posted', '<>', '0'), eb('held', '<>', '0')]))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async setTermination(
      trx: Kysely<DB>,
      userId: number,
      values: {
        termination_notice_at: Date | null;
        terminated_at: Date;
        access_ends_at: Date;
        terminated_by: 'firm' | 'customer';
        termination_reason: string | null;
      },
    ): Promise<void> {
      await trx.updateTable('users').set(values).where('id', '=', userId).execute();
    },

    /** Every session ends and every API token is deleted. */
    async revokeSessions(trx: Kysely<DB>, userId: number): Promise<void> {
      await revokeCustomerAccess(trx, userId);
    },

    async setLegalHold(trx: Kysely<DB>, userId: number, reason: string | null): Promise<void> {
      await trx.updateTable('users').set({ legal_hold_reason: reason }).where('id', '=', userId).execute();
    },

    /** Accounts whose retention period ended before `before`, not on legal hold, not erased yet. */
    async listDueForErasure(before: Date, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('users')
        .select('id')
        .where('access_ends_at', '<', before)
        .where('legal_hold_reason', 'is', null)
        .where('personal_data_erased_at', 'is', null)
        .orderBy('access_ends_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    async documentKeys(trx: Kysely<DB>, userId: number): Promise<string[]> {
      const rows = await trx
        .selectFrom('kyc_documents')
        .select('storage_key')
        .where('user_id', '=', userId)
        .execute();
      return rows.map((row) => row.storage_key);
    },

    /**
     * Erases what identifies the person and keeps what the books need: the
     * ledger, trades, deposits and withdrawals stay under the user's id; the
     * name, contacts, identity documents, answers, bank details and mails go.
     */
    async erasePersonalData(trx: Kysely<DB>, userId: number): Promise<void> {
      await trx.deleteFrom('kyc_documents').where('user_id', '=', userId).execute();
      await trx.deleteFrom('kyc_answers').where('user_id', '=', userId).execute();
      await trx.deleteFrom('investor_evidence').where('user_id', '=', userId).execute();
      await trx.deleteFrom('assessment_attempts').where('user_id', '=', userId).execute();
      await trx.deleteFrom('whitelisted_ips').where('user_id', '=', userId).execute();
      // The mails sent to them: each row keeps the address it went to.
      await trx.deleteFrom('mail_outbox').where('user_id', '=', userId).execute();
      await trx
        .updateTable('company_directors')
        .set({
          first_name: 'Erased',
          last_name: 'Erased',
          address: '',
          city: '',
          zip: '',
          phone: '',
          birthdate: '1900-01-01',
        })
        .where('company_id', 'in', trx.selectFrom('companies').select('id').where('user_id', '=', userId))
        .execute();
      await trx
        .updateTable('bank_accounts')
        .set({
          name_of_account: 'Erased',
          account_number: sql<string | null>`CASE WHEN currency = 'GBP' THEN '00000000' END`,
          sort_code: sql<string | null>`CASE WHEN currency = 'GBP' THEN '000000' END`,
          iban: sql<string | null>`CASE WHEN currency <> 'GBP' THEN 'ERASED' END`,
          bic: sql<string | null>`CASE WHEN currency <> 'GBP' THEN 'ERASED' END`,
        })
        .where('user_id', '=', userId)
        .execute();
      await trx
        .updateTable('users')
        .set({
          first_name: 'Erased',
          last_name: 'customer',
          email: sql<string>`'erased-' || id || '@erased.invalid'`,
          pending_email: null,
          password_hash: '!',
          totp_secret_encrypted: null,
          totp_pending_secret_encrypted: null,
          country: null,
          address: null,
          city: null,
          zip: null,
          phone: null,
          birthdate: null,
          nationality: null,
          tax_id: null,
          block_reason: null,
          termination_reason: null,
          personal_data_erased_at: sql<Date>`now()`,
        })
        .where('id', '=', userId)
        .execute();
    },
  };
}

export type ClosureRepository = ReturnType<typeof createClosureRepository>;
