import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FileStorage } from '../adapters/storage/index.js';
import type { DB } from '../db/schema.js';
import { checkLedger, describeViolations, type CheckResult } from '../ledger/index.js';
import { DOMAIN_CHECKS } from './domain-checks.js';

export type DocumentCheck = { checked: number; problems: string[] };

export type RestoreCheck = {
  ok: boolean;
  ledger: CheckResult;
  documents: DocumentCheck;
};

/** Rows per query, and files read at once (an S3 bucket answers slower than a disk). */
const PAGE_SIZE = 200;
const READS_AT_ONCE = 8;

/**
 * Every uploaded document's row against its stored file: the file exists and
 * its SHA-256 and size are those recorded when it was uploaded. A row whose
 * file is missing is a lost document; a file without a row is harmless (an
 * upload after the database was dumped).
 */
export async function checkStoredDocuments(db: Kysely<DB>, storage: FileStorage): Promise<DocumentCheck> {
  const problems: string[] = [];
  let checked = 0;
  let after = '0';
  for (;;) {
    const rows = await db
      .selectFrom('kyc_documents')
      .select(['id', 'storage_key', 'sha256', 'size_bytes'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE_SIZE)
      .execute();
    if (rows.length === 0) break;
    for (let start = 0; start < rows.length; start += READS_AT_ONCE) {
      const found = await Promise.all(
        rows.slice(start, start + READS_AT_ONCE).map(async (row) => {
          const bytes = await storage.get(row.storage_key);
          if (!bytes) return `document ${row.id}: its file is missing from storage`;
          const sha256 = createHash('sha256').update(bytes).digest('hex');
          if (sha256 !== row.sha256 || bytes.length !== row.size_bytes)
            return `document ${row.id}: the stored file has SHA-256 ${sha256} (${bytes.length} bytes), not ${row.sha256} (${row.size_bytes} bytes)`;
          return null;
        }),
      );
      for (const problem of found) if (problem) problems.push(problem);
    }
    checked += rows.length;
    after = rows[rows.length - 1]?.id ?? after;
  }
  return { checked, problems };
}

/**
 * What a restored system must pass before it serves: the ledger's invariants
 * with every domain check (as at start), and every document's checksum.
 */
export async function checkRestore(db: Kysely<DB>, storage: FileStorage): Promise<RestoreCheck> {
  const ledger = await checkLedger(db, DOMAIN_CHECKS);
  const documents = await checkStoredDocuments(db, storage);
  return { ok: ledger.ok && documents.problems.length === 0, ledger, documents };
}

export function describeRestoreCheck(result: RestoreCheck): string {
  const lines = [
    result.ledger.ok
      ? 'Ledger: every invariant and domain check holds.'
      : `Ledger: FAILED\n${describeViolations(result.ledger)}`,
    result.documents.problems.length === 0
      ? `Documents: all ${result.documents.checked} stored files match their SHA-256.`
      : `Documents: ${result.documents.problems.length} of ${result.documents.checked} FAILED\n${result.documents.problems.join('\n')}`,
  ];
  return lines.join('\n');
}
