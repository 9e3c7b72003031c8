import { AppError } from '@florin/contracts';
import type { DocumentRow } from './repository.js';
import type { DocumentFile, KycServiceDeps } from './shared.js';

/** Reading stored document files back: the customer their own, staff anyone's. */
export function createDocumentFiles(deps: Pick<KycServiceDeps, 'repository' | 'storage'>) {
  const { repository, storage } = deps;

  async function readStoredFile(row: DocumentRow): Promise<DocumentFile> {
    const bytes = await storage.get(row.storage_key);
    // A row whose file is gone is a fault on our side, not the caller's.
    if (!bytes) throw new Error(`kyc document ${row.id}: file ${row.storage_key} is missing from storage`);
    return { bytes, contentType: row.content_type, filename: row.original_name };
  }

  return {
    /** One of the customer's own documents (any of theirs, replaced ones included); anyone else's is 404. */
    async getOwnDocumentFile(userId: number, documentId: number): Promise<DocumentFile> {
      const row = await repository.findDocument(String(documentId));
      if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND');
      return readStoredFile(row);
    },

    // ---- for the back office ----

    /** Any customer's document file, for staff (the caller has checked the staff member's role). */
    async readDocumentFile(documentId: number): Promise<DocumentFile> {
      const row = await repository.findDocument(String(documentId));
      if (!row) throw new AppError('NOT_FOUND');
      return readStoredFile(row);
    },

    /** A stored file's bytes by its storage key; a key with no file is a fault. */
    async readStoredBytes(storageKey: string): Promise<Buffer> {
      const bytes = await storage.get(storageKey);
      if (!bytes) throw new Error(`kyc document file ${storageKey} is missing from storage`);
      return bytes;
    },
  };
}
