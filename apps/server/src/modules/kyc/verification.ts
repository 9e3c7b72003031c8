import { AppError } from '@florin/contracts';
import { isDirectorStatus } from '@florin/domain';
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

/** Rows under their key, in their order. */
function byKey<Row>(rows: readonly Row[], keyOf: (row: Row) => number | null): Map<number | null, Row[]> {
  const groups = new Map<number | null, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/** Reads several customers' verifications together, keyed by customer; one missing from the map does not exist. */
export async function loadVerifications(
  repository: KycRepository,
  userIds: readonly number[],
  executor: Kysely<DB>,
): Promise<Map<number, StoredVerification>> {
  const rows = await repository.listVerificationRows(userIds, executor);
  const answersOf = new Map(rows.answers.map((answers) => [answers.user_id, answers]));
  const companyOf = new Map(rows.companies.map((company) => [company.user_id, company]));
  const directorsOf = byKey(rows.directors, (director) => director.company_id);
  const documentsOf = byKey(rows.documents, (document) => document.user_id);
  return new Map(
    rows.users.map((user) => {
      const company = companyOf.get(user.id);
      const directors = company ? (directorsOf.get(company.id) ?? []) : [];
      const documents = documentsOf.get(user.id) ?? [];
      const documentsBy = byKey(documents, (document) => document.director_id);
      const flags = deriveVerificationFlags({
        accountType: user.account_type,
        hasDetails: user.details_submitted_at !== null,
        hasAnswers: answersOf.has(user.id),
        hasCompany: company !== undefined,
        handedIn: user.verification_completed_at !== null,
        documents: (documentsBy.get(null) ?? []).map(toCurrent),
        directors: directors.map((director) => ({
          isDirector: isDirectorStatus(director.status),
          documents: (documentsBy.get(director.id) ?? []).map(toCurrent),
        })),
      });
      return [user.id, { user, answers: answersOf.get(user.id), company, directors, documents, flags }];
    }),
  );
}

/** Reads one customer's verification: the one reading the wizard, the back office and the money gate share. */
export async function loadVerification(
  repository: KycRepository,
  userId: number,
  executor: Kysely<DB>,
): Promise<StoredVerification> {
  const verification = (await loadVerifications(repository, [userId], executor)).get(userId);
  if (!verification) throw new AppError('UNAUTHENTICATED');
  return verification;
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
  /**
   * Whether money may not move for this customer now. A terminated account passes: it may only
   * withdraw what it holds (the routes allow nothing else), and that way out must not wait for a
   * verification it will never complete; its termination is often why a document was declined.
   */
  const refusesMoney = (verification: StoredVerification) => {
    const { terminated_at: terminatedAt } = verification.user;
    if (terminatedAt && terminatedAt <= new Date()) return false;
    return !isCompleteIn(verification);
  };
  return {
    /** Whether a new deposit address may be given (a terminated account gets none either way). */
    async isComplete(userId: number): Promise<boolean> {
      return isCompleteIn(await loadVerification(deps.repository, userId, deps.db));
    },
    /** Refuses money moving for an incomplete verification. */
    async assertComplete(userId: number): Promise<void> {
      if (refusesMoney(await loadVerification(deps.repository, userId, deps.db)))
        throw new AppError('VERIFICATION_INCOMPLETE');
    },
    /**
     * Those of these customers whose money may not move now, read together: a resting order placed
     * while verification was complete waits, unfilled, until it is complete again.
     */
    async refusedAmong(userIds: readonly number[], executor: Kysely<DB> = deps.db): Promise<Set<number>> {
      const verifications = await loadVerifications(deps.repository, userIds, executor);
      return new Set([...verifications.values()].filter(refusesMoney).map(({ user }) => user.id));
    },
  };
}

export type VerificationGate = ReturnType<typeof createVerificationGate>;
