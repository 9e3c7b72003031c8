import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB, InvestorProfilesTable } from '../../db/schema.js';
import type { DrawnQuestion } from '@florin/domain/appropriateness';

export type InvestorCustomer = {
  id: number;
  first_name: string;
  last_name: string;
  account_type: 'Individual' | 'Corporate';
  user_identification: string;
  status: number;
  block_status: number;
};

export type InvestorProfile = Selectable<InvestorProfilesTable>;
export type EvidenceInput = { step: string; details?: Record<string, unknown>; ip: string | null };

export function createInvestorRepository(db: Kysely<DB>) {
  return {
    findCustomer(userId: number): Promise<InvestorCustomer | undefined> {
      return db
        .selectFrom('users')
        .select([
          'id',
          'first_name',
          'last_name',
          'account_type',
          'user_identification',
          'status',
          'block_status',
        ])
        .where('id', '=', userId)
        .executeTakeFirst() as Promise<InvestorCustomer | undefined>;
    },

    /** The profile, locked for the rest of the transaction when `trx` is one: the steps of one customer queue. */
    findProfile(executor: Kysely<DB>, userId: number, lock = false): Promise<InvestorProfile | undefined> {
      const query = executor.selectFrom('investor_profiles').selectAll().where('user_id', '=', userId);
      return (lock ? query.forUpdate() : query).executeTakeFirst();
    },

    /** Makes the profile row exist, so that a first step can lock it like any later one. */
    async ensureProfile(trx: Kysely<DB>, userId: number): Promise<void> {
      await trx
        .insertInto('investor_profiles')
        .values({ user_id: userId })
        .onConflict((conflict) => conflict.column('user_id').doNothing())
        .execute();
    },

    async updateProfile(
      trx: Kysely<DB>,
      userId: number,
      patch: Omit<Updateable<InvestorProfilesTable>, 'user_id' | 'updated_at'>,
    ): Promise<void> {
      await trx
        .updateTable('investor_profiles')
        .set({ ...patch, updated_at: sql<Date>`now()` })
        .where('user_id', '=', userId)
        .execute();
    },

    async lastSubmittedAttempt(executor: Kysely<DB>, userId: number) {
      return executor
        .selectFrom('assessment_attempts')
        .select(['score', 'total', 'passed', 'submitted_at'])
        .where('user_id', '=', userId)
        .where('submitted_at', 'is not', null)
        .orderBy('submitted_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async insertAttempt(
      trx: Kysely<DB>,
      id: string,
      userId: number,
      questions: DrawnQuestion[],
    ): Promise<void> {
      await trx
        .insertInto('assessment_attempts')
        .values({ id, user_id: userId, questions: JSON.stringify(questions) })
        .execute();
    },

    /** The customer's newest attempt, locked; an older one was replaced by starting again. */
    newestAttempt(trx: Kysely<DB>, userId: number) {
      return trx
        .selectFrom('assessment_attempts')
        .select(['id', 'questions', 'submitted_at'])
        .where('user_id', '=', userId)
        .orderBy('started_at', 'desc')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .executeTakeFirst();
    },

    async submitAttempt(
      trx: Kysely<DB>,
      id: string,
      outcome: { answers: Record<string, string>; score: number; total: number; passed: boolean },
      submittedAt: Date,
    ): Promise<void> {
      await trx
        .updateTable('assessment_attempts')
        .set({
          answers: JSON.stringify(outcome.answers),
          score: outcome.score,
          total: outcome.total,
          passed: outcome.passed,
          submitted_at: submittedAt,
        })
        .where('id', '=', id)
        .execute();
    },

    async addEvidence(executor: Kysely<DB>, userId: number, evidence: EvidenceInput): Promise<Date> {
      const row = await executor
        .insertInto('investor_evidence')
        .values({
          user_id: userId,
          step: evidence.step,
          details: JSON.stringify(evidence.details ?? {}),
          ip: evidence.ip,
        })
        .returning('created_at')
        .executeTakeFirstOrThrow();
      return row.created_at;
    },

    listEvidence(userId: number) {
      return db
        .selectFrom('investor_evidence')
        .select(['id', 'step', 'details', 'ip', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
    },

    async isComplete(userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('investor_profiles')
        .select('completed_at')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Boolean(row?.completed_at);
    },
  };
}

export type InvestorRepository = ReturnType<typeof createInvestorRepository>;
