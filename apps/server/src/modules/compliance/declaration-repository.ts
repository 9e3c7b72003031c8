import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** What the customer declared: the source-of-wealth answers, the company and its directors. */
export function createComplianceDeclarationRepository(db: Kysely<DB>) {
  return {
    findKycAnswers(userId: number) {
      return db
        .selectFrom('kyc_answers')
        .select([
          'trades_over_threshold',
          'aware_of_risk',
          'initial_investment',
          'annual_income',
          'net_worth',
          'investment_portfolio',
          'source_of_wealth',
          'experience',
          'investment_trades',
          'offense',
          'offense_details',
          'criminal',
          'criminal_details',
          'caution',
          'caution_details',
          'ccj',
          'ccj_details',
        ])
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async hasKycAnswers(executor: Kysely<DB>, userId: number): Promise<boolean> {
      const row = await executor
        .selectFrom('kyc_answers')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Those of these customers (without `userIds`, of all) who answered No to the £15,000 question and
     * are not already asked again.
     */
    async listAnsweredBelowThreshold(executor: Kysely<DB>, userIds?: readonly number[]): Promise<number[]> {
      const rows = await executor
        .selectFrom('users')
        .innerJoin('kyc_answers', 'kyc_answers.user_id', 'users.id')
        .select('users.id')
        .$if(userIds !== undefined, (query) =>
          query.where('users.id', '=', sql<number>`any(${[...(userIds ?? [])]}::integer[])`),
        )
        .where('users.is_sow_reset', '=', 0)
        // A terminated customer may only withdraw what is theirs: a reset would stop that too.
        .where('users.terminated_at', 'is', null)
        .where('kyc_answers.trades_over_threshold', '=', 0)
        .execute();
      return rows.map((row) => row.id);
    },

    findCompany(userId: number) {
      return db
        .selectFrom('companies')
        .select(['id', 'name', 'company_number', 'address', 'city', 'country', 'zip'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    listDirectors(companyId: number) {
      return db
        .selectFrom('company_directors')
        .select([
          'id',
          'first_name',
          'last_name',
          'share_holding',
          'address',
          'city',
          'zip',
          'country',
          'phone',
          'status',
          sql<string>`to_char(birthdate, 'YYYY-MM-DD')`.as('birthdate'),
        ])
        .where('company_id', '=', companyId)
        .where('deleted_at', 'is', null)
        .orderBy('seq')
        .execute();
    },
  };
}
