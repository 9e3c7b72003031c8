import {
  sql,
  type Insertable,
  type Kysely,
  type Selectable,
  type Transaction,
  type Updateable,
} from 'kysely';
import type {
  CompaniesTable,
  CompanyDirectorsTable,
  DB,
  KycAnswersTable,
  KycDocumentKey,
  KycDocumentsTable,
  UsersTable,
  RowOf,
} from '../../db/schema.js';

type Executor = Kysely<DB> | Transaction<DB>;

/** DATE columns read as YYYY-MM-DD on both engines (pg gives a Date, PGlite a string). */
const isoDate = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

export type DocumentRow = RowOf<KycDocumentsTable>;
export type AnswersRow = Selectable<KycAnswersTable>;
export type CompanyRow = RowOf<CompaniesTable>;
export type DirectorRow = Omit<RowOf<CompanyDirectorsTable>, 'birthdate'> & { birthdate: string };
export type NewDocument = Insertable<KycDocumentsTable>;
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
export type CompanyValues = Omit<Insertable<CompaniesTable>, 'id' | 'user_id' | 'created_at' | 'updated_at'>;
export type DirectorValues = Omit<
  Insertable<CompanyDirectorsTable>,
  'id' | 'company_id' | 'created_at' | 'updated_at' | 'deleted_at'
>;

const DIRECTOR_COLUMNS = [
  'id',
  'company_id',
  'first_name',
  'last_name',
  'share_holding',
  'address',
  'city',
  'zip',
  'country',
  'phone',
  'status',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

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

  /** Directors and owners not deleted, oldest first. */
  const listDirectorsOf = (companyIds: readonly number[], executor: Executor): Promise<DirectorRow[]> =>
    companyIds.length === 0
      ? Promise.resolve([])
      : executor
          .selectFrom('company_directors')
          .select([...DIRECTOR_COLUMNS, isoDate('birthdate').as('birthdate')])
          .where('company_id', 'in', companyIds)
          .where('deleted_at', 'is', null)
          .orderBy('seq')
          .execute();

  /** Documents that are not superseded: the customers' own, their companies' and every director's. */
  const listCurrentDocumentsOf = (userIds: readonly number[], executor: Executor) =>
    executor
      .selectFrom('kyc_documents')
      .selectAll()
      .where('user_id', 'in', userIds)
      .where('status', '<>', 'superseded')
      .orderBy('seq')
      .execute();

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

    findCompany(userId: number, executor: Executor = db, options: { forUpdate?: boolean } = {}) {
      let query = executor.selectFrom('companies').selectAll().where('user_id', '=', userId);
      if (options.forUpdate) query = query.forUpdate();
      return query.executeTakeFirst();
    },

    insertCompany(userId: number, values: CompanyValues, executor: Executor = db) {
      return executor
        .insertInto('companies')
        .values({ ...values, user_id: userId })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    updateCompany(companyId: number, values: CompanyValues, executor: Executor = db) {
      return executor
        .updateTable('companies')
        .set({ ...values, updated_at: sql`now()` })
        .where('id', '=', companyId)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Another customer's company with this registered number in this country (the unique index's rule). */
    findCompanyWithNumber(
      country: string,
      companyNumber: string,
      exceptUserId: number,
      executor: Executor = db,
    ) {
      return executor
        .selectFrom('companies')
        .select('id')
        .where('country', '=', country)
        .where(sql<string>`upper(replace(company_number, ' ', ''))`, '=', companyNumber.toUpperCase())
        .where('user_id', '<>', exceptUserId)
        .executeTakeFirst();
    },

    /** Directors and owners not deleted, oldest first. */
    listDirectors(companyId: number, executor: Executor = db): Promise<DirectorRow[]> {
      return listDirectorsOf([companyId], executor);
    },

    /** A director of this company that is not deleted; any other id is nobody's as far as the caller knows. */
    async findDirector(
      companyId: number,
      directorId: number,
      executor: Executor = db,
      options: { forUpdate?: boolean } = {},
    ): Promise<DirectorRow | undefined> {
      let query = executor
        .selectFrom('company_directors')
        .select([...DIRECTOR_COLUMNS, isoDate('birthdate').as('birthdate')])
        .where('company_id', '=', companyId)
        .where('id', '=', directorId)
        .where('deleted_at', 'is', null);
      if (options.forUpdate) query = query.forUpdate();
      return query.executeTakeFirst();
    },

    /** Hundredths of a percent held by the company's directors, leaving one out (the one being changed). */
    async sumShareHoldingHundredths(
      companyId: number,
      exceptDirectorId: number | null,
      executor: Executor = db,
    ) {
      let query = executor
        .selectFrom('company_directors')
        .select(sql<string>`coalesce(sum(share_holding * 100), 0)::bigint::text`.as('total'))
        .where('company_id', '=', companyId)
        .where('deleted_at', 'is', null);
      if (exceptDirectorId !== null) query = query.where('id', '<>', exceptDirectorId);
      const row = await query.executeTakeFirstOrThrow();
      return BigInt(row.total);
    },

    async insertDirector(
      companyId: number,
      values: DirectorValues,
      executor: Executor = db,
    ): Promise<number> {
      const row = await executor
        .insertInto('company_directors')
        .values({ ...values, company_id: companyId })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async updateDirector(directorId: number, values: DirectorValues, executor: Executor = db): Promise<void> {
      await executor
        .updateTable('company_directors')
        .set({ ...values, updated_at: sql`now()` })
        .where('id', '=', directorId)
        .execute();
    },

    async softDeleteDirector(directorId: number, executor: Executor = db): Promise<void> {
      await executor
        .updateTable('company_directors')
        .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', directorId)
        .execute();
    },

    /** The customer's documents that are not superseded: their own, their company's and every director's. */
    listCurrentDocuments(userId: number, executor: Executor = db) {
      return listCurrentDocumentsOf([userId], executor);
    },

    findDocument(documentId: string, executor: Executor = db, options: { forUpdate?: boolean } = {}) {
      let query = executor.selectFrom('kyc_documents').selectAll().where('id', '=', documentId);
      if (options.forUpdate) query = query.forUpdate();
      return query.executeTakeFirst();
    },

    /** Marks the current documents of these kinds superseded: the customer's own (directorId null) or one director's. */
    async supersedeDocuments(
      userId: number,
      directorId: number | null,
      keys: readonly KycDocumentKey[],
      executor: Executor = db,
    ): Promise<void> {
      if (keys.length === 0) return;
      await executor
        .updateTable('kyc_documents')
        .set({ status: 'superseded' })
        .where('user_id', '=', userId)
        .where((eb) =>
          directorId === null ? eb('director_id', 'is', null) : eb('director_id', '=', directorId),
        )
        .where('key', 'in', keys)
        .where('status', '<>', 'superseded')
        .execute();
    },

    /** Every current document of one director (when the director is deleted). */
    async supersedeDirectorDocuments(directorId: number, executor: Executor = db): Promise<void> {
      await executor
        .updateTable('kyc_documents')
        .set({ status: 'superseded' })
        .where('director_id', '=', directorId)
        .where('status', '<>', 'superseded')
        .execute();
    },

    insertDocument(values: NewDocument, executor: Executor = db) {
      return executor.insertInto('kyc_documents').values(values).returningAll().executeTakeFirstOrThrow();
    },

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
