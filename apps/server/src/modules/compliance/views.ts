import {
  COMPLIANCE_TEXTS,
  DOCUMENT_LABELS,
  sanctionsMatchBlocker,
  type AdminDocument,
  type CustomerDetails,
  type GoLiveCheck,
  type SanctionsMatch,
  type VerificationState,
  type VerificationSteps,
} from '@florin/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CustomerRow, DocumentRow } from './repository.js';

/** Rows as the back office's contracts show them: dates as ISO text, labels beside keys. */

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

export function toAdminDocument(row: DocumentRow): AdminDocument {
  return {
    id: Number(row.id),
    key: row.key,
    label: DOCUMENT_LABELS[row.key],
    status: row.status,
    disapprove_note: row.disapprove_note,
    director_id: row.director_id,
    director_name: row.director_name,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    created_at: row.created_at.toISOString(),
    reviewed_at: iso(row.reviewed_at),
    reviewed_by: row.reviewed_by,
  };
}

export function toCustomerDetails(row: CustomerRow): CustomerDetails {
  return {
    id: row.id,
    user_identification: row.user_identification,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    account_type: row.account_type,
    status: row.status,
    block_status: row.block_status,
    created_at: row.created_at.toISOString(),
    platform: row.platform,
    block_reason: row.block_reason,
    live_since: iso(row.live_since),
    country: row.country,
    address: row.address,
    city: row.city,
    zip: row.zip,
    phone: row.phone,
    birthdate: row.birthdate,
    nationality: row.nationality,
    tax_residence: row.tax_residence,
    tax_id: row.tax_id,
    is_sow_reset: row.is_sow_reset,
    details_submitted_at: iso(row.details_submitted_at),
    verification_completed_at: iso(row.verification_completed_at),
  };
}

/** The current documents: the newest upload of each kind, per owner (customer, company or director). */
export function currentDocuments(rows: readonly DocumentRow[]): DocumentRow[] {
  return rows.filter((row) => row.status !== 'superseded');
}

/**
 * An account goes live once the customer finished the wizard, every step of
 * it is still submitted, and every current document, their own, their
 * company's and their directors', is approved: the blockers say what is
 * missing, in the order to fix it. A step goes missing after the wizard when
 * a new address supersedes the proof of address or a company loses its last
 * director.
 */
export function checkGoLive(
  customer: CustomerRow,
  documents: readonly DocumentRow[],
  isEveryStepSubmitted: boolean,
  sanctionsMatch: SanctionsMatch | null,
): GoLiveCheck {
  const current = currentDocuments(documents);
  const blockers: string[] = [];
  // First: approving the documents would not let the customer go live.
  if (sanctionsMatch) blockers.push(sanctionsMatchBlocker(sanctionsMatch));
  if (!customer.verification_completed_at) blockers.push(COMPLIANCE_TEXTS.notCompleted);
  else if (isEveryStepSubmitted === false) blockers.push(COMPLIANCE_TEXTS.stepMissing);
  if (current.length === 0) blockers.push(COMPLIANCE_TEXTS.noDocuments);
  if (current.some((row) => row.status === 'pending')) blockers.push(COMPLIANCE_TEXTS.documentsPending);
  if (current.some((row) => row.status === 'declined')) blockers.push(COMPLIANCE_TEXTS.documentsDeclined);
  return { allowed: blockers.length === 0, blockers };
}

export function toVerificationSteps(state: VerificationState): VerificationSteps {
  return {
    is_kyc_submitted: state.is_kyc_submitted,
    is_wealth_submitted: state.is_wealth_submitted,
    is_photo_id_submitted: state.is_photo_id_submitted,
    is_proof_address_submitted: state.is_proof_address_submitted,
    is_selfie_submitted: state.is_selfie_submitted,
    verification_completed: state.verification_completed,
    denied_documents: state.denied_documents,
  };
}

/** What the back office needs of the KYC module: where the customer is in the wizard, and the stored files. */
export type KycReader = {
  getVerificationState: (userId: number) => Promise<VerificationState>;
  /** Read with `executor` (a transaction holding the customer's lock) when given. */
  hasEveryStepSubmitted: (userId: number, executor?: Kysely<DB>) => Promise<boolean>;
  readStoredBytes: (storageKey: string) => Promise<Buffer>;
};
