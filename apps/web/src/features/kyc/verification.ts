import {
  ACCEPTED_UPLOAD_TYPES,
  ERROR_CODES,
  KYC_TEXTS,
  MAX_UPLOAD_MB,
  type Company,
  type Director,
  type Document,
  type DocumentKey,
} from '@florin/contracts';
import type { WizardFlags } from '@florin/domain';
import { isFullyVerified } from '../../lib/current-user';
import type { DirectorDocumentType } from './api/upload-director-document';

/** What the verification screens read from the user: the shell's user plus VerificationStateSchema. */
export type VerificationFacts = {
  status: number;
  block_status: number;
  account_type: 'Individual' | 'Corporate' | null;
  is_kyc_submitted: 0 | 1;
  is_wealth_submitted: 0 | 1;
  is_photo_id_submitted: 0 | 1;
  is_proof_address_submitted: 0 | 1;
  is_selfie_submitted: 0 | 1;
  is_sow_reset: 0 | 1;
  verification_completed: 0 | 1;
  documents: readonly Document[];
  company: Company | null;
};

export const COMPANY_DOCUMENT_KEYS = [
  'coi',
  'aoa',
  'cproof_address',
] as const satisfies readonly DocumentKey[];

const isDeclined = (document: Document) => document.is_admin_approved < 0;
const isPending = (document: Document) => document.is_admin_approved === 0;

function allDocuments(facts: Pick<VerificationFacts, 'documents' | 'company'>): Document[] {
  return [...facts.documents, ...(facts.company?.directors.flatMap((director) => director.documents) ?? [])];
}

/** A document to upload again: the customer's own, or one of a director's. */
export type DeclinedDocument = { document: Document; director: Director | null };

/** Every declined document still to re-upload, the customer's first, then each director's. */
export function declinedDocuments(
  facts: Pick<VerificationFacts, 'documents' | 'company'>,
): DeclinedDocument[] {
  return [
    ...facts.documents.filter(isDeclined).map((document) => ({ document, director: null })),
    ...(facts.company?.directors ?? []).flatMap((director) =>
      director.documents.filter(isDeclined).map((document) => ({ document, director })),
    ),
  ];
}

export function hasDocumentsAwaitingReview(facts: Pick<VerificationFacts, 'documents' | 'company'>): boolean {
  return allDocuments(facts).some(isPending);
}

/**
 * Get Started is closed while staff review what was sent (spec 000 section 2). Only once the
 * wizard is finished: a customer half-way through has uploads awaiting review too, and must be
 * able to carry on.
 */
export function isAwaitingReview(facts: VerificationFacts): boolean {
  return facts.verification_completed === 1 && hasDocumentsAwaitingReview(facts);
}

/**
 * Whether the signed-in shell shows Getting Started (or the source-of-wealth reset screen)
 * instead of the page asked for (spec 000 section 2, DECISIONS.md).
 */
export function needsVerificationScreen(facts: VerificationFacts): boolean {
  return (
    facts.status !== 1 ||
    facts.is_sow_reset === 1 ||
    declinedDocuments(facts).length > 0 ||
    !isFullyVerified(facts)
  );
}

/** The wizard's reading of the user (spec 000 section 4). */
export function wizardFlagsOf(facts: VerificationFacts): WizardFlags {
  const companyKeys = new Set(
    facts.documents
      .filter((document) => !isDeclined(document) && document.director_id === null)
      .map((document) => document.key)
      .filter((key) => (COMPANY_DOCUMENT_KEYS as readonly string[]).includes(key)),
  );
  return {
    accountType: facts.account_type,
    isKycSubmitted: facts.is_kyc_submitted === 1,
    isPhotoIdSubmitted: facts.is_photo_id_submitted === 1,
    isSelfieSubmitted: facts.is_selfie_submitted === 1,
    isProofAddressSubmitted: facts.is_proof_address_submitted === 1,
    isWealthSubmitted: facts.is_wealth_submitted === 1,
    hasCompany: facts.company !== null,
    companyDocumentCount: companyKeys.size,
    directors: (facts.company?.directors ?? []).map((director) => ({
      isDirector: director.director === 1,
      identityDone: director.identity_done === 1,
      proofAddressDone: director.proof_address_done === 1,
    })),
  };
}

/** The company document of this key on file and not declined, if any. */
export function currentDocument(documents: readonly Document[], key: DocumentKey): Document | undefined {
  return documents.find((document) => document.key === key && !isDeclined(document));
}

/** A director's document key as the director upload call names its type. */
export const DIRECTOR_UPLOAD_TYPES: Partial<Record<DocumentKey, DirectorDocumentType>> = {
  passport: 'passport',
  national_id_front: 'national_id',
  id_front: 'driver_license_front',
  id_back: 'driver_license_back',
  proof_address: 'proof_address',
};

const ACCEPTED_EXTENSIONS = ['jpeg', 'jpg', 'png', 'pdf'];
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;

/** What the Dropzone and file buttons accept (the server checks the content again). */
export const ACCEPTED_FILES: Record<string, string[]> = {
  'image/jpeg': ['.jpeg', '.jpg'],
  'image/png': ['.png'],
  'application/pdf': ['.pdf'],
};

/**
 * The client's check before anything is sent (spec 000 section 5): jpeg, jpg, png or pdf by name,
 * case-insensitive, with a matching type when the browser knows one; at most 10 MB. Null when fine.
 */
export function fileProblem(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  const extension = file.name.split('.').at(-1)?.toLowerCase() ?? '';
  const hasAcceptedType =
    file.type === '' || (ACCEPTED_UPLOAD_TYPES as readonly string[]).includes(file.type);
  if (!file.name.includes('.') || !ACCEPTED_EXTENSIONS.includes(extension) || !hasAcceptedType) {
    return KYC_TEXTS.fileFormat;
  }
  if (file.size > MAX_UPLOAD_BYTES) return ERROR_CODES.FILE_TOO_LARGE.message;
  return null;
}

/** A driver licence is its two sides, no more and no fewer. */
export function licenceProblem(files: readonly Pick<File, 'name' | 'type' | 'size'>[]): string | null {
  if (files.length !== 2) return KYC_TEXTS.twoImages;
  return files.map(fileProblem).find((problem) => problem !== null) ?? null;
}

/** The subject the upload-failure dialog asks for: "<first name> <last name> <user_identification>". */
export function complianceMailSubject(user: {
  first_name: string;
  last_name: string;
  user_identification: string;
}): string {
  return `${user.first_name} ${user.last_name} ${user.user_identification}`;
}
