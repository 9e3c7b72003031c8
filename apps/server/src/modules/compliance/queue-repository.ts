import { sql, type Kysely, type QueryCreator } from 'kysely';
import { CUSTOMER_STATUS } from '@florin/domain';
import type { DB } from '../../db/schema.js';

export type QueueRow = {
  id: number;
  user_identification: string;
  first_name: string;
  last_name: string;
  email: string;
  account_type: 'Individual' | 'Corporate' | null;
  status: number;
  block_status: number;
  created_at: Date;
  verification_completed_at: Date | null;
  pending_documents: number;
  approved_documents: number;
  declined_documents: number;
  waiting_since: Date;
};

/** The verification queue: customers with documents to review or a finished verification to decide on. */
export function createComplianceQueueRepository(db: Kysely<DB>) {
  /**
   * Each customer's current documents (not replaced, and not those of a
   * director the customer removed) counted by status: the queue's source.
   */
  const documentCounts = (executor: QueryCreator<DB>) =>
    executor
      .selectFrom('kyc_documents as d')
      .leftJoin('company_directors as cd', 'cd.id', 'd.director_id')
      .where('d.status', '<>', 'superseded')
      .where((eb) => eb.or([eb('d.director_id', 'is', null), eb('cd.deleted_at', 'is', null)]))
      .groupBy('d.user_id')
      .select([
        'd.user_id',
        sql<number>`count(*) filter (where d.status = 'pending')::int`.as('pending_documents'),
        sql<number>`count(*) filter (where d.status = 'approved')::int`.as('approved_documents'),
        sql<number>`count(*) filter (where d.status = 'declined')::int`.as('declined_documents'),
        sql<Date | null>`min(d.created_at) filter (where d.status = 'pending')`.as('oldest_pending'),
      ]);

  /** Something to review, or everything approved on a finished verification of an account not yet live. */
  const queue = (executor: Kysely<DB>) =>
    executor
      .with('counts', (qb) => documentCounts(qb))
      .selectFrom('counts')
      .innerJoin('users', 'users.id', 'counts.user_id')
      .where((eb) =>
        eb.or([
          eb('counts.pending_documents', '>', 0),
          eb.and([
            eb('users.status', '<>', CUSTOMER_STATUS.live),
            eb('users.verification_completed_at', 'is not', null),
            eb('counts.declined_documents', '=', 0),
          ]),
        ]),
      );

  return {
    async countQueue(): Promise<number> {
      const row = await queue(db)
        .select((eb) => eb.fn.countAll<string>().as('rows'))
        .executeTakeFirstOrThrow();
      return Number(row.rows); // a count of rows, not money
    },

    /** Oldest waiting first: the oldest pending upload, or when the wizard was finished. */
    listQueue(limit: number, offset: number): Promise<QueueRow[]> {
      const waitingSince = sql<Date>`coalesce(counts.oldest_pending, users.verification_completed_at)`;
      return queue(db)
        .select([
          'users.id',
          'users.user_identification',
          'users.first_name',
          'users.last_name',
          'users.email',
          'users.account_type',
          'users.status',
          'users.block_status',
          'users.created_at',
          'users.verification_completed_at',
          'counts.pending_documents',
          'counts.approved_documents',
          'counts.declined_documents',
          waitingSince.as('waiting_since'),
        ])
        .orderBy(waitingSince)
        .orderBy('users.seq')
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };
}
