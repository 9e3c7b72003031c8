import { sql, type Kysely } from 'kysely';
import type { DB, KycDocumentsTable, RowOf } from '../../db/schema.js';

export type DocumentRow = Pick<
  RowOf<KycDocumentsTable>,
  | 'id'
  | 'user_id'
  | 'director_id'
  | 'key'
  | 'storage_key'
  | 'content_type'
  | 'size_bytes'
  | 'status'
  | 'disapprove_note'
  | 'reviewed_at'
  | 'created_at'
> & { director_name: string | null; reviewed_by: string | null };

/** The customer's KYC documents as staff see them, and the staff decision on each. */
export function createComplianceDocumentRepository(db: Kysely<DB>) {
  return {
    /**
     * Every document of the customer, their company's and their current
     * directors', replaced ones included, newest first within a kind.
     */
    listDocuments(userId: number, executor: Kysely<DB> = db): Promise<DocumentRow[]> {
      return executor
        .selectFrom('kyc_documents as d')
        .leftJoin('company_directors as cd', 'cd.id', 'd.director_id')
        .leftJoin('staff', 'staff.id', 'd.reviewed_by_staff_id')
        .where('d.user_id', '=', userId)
        .where((eb) => eb.or([eb('d.director_id', 'is', null), eb('cd.deleted_at', 'is', null)]))
        .select([
          'd.id',
          'd.user_id',
          'd.director_id',
          'd.key',
          'd.storage_key',
          'd.content_type',
          'd.size_bytes',
          'd.status',
          'd.disapprove_note',
          'd.reviewed_at',
          'd.created_at',
          sql<string | null>`cd.first_name || ' ' || cd.last_name`.as('director_name'),
          'staff.email as reviewed_by',
        ])
        .orderBy(sql`cd.seq nulls first`)
        .orderBy('d.key')
        .orderBy('d.seq', 'desc')
        .execute();
    },

    findDocument(id: string, executor: Kysely<DB> = db): Promise<DocumentRow | undefined> {
      return executor
        .selectFrom('kyc_documents as d')
        .leftJoin('company_directors as cd', 'cd.id', 'd.director_id')
        .leftJoin('staff', 'staff.id', 'd.reviewed_by_staff_id')
        .where('d.id', '=', id)
        .select([
          'd.id',
          'd.user_id',
          'd.director_id',
          'd.key',
          'd.storage_key',
          'd.content_type',
          'd.size_bytes',
          'd.status',
          'd.disapprove_note',
          'd.reviewed_at',
          'd.created_at',
          sql<string | null>`cd.first_name || ' ' || cd.last_name`.as('director_name'),
          'staff.email as reviewed_by',
        ])
        .executeTakeFirst();
    },

    /**
     * Locks the customer's current documents (or only those of `ids`): a
     * decision and the customer's re-upload, which supersedes a document with
     * an UPDATE, take turns.
     */
    async lockDocuments(executor: Kysely<DB>, userId: number, ids?: readonly string[]): Promise<void> {
      let query = executor
        .selectFrom('kyc_documents')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', '<>', 'superseded');
      if (ids) query = query.where('id', 'in', ids);
      await query.orderBy('id').forUpdate().execute();
    },

    async reviewDocument(
      executor: Kysely<DB>,
      id: string,
      values: { status: 'approved' | 'declined'; disapprove_note: string | null; staffId: number | null },
    ): Promise<void> {
      await executor
        .updateTable('kyc_documents')
        .set({
          status: values.status,
          disapprove_note: values.disapprove_note,
          reviewed_by_staff_id: values.staffId,
          reviewed_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .execute();
    },
  };
}
