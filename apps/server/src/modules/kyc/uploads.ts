import { createHash } from 'node:crypto';
import {
  AppError,
  KYC_TEXTS,
  type Director,
  type Document,
  type DocumentKey,
  type DocumentUploadParameters,
  type IdProofFields,
} from '@florin/contracts';
import { checkUpload, type CheckedUpload } from '../../security/uploads.js';
import { COMPANY_KEYS, DIRECTOR_KEYS, INDIVIDUAL_KEYS, keysReplacedBy } from './flags.js';
import type { CompanyRow, DirectorRow, DocumentRow, KycUserRow } from './repository.js';
import {
  invalid,
  isUniqueViolation,
  loadDirector,
  lockUser,
  requireAccountType,
  requireCompany,
  requireUser,
  toDocument,
  type IncomingFile,
  type KycServiceDeps,
} from './shared.js';

const ID_PROOF_KEYS: Record<IdProofFields['doc_type'], readonly DocumentKey[]> = {
  passport: ['passport'],
  national_id: ['national_id_front'],
  // front then back, in the order the files arrive
  driver_license: ['id_front', 'id_back'],
  proof_selfie: ['proof_selfie'],
  proof_address: ['proof_address'],
};

const DIRECTOR_DOCUMENT_KEYS = {
  passport: 'passport',
  national_id: 'national_id_front',
  driver_license_front: 'id_front',
  driver_license_back: 'id_back',
  proof_address: 'proof_address',
} as const satisfies Record<string, DocumentKey>;
export type DirectorDocumentType = keyof typeof DIRECTOR_DOCUMENT_KEYS;

/**
 * The name the file had on the customer's device, safe to keep and to show:
 * no folders, no control or markup characters, at most 100 characters
 * (keeping the end, where the extension is).
 */
export function sanitiseFileName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._ -]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  return (cleaned || 'document').slice(-100);
}

function requireFileCount(files: readonly IncomingFile[], count: number): void {
  if (files.length === count) return;
  throw invalid('file', count === 2 ? KYC_TEXTS.twoImages : KYC_TEXTS.oneFile);
}

