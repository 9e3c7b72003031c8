import type { Insertable, Kysely } from 'kysely';
import type { DB, KycDocumentKey, KycDocumentsTable, RowOf } from '../../db/schema.js';
import type { Executor } from './query-helpers.js';

export type DocumentRow = RowOf<KycDocumentsTable>;
export type NewDocument = Insertable<KycDocumentsTable>;

/** Documents that are not superseded: the customers' own, their companies' and every director's. */
export const listCurrentDocumentsOf = (userIds: readonly number[], executor: Executor) =>
  executor
    .selectFrom('kyc_documents')
    .selectAll()
    .where('user_id', 'in', userIds)
    .where('status', '<>', 'superseded')
    .orderBy('seq')
    .execute();

/** The documents customers hand in, each kind current until a newer one supersedes it. */
export function createKycDocumentRepository(db: Kysely<DB>) {
  return {
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
  };
}
