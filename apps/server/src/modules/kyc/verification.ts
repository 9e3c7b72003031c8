import { AppError } from '@florin/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import {
  deriveVerificationFlags,
  isEveryStepSubmitted,
  type CurrentDocument,
  type VerificationFlags,
} from './flags.js';
import type {
  AnswersRow,
  CompanyRow,
  DirectorRow,
  DocumentRow,
  KycRepository,
  KycUserRow,
} from './repository.js';

/** What a customer's verification is made of, as stored, with the flags derived from it. */
export type StoredVerification = {
  user: KycUserRow;
  answers: AnswersRow | undefined;
  company: CompanyRow | undefined;
  directors: DirectorRow[];
  /** Every current document: the customer's own (director_id null) and their directors'. */
  documents: DocumentRow[];
  flags: VerificationFlags;
};

/** A current document as the flags read it. */
export function toCurrent(row: DocumentRow): CurrentDocument {
  if (row.status === 'superseded') throw new Error(`document ${row.id} is superseded, not current`);
  return { key: row.key, status: row.status };
}

/** Reads one customer's verification: the one reading the wizard, the back office and the money gate share. */
export async function loadVerification(
  repository: KycRepository,
  userId: number,
  executor: Kysely<DB>,
): Promise<StoredVerification> {
  const user = await repository.findUser(userId, executor);
  if (!user) throw new AppError('UNAUTHENTICATED');
  const [answers, company, documents] = await Promise.all([
    repository.findAnswers(userId, executor),
    repository.findCompany(userId, executor),
    repository.listCurrentDocuments(userId, executor),
  ]);
  const directors = company ? await repository.listDirectors(company.id, executor) : [];
  const flags = deriveVerificationFlags({
    accountType: user.account_type,
    hasDetails: user.details_submitted_at !== null,
    hasAnswers: answers !== undefined,
    hasCompany: company !== undefined,
    documents: documents.filter((document) => document.director_id === null).map(toCurrent),
    directors: directors.map((director) => ({
      documents: documents.filter((document) => document.director_id === director.id).map(toCurrent),
    })),
  });
  return { user, answers, company, directors, documents, flags };
}

/**
 * Spec 000 §6: a customer "with incomplete verification … cannot deposit,
 * withdraw, buy or sell", live or not. Verification is complete while every
 * step is submitted and no current document is declined; a live customer
 * falls out of it when a new address supersedes their proof of address, when
 * staff decline a document, or when a company loses its last director. The
 * money services ask this after their own live-and-not-on-hold check, so a
 * customer who is not live still hears that first.
 */
export function createVerificationGate(deps: { db: Kysely<DB>; repository: KycRepository }) {
  const isCompleteIn = ({ flags }: StoredVerification) =>
    isEveryStepSubmitted(flags) && flags.denied_documents === 0;
  return {
    /** Whether a new deposit address may be given (a terminated account gets none either way). */
    async isComplete(userId: number): Promise<boolean> {
      return isCompleteIn(await loadVerification(deps.repository, userId, deps.db));
    },
    /**
     * Refuses money moving for an incomplete verification. A terminated account passes: it may only
     * withdraw what it holds (the routes allow nothing else), and that way out must not wait for a
     * verification it will never complete; its termination is often why a document was declined.
     */
    async assertComplete(userId: number): Promise<void> {
      const verification = await loadVerification(deps.repository, userId, deps.db);
      const { terminated_at: terminatedAt } = verification.user;
      if (terminatedAt && terminatedAt <= new Date()) return;
      if (!isCompleteIn(verification)) throw new AppError('VERIFICATION_INCOMPLETE');
    },
  };
}

export type VerificationGate = ReturnType<typeof createVerificationGate>;
