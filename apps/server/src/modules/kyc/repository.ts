import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB, KycAnswersTable, UsersTable } from '../../db/schema.js';
import { createKycCompanyRepository, listDirectorsOf } from './company-repository.js';
import { createKycDocumentRepository, listCurrentDocumentsOf } from './document-repository.js';
import { isoDate, type Executor } from './query-helpers.js';

export type { CompanyRow, CompanyValues, DirectorRow, DirectorValues } from './company-repository.js';
export type { DocumentRow, NewDocument } from './document-repository.js';

export type AnswersRow = Selectable<KycAnswersTable>;
export type UserDetails = Pick<
  Updateable<UsersTable>,
  | 'country'
  | 'address'
  | 'city'
  | 'zip'
  | 'phone'
  | 'birthdate'
  | 'nationality'
  | 'tax_residence'
  | 'tax_id'
  | 'details_submitted_at'
  | 'account_type'
  | 'platform'
  | 'account_tiers_class'
  | 'ico_confirmed'
  | 'is_sow_reset'
  | 'verification_completed_at'
>;
export type AnswersValues = Omit<Insertable<KycAnswersTable>, 'user_id' | 'submitted_at' | 'updated_at'>;

/**
 * Every query of the KYC module: the customer's details and answers here, the company and its directors
 * (company-repository.ts) and the documents (document-repository.ts) beside it, as one object.
 */
export function createKycRepository(db: Kysely<DB>) {
  /** The users' verification columns. */
  const selectUsers = (executor: Executor) =>
    executor
      .selectFrom('users')
      .select([
        'id',
        'first_name',
        'last_name',
        'email',
        'status',
        'block_status',
        'account_type',
        'platform',
        'country',
        'address',
        'city',
        'zip',
        'phone',
        isoDate('birthdate').as('birthdate'),
        'nationality',
        'tax_residence',
        'tax_id',
        'details_submitted_at',
        'is_sow_reset',
        'ico_confirmed',
        'account_tiers_class',
        'verification_completed_at',
        'terminated_at',
      ]);

  return {
    /** The user's verification columns; `forUpdate` holds the row for the rest of the transaction. */
    findUser(userId: number, executor: Executor = db, options: { forUpdate?: boolean } = {}) {
      const query = selectUsers(executor).where('id', '=', userId);
      return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
    },

    /**
     * What several customers' verifications are made of, in five statements however many there are
     * (the fill engine asks for a tick's customers together).
     */
    async listVerificationRows(userIds: readonly number[], executor: Executor = db) {
      if (userIds.length === 0)
        return { users: [], answers: [], companies: [], directors: [], documents: [] };
      const [users, answers, companies, documents] = await Promise.all([
        selectUsers(executor).where('id', 'in', userIds).execute(),
        executor.selectFrom('kyc_answers').selectAll().where('user_id', 'in', userIds).execute(),
        executor.selectFrom('companies').selectAll().where('user_id', 'in', userIds).execute(),
        listCurrentDocumentsOf(userIds, executor),
      ]);
      const directors = await listDirectorsOf(
        companies.map((company) => company.id),
        executor,
      );
      return { users, answers, companies, directors, documents };
    },

    async updateUser(userId: number, values: UserDetails, executor: Executor = db): Promise<void> {
      await executor.updateTable('users').set(values).where('id', '=', userId).execute();
    },

    findAnswers(userId: number, executor: Executor = db) {
      return executor.selectFrom('kyc_answers').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },

    async insertAnswers(userId: number, values: AnswersValues, executor: Executor = db): Promise<void> {
      await executor
        .insertInto('kyc_answers')
        .values({ ...values, user_id: userId })
        .execute();
    },

    async updateAnswers(userId: number, values: AnswersValues, executor: Executor = db): Promise<void> {
      await executor
        .updateTable('kyc_answers')
        .set({ ...values, updated_at: sql`now()` })
        .where('user_id', '=', userId)
        .execute();
    },

    ...createKycCompanyRepository(db),
    ...createKycDocumentRepository(db),

    /** Whether the customer has handed in anything at all (the Individual/Corporate choice is open until then). */
    async hasSubmittedAnything(userId: number, executor: Executor = db): Promise<boolean> {
      const row = await executor
        .selectNoFrom((eb) => [
          eb
            .or([
              eb.exists(
                eb
                  .selectFrom('users')
                  .select('id')
                  .where('id', '=', userId)
                  .where('details_submitted_at', 'is not', null),
              ),
              eb.exists(eb.selectFrom('kyc_answers').select('user_id').where('user_id', '=', userId)),
              eb.exists(eb.selectFrom('companies').select('id').where('user_id', '=', userId)),
              eb.exists(eb.selectFrom('kyc_documents').select('id').where('user_id', '=', userId)),
            ])
            .as('submitted'),
        ])
        .executeTakeFirstOrThrow();
      return Boolean(row.submitted);
    },
  };
}

export type KycRepository = ReturnType<typeof createKycRepository>;
export type KycUserRow = NonNullable<Awaited<ReturnType<KycRepository['findUser']>>>;