/** Every upload of the customer: their own documents, the company's and its directors'. */
export function createUploads(deps: Pick<KycServiceDeps, 'db' | 'repository' | 'storage'>) {
  const { db, repository, storage } = deps;

  /**
   * Checks every file first (nothing is stored when one fails), stores them,
   * then in one transaction supersedes what they replace and records them.
   * When the transaction fails the stored files are deleted again, so a
   * file without its row never stays behind.
   */
  async function storeDocuments(
    userId: number,
    target: { directorId: number | null; companyId?: number },
    uploads: readonly { key: DocumentKey; file: IncomingFile }[],
  ): Promise<DocumentRow[]> {
    const checked: { key: DocumentKey; name: string; upload: CheckedUpload }[] = [];
    for (const { key, file } of uploads) {
      checked.push({ key, name: sanitiseFileName(file.filename), upload: await checkUpload(file) });
    }
    const storageKeys: string[] = [];
    try {
      for (const { upload } of checked) storageKeys.push(await storage.put(upload.bytes, upload.contentType));
      return await db.transaction().execute(async (trx) => {
        // The customer first, then documents: the back office's decisions lock in the same order.
        await lockUser(repository, trx, userId);
        if (target.directorId !== null && target.companyId !== undefined) {
          const director = await repository.findDirector(target.companyId, target.directorId, trx, {
            forUpdate: true,
          });
          if (!director) throw new AppError('NOT_FOUND');
        }
        await repository.supersedeDocuments(
          userId,
          target.directorId,
          keysReplacedBy(checked.map(({ key }) => key)),
          trx,
        );
        const rows: DocumentRow[] = [];
        for (const [index, { key, name, upload }] of checked.entries()) {
          rows.push(
            await repository.insertDocument(
              {
                user_id: userId,
                director_id: target.directorId,
                key,
                storage_key: storageKeys[index] as string,
                content_type: upload.contentType,
                original_name: name,
                size_bytes: upload.bytes.length,
                sha256: createHash('sha256').update(upload.bytes).digest('hex'),
              },
              trx,
            ),
          );
        }
        return rows;
      });
    } catch (error) {
      await Promise.allSettled(storageKeys.map((key) => storage.delete(key)));
      if (isUniqueViolation(error, 'kyc_documents_current')) throw new AppError('CONFLICT');
      throw error;
    }
  }

  /** Which of the customer's own documents they may upload: the Individual's or the company's. */
  async function checkOwnDocumentKeys(user: KycUserRow, keys: readonly DocumentKey[]): Promise<void> {
    const isCompanyDocument = keys.some((key) => (COMPANY_KEYS as readonly DocumentKey[]).includes(key));
    if (isCompanyDocument) {
      await requireCompany(deps, user);
      return;
    }
    const accountType = requireAccountType(user);
    if (
      accountType !== 'Individual' ||
      !keys.every((key) => (INDIVIDUAL_KEYS as readonly DocumentKey[]).includes(key))
    ) {
      throw new AppError('CONFLICT', KYC_TEXTS.documentNotForAccount);
    }
  }

  async function directorOf(
    user: KycUserRow,
    directorId: number,
  ): Promise<{ company: CompanyRow; director: DirectorRow }> {
    const company = await requireCompany(deps, user);
    const director = await repository.findDirector(company.id, directorId);
    if (!director) throw new AppError('NOT_FOUND');
    return { company, director };
  }

  return {
    /** POST /user/id-proof: an identity document, the selfie or a proof of address, the customer's or a director's. */
    async uploadIdProof(
      userId: number,
      fields: IdProofFields,
      files: readonly IncomingFile[],
    ): Promise<Document[]> {
      const user = await requireUser(deps, userId);
      const keys = ID_PROOF_KEYS[fields.doc_type];
      let target: { directorId: number | null; companyId?: number } = { directorId: null };
      if (fields.companyDirectorId !== undefined) {
        const { company, director } = await directorOf(user, fields.companyDirectorId);
        if (!keys.every((key) => (DIRECTOR_KEYS as readonly DocumentKey[]).includes(key))) {
          throw invalid('doc_type', KYC_TEXTS.documentNotForAccount);
        }
        target = { directorId: director.id, companyId: company.id };
      } else {
        await checkOwnDocumentKeys(user, keys);
      }
      requireFileCount(files, keys.length);
      const rows = await storeDocuments(
        userId,
        target,
        keys.map((key, index) => ({ key, file: files[index] as IncomingFile })),
      );
      return rows.map(toDocument);
    },

    /** POST /user/documents/upload: one document by key, the company's or a re-upload of a declined one. */
    async uploadDocument(
      userId: number,
      parameters: DocumentUploadParameters,
      files: readonly IncomingFile[],
    ): Promise<Document> {
      // Someone else's id is nobody the caller may know of.
      if (parameters.user_id !== userId) throw new AppError('NOT_FOUND');
      const user = await requireUser(deps, userId);
      await checkOwnDocumentKeys(user, [parameters.key]);
      requireFileCount(files, 1);
      const [row] = await storeDocuments(userId, { directorId: null }, [
        { key: parameters.key, file: files[0] as IncomingFile },
      ]);
      return toDocument(row as DocumentRow);
    },

    async uploadDirectorDocument(
      userId: number,
      directorId: number,
      type: DirectorDocumentType,
      files: readonly IncomingFile[],
    ): Promise<Director> {
      const user = await requireUser(deps, userId);
      const { company } = await directorOf(user, directorId);
      requireFileCount(files, 1);
      await storeDocuments(userId, { directorId, companyId: company.id }, [
        { key: DIRECTOR_DOCUMENT_KEYS[type], file: files[0] as IncomingFile },
      ]);
      return loadDirector(repository, company, directorId);
    },
  };
}
