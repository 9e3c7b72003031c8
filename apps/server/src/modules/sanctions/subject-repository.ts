import { sql, type Kysely } from 'kysely';
import type { DB, SanctionsScreeningSubject } from '../../db/schema.js';

/** A person or company screened, with where it comes from (a director's row, or the customer). */
export type SubjectRow = SanctionsScreeningSubject & { userId: number; directorId: number | null };

/** The customers, companies and directors screened, as the screening reads them. */
export function createSanctionsSubjectRepository(db: Kysely<DB>) {
  return {
    /** Customers (with their own date of birth), companies and directors; `userId` narrows to one customer. */
    async listSubjects(userId?: number): Promise<SubjectRow[]> {
      let customers = db
        .selectFrom('users')
        .select([
          'id',
          'first_name',
          'last_name',
          sql<string | null>`to_char(birthdate, 'YYYY-MM-DD')`.as('birthdate'),
        ]);
      let companies = db
        .selectFrom('companies')
        .innerJoin('users', 'users.id', 'companies.user_id')
        .select(['companies.user_id', 'companies.name'])
        .where('users.account_type', '=', 'Corporate');
      let directors = db
        .selectFrom('company_directors')
        .innerJoin('companies', 'companies.id', 'company_directors.company_id')
        .innerJoin('users', 'users.id', 'companies.user_id')
        .select([
          'companies.user_id',
          'company_directors.id',
          'company_directors.first_name',
          'company_directors.last_name',
          sql<string>`to_char(company_directors.birthdate, 'YYYY-MM-DD')`.as('birthdate'),
        ])
        .where('users.account_type', '=', 'Corporate')
        .where('company_directors.deleted_at', 'is', null);
      if (userId !== undefined) {
        customers = customers.where('id', '=', userId);
        companies = companies.where('companies.user_id', '=', userId);
        directors = directors.where('companies.user_id', '=', userId);
      }
      const [people, firms, officers] = await Promise.all([
        customers.orderBy('seq').execute(),
        companies.execute(),
        directors.orderBy('company_directors.seq').execute(),
      ]);
      return [
        ...people.map((row) => ({
          userId: row.id,
          directorId: null,
          kind: 'customer' as const,
          name: `${row.first_name} ${row.last_name}`,
          birthdate: row.birthdate,
        })),
        ...firms.map((row) => ({
          userId: row.user_id,
          directorId: null,
          kind: 'company' as const,
          name: row.name,
          birthdate: null,
        })),
        ...officers.map((row) => ({
          userId: row.user_id,
          directorId: row.id,
          kind: 'director' as const,
          name: `${row.first_name} ${row.last_name}`,
          birthdate: row.birthdate,
        })),
      ];
    },

    /** Locks the customer's row (after the hit's: the order every sanctions decision takes them in). */
    async lockCustomer(trx: Kysely<DB>, userId: number): Promise<{ block_status: number } | undefined> {
      return trx
        .selectFrom('users')
        .select('block_status')
        .where('id', '=', userId)
        .forUpdate()
        .executeTakeFirst();
    },

    async customerExists(userId: number): Promise<boolean> {
      const row = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
      return row !== undefined;
    },
  };
}
