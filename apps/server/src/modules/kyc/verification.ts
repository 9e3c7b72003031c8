import { AppError, DocumentKeySchema } from '@florin/contracts';
import { isDirectorStatus } from '@florin/domain';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.js';
import type { SqlFact } from '../../db/sql-fact.js';
import {
  deriveVerificationFlags,
  isEveryStepSubmitted,
  type CurrentDocument,
  type FlagsInput,
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
export function toCurrent(row: Pick<DocumentRow, 'id' | 'key' | 'status'>): CurrentDocument {
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
      const flags = flagsOf({
        accountType: user.account_type,
        hasDetails: user.details_submitted_at !== null,
        hasAnswers: answersOf.has(user.id),
        hasCompany: company !== undefined,
        handedIn: user.verification_completed_at !== null,
        documents,
        directors,
      });
      return [user.id, { user, answers: answersOf.get(user.id), company, directors, documents, flags }];
    }),
  );
}

/** What the flags are derived from: the customer's steps, their current documents and their company's people. */
type VerificationInputs = Omit<FlagsInput, 'documents' | 'directors'> & {
  documents: readonly Pick<DocumentRow, 'id' | 'key' | 'status' | 'director_id'>[];
  directors: readonly Pick<DirectorRow, 'id' | 'status'>[];
};

function flagsOf(input: VerificationInputs): VerificationFlags {
  const documentsBy = byKey(input.documents, (document) => document.director_id);
  return deriveVerificationFlags({
    ...input,
    documents: (documentsBy.get(null) ?? []).map(toCurrent),
    directors: input.directors.map((director) => ({
      isDirector: isDirectorStatus(director.status),
      documents: (documentsBy.get(director.id) ?? []).map(toCurrent),
    })),
  });
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

const isCompleteIn = ({ flags }: Pick<StoredVerification, 'flags'>) =>
  isEveryStepSubmitted(flags) && flags.denied_documents === 0;

/**
 * Whether money may not move for this customer now. A terminated account passes: it may only
 * withdraw what it holds (the routes allow nothing else), and that way out must not wait for a
 * verification it will never complete; its termination is often why a document was declined.
 */
function refusesMoneyWith(terminatedAt: Date | null, flags: VerificationFlags): boolean {
  if (terminatedAt && terminatedAt <= new Date()) return false;
  return !isCompleteIn({ flags });
}

/** flagsOf's inputs as one JSON value, for a statement of another module's (moneyRefusedFact). */
const verificationInputsOf = (userId: number) => sql<unknown>`(
  SELECT json_build_object(
    'accountType', u.account_type,
    'hasDetails', u.details_submitted_at IS NOT NULL,
    'hasAnswers', EXISTS (SELECT 1 FROM kyc_answers a WHERE a.user_id = u.id),
    'hasCompany', EXISTS (SELECT 1 FROM companies c WHERE c.user_id = u.id),
    'handedIn', u.verification_completed_at IS NOT NULL,
    'terminated_at', u.terminated_at,
    'documents', coalesce((
      SELECT json_agg(json_build_object('id', d.id::text, 'key', d.key, 'status', d.status, 'director_id', d.director_id) ORDER BY d.seq)
      FROM kyc_documents d WHERE d.user_id = u.id AND d.status <> 'superseded'), '[]'),
    'directors', coalesce((
      SELECT json_agg(json_build_object('id', cd.id, 'status', cd.status) ORDER BY cd.seq)
      FROM company_directors cd JOIN companies c ON c.id = cd.company_id
      WHERE c.user_id = u.id AND cd.deleted_at IS NULL), '[]'))
  FROM users u WHERE u.id = ${userId})`;

const VerificationInputsSchema = z.object({
  accountType: z.enum(['Individual', 'Corporate']).nullable(),
  hasDetails: z.boolean(),
  hasAnswers: z.boolean(),
  hasCompany: z.boolean(),
  handedIn: z.boolean(),
  terminated_at: z.coerce.date().nullable(),
  documents: z.array(
    z.object({
      id: z.string(),
      key: DocumentKeySchema,
      status: z.enum(['pending', 'approved', 'declined', 'superseded']),
      director_id: z.number().nullable(),
    }),
  ),
  directors: z.array(z.object({ id: z.number(), status: z.number() })),
});

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
  const refusesMoney = (verification: StoredVerification) =>
    refusesMoneyWith(verification.user.terminated_at, verification.flags);
  return {
    /** The same refusal, read inside another module's statement (a quote's single read, issue 43). */
    moneyRefusedFact: (userId: number): SqlFact<boolean> => ({
      select: verificationInputsOf(userId),
      read: (raw) => {
        const inputs = VerificationInputsSchema.parse(raw);
        return refusesMoneyWith(inputs.terminated_at, flagsOf(inputs));
      },
    }),
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
