import { sql, type Insertable, type Kysely } from 'kysely';
import type { CompaniesTable, CompanyDirectorsTable, DB, RowOf } from '../../db/schema.js';
import { isoDate, type Executor } from './query-helpers.js';

export type CompanyRow = RowOf<CompaniesTable>;
export type DirectorRow = Omit<RowOf<CompanyDirectorsTable>, 'birthdate'> & { birthdate: string };
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

/** Directors and owners not deleted, oldest first. */
export const listDirectorsOf = (companyIds: readonly number[], executor: Executor): Promise<DirectorRow[]> =>
  companyIds.length === 0
    ? Promise.resolve([])
    : executor
        .selectFrom('company_directors')
        .select([...DIRECTOR_COLUMNS, isoDate('birthdate').as('birthdate')])
        .where('company_id', 'in', companyIds)
        .where('deleted_at', 'is', null)
        .orderBy('seq')
        .execute();

/** A corporate customer's company and its directors and owners. */
export function createKycCompanyRepository(db: Kysely<DB>) {
  return {
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
  };
}
