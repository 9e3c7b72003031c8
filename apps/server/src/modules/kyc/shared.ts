import { AppError, KYC_TEXTS, type Director, type Document, type ScreeningTrigger } from '@florin/contracts';
import { CUSTOMER_STATUS, isDirectorStatus, isOwnerStatus } from '@florin/domain';
import type { Kysely, Transaction } from 'kysely';
import type { FileStorage } from '../../adapters/storage/index.js';
import type { DB } from '../../db/schema.js';
import type { TradingVolumes } from '../trading-volume/service.js';
import type { UpgradeRecorder } from '../upgrades/service.js';
import { directorFlags } from './flags.js';
import type { CompanyRow, DirectorRow, DocumentRow, KycRepository, KycUserRow } from './repository.js';
import { toCurrent } from './verification.js';

/*
 * What the KYC flows (details.ts, answers.ts, company.ts, directors.ts, uploads.ts, ...) share: their
 * dependencies, the customer and company look-ups, the hand-in lock and the customer's view of a
 * document and a director. service.ts composes the flows into the module's one service.
 */

/** A file as it arrived in a multipart request, before any check. */
export type IncomingFile = { filename: string; bytes: Buffer };

/** A stored document's bytes and how to hand them out (always as an attachment). */
export type DocumentFile = { bytes: Buffer; contentType: string; filename: string };

export type KycServiceDeps = {
  db: Kysely<DB>;
  repository: KycRepository;
  storage: FileStorage;
  /** The mailbox the upload-failure dialog names (COMPLIANCE_EMAIL). */
  complianceEmail: string;
  /** Records each move to the trading platform and tells staff; unset, nothing is recorded (unit tests). */
  upgrades?: UpgradeRecorder;
  /**
   * Screens the customer against the sanctions list (issue 13): when they submit verification, and
   * after it on every change to a screened detail. Unset: no screening (unit tests).
   */
  sanctions?: { screenCustomer(userId: number, trigger: ScreeningTrigger): Promise<unknown> };
  /** Who has traded more than £15,000 this calendar year: the source-of-wealth answers must then say so. */
  tradingVolumes: Pick<TradingVolumes, 'listOverSourceOfWealthThreshold'>;
};

export function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { [field]: [message] });
}

export function toDocument(row: DocumentRow): Document {
  return {
    id: Number(row.id),
    key: row.key,
    is_admin_approved: row.status === 'approved' ? 1 : row.status === 'declined' ? -1 : 0,
    disapprove_note: row.disapprove_note,
    director_id: row.director_id,
    content_type: row.content_type,
    created_at: row.created_at.toISOString(),
  };
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const details = error as { code?: string; constraint?: string; message?: string };
  return (
    details.code === '23505' &&
    (details.constraint === constraint || (details.message ?? '').includes(constraint))
  );
}

/** 422 when the body would change a field that is locked now, with the text under each such field. */
export function refuseLockedChanges(text: string, isChanged: Record<string, boolean>): void {
  const fields = Object.keys(isChanged).filter((field) => isChanged[field]);
  if (fields.length > 0)
    throw new AppError('VALIDATION_FAILED', text, Object.fromEntries(fields.map((field) => [field, [text]])));
}

export function addressOf(value: {
  country: string | null;
  address: string | null;
  city: string | null;
  zip: string | null;
}) {
  return [value.country, value.address, value.city, value.zip].map((part) => part ?? '').join('\u0000');
}

export async function lockUser(
  repository: Pick<KycRepository, 'findUser'>,
  trx: Transaction<DB>,
  userId: number,
): Promise<KycUserRow> {
  const user = await repository.findUser(userId, trx, { forUpdate: true });
  if (!user) throw new AppError('UNAUTHENTICATED');
  return user;
}

export async function requireUser(
  deps: Pick<KycServiceDeps, 'db' | 'repository'>,
  userId: number,
  executor: Kysely<DB> = deps.db,
): Promise<KycUserRow> {
  const user = await deps.repository.findUser(userId, executor);
  if (!user) throw new AppError('UNAUTHENTICATED');
  return user;
}

/** The wizard is finished (staff review from here) or the account is live: what was declared is being checked. */
export function isHandedIn(user: KycUserRow): boolean {
  return user.status === CUSTOMER_STATUS.live || user.verification_completed_at !== null;
}

export function requireAccountType(user: KycUserRow): 'Individual' | 'Corporate' {
  if (!user.account_type) throw new AppError('CONFLICT', KYC_TEXTS.accountTypeMissing);
  return user.account_type;
}

/** A Corporate customer's company; anyone else has none to show or change. */
export async function requireCompany(
  deps: Pick<KycServiceDeps, 'db' | 'repository'>,
  user: KycUserRow,
  executor: Kysely<DB> = deps.db,
): Promise<CompanyRow> {
  const company =
    user.account_type === 'Corporate' ? await deps.repository.findCompany(user.id, executor) : undefined;
  if (!company) throw new AppError('NOT_FOUND');
  return company;
}

export async function isOverSourceOfWealthThreshold(
  deps: Pick<KycServiceDeps, 'tradingVolumes'>,
  userId: number,
  executor: Kysely<DB>,
): Promise<boolean> {
  return (await deps.tradingVolumes.listOverSourceOfWealthThreshold([userId], executor)).length > 0;
}

/** Once verification is submitted, a change to a screened detail screens the customer again. */
export async function rescreen(
  deps: Pick<KycServiceDeps, 'sanctions'>,
  user: KycUserRow,
  trigger: ScreeningTrigger,
): Promise<void> {
  if (user.verification_completed_at) await deps.sanctions?.screenCustomer(user.id, trigger);
}

export function toDirector(row: DirectorRow, documents: readonly DocumentRow[]): Director {
  const own = documents.filter((document) => document.director_id === row.id);
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    shareHolding: row.share_holding,
    address: row.address,
    city: row.city,
    zip: row.zip,
    country: row.country,
    phone: row.phone,
    birthdate: row.birthdate,
    owner: isOwnerStatus(row.status) ? 1 : 0,
    director: isDirectorStatus(row.status) ? 1 : 0,
    status: row.status,
    ...directorFlags(own.map(toCurrent)),
    documents: own.map(toDocument),
  };
}

export async function loadDirector(
  repository: Pick<KycRepository, 'findDirector' | 'listCurrentDocuments'>,
  company: CompanyRow,
  directorId: number,
): Promise<Director> {
  const director = await repository.findDirector(company.id, directorId);
  if (!director) throw new AppError('NOT_FOUND');
  return toDirector(director, await repository.listCurrentDocuments(company.user_id));
}
