import type { DocumentKey, YesNo } from '@florin/contracts';
import { hasCompanyDirector } from '@florin/domain';
import type { KycDocumentStatus } from '../../db/schema.js';

/**
 * The verification flags the web reads from GET /api/v1/user (spec 000
 * sections 3 and 4), derived in one place from what is stored, so that the
 * wizard, Getting Started, the shell and the back office never disagree.
 */

/** The identity documents: one of them (or the licence pair) proves who someone is, and each replaces the others. */
export const IDENTITY_KEYS = ['passport', 'national_id_front', 'id_front', 'id_back'] as const;
export const COMPANY_KEYS = ['coi', 'aoa', 'cproof_address'] as const;
export const INDIVIDUAL_KEYS = [...IDENTITY_KEYS, 'proof_selfie', 'proof_address'] as const;
/** What a director or owner is asked for: who they are and where they live. */
export const DIRECTOR_KEYS = [...IDENTITY_KEYS, 'proof_address'] as const;

/** A document as the flags see it: its kind and review state (superseded ones are never current). */
export type CurrentDocument = { key: DocumentKey; status: Exclude<KycDocumentStatus, 'superseded'> };

export type FlagsInput = {
  accountType: 'Individual' | 'Corporate' | null;
  /** The address and contact details step was saved. */
  hasDetails: boolean;
  /** Source-of-wealth answers exist. */
  hasAnswers: boolean;
  hasCompany: boolean;
  /** The wizard was handed in (verification_completed_at): a company's people were checked as they were. */
  handedIn: boolean;
  /** The customer's own current documents (the company's, for a Corporate). */
  documents: readonly CurrentDocument[];
  /**
   * Every director and owner not deleted: whether their status makes them a director (2 or 3),
   * and their current documents.
   */
  directors: readonly { isDirector: boolean; documents: readonly CurrentDocument[] }[];
};

export type DirectorFlags = { identity_done: YesNo; proof_address_done: YesNo };

export type VerificationFlags = {
  is_kyc_submitted: YesNo;
  is_photo_id_submitted: YesNo;
  is_selfie_submitted: YesNo;
  is_proof_address_submitted: YesNo;
  is_wealth_submitted: YesNo;
  /** Declined documents still current: the customer's own and their directors'. */
  denied_documents: number;
  directors: DirectorFlags[];
};

const yesNo = (value: boolean): YesNo => (value ? 1 : 0);

function keysOf(documents: readonly CurrentDocument[]): Set<DocumentKey> {
  return new Set(documents.map((document) => document.key));
}

/** A passport, a national id, or both sides of a driver licence (declined ones count: the Rejected view asks again). */
export function hasIdentity(keys: ReadonlySet<DocumentKey>): boolean {
  return (
    keys.has('passport') || keys.has('national_id_front') || (keys.has('id_front') && keys.has('id_back'))
  );
}

export function directorFlags(documents: readonly CurrentDocument[]): DirectorFlags {
  const keys = keysOf(documents);
  return { identity_done: yesNo(hasIdentity(keys)), proof_address_done: yesNo(keys.has('proof_address')) };
}

/**
 * A step counts as submitted once its documents are uploaded, whatever their
 * review: a declined document is still "submitted" and shows up in
 * denied_documents instead, which is what sends the customer to the Rejected
 * view. Source of wealth stays submitted while staff have reset it
 * (is_sow_reset), so the reset screen, not the wizard, asks again.
 */
export function deriveVerificationFlags(input: FlagsInput): VerificationFlags {
  const keys = keysOf(input.documents);
  const directors = input.directors.map((director) => directorFlags(director.documents));
  const deniedOwn = input.documents.filter((document) => document.status === 'declined').length;
  const deniedDirectors = input.directors
    .flatMap((director) => director.documents)
    .filter((document) => document.status === 'declined').length;
  const common = {
    is_wealth_submitted: yesNo(input.hasAnswers),
    denied_documents: deniedOwn + deniedDirectors,
  };

  if (input.accountType === 'Corporate') {
    // Owners alone do not run a company: up to hand-in the steps that identify its people need a
    // director too. A company handed in before that rule (2026-11-29) was checked with owners only
    // and is not sent back by it; handed in, someone must still be listed.
    const hasDirectors = input.handedIn ? input.directors.length > 0 : hasCompanyDirector(input.directors);
    return {
      ...common,
      is_kyc_submitted: yesNo(input.hasCompany),
      is_photo_id_submitted: yesNo(
        keys.has('coi') &&
          keys.has('aoa') &&
          hasDirectors &&
          directors.every((director) => director.identity_done === 1),
      ),
      is_proof_address_submitted: yesNo(
        keys.has('cproof_address') &&
          hasDirectors &&
          directors.every((director) => director.proof_address_done === 1),
      ),
      // A company has no face: the directors' identity documents stand for it.
      is_selfie_submitted: 1,
      directors,
    };
  }
  return {
    ...common,
    is_kyc_submitted: yesNo(input.hasDetails),
    is_photo_id_submitted: yesNo(hasIdentity(keys)),
    is_selfie_submitted: yesNo(keys.has('proof_selfie')),
    is_proof_address_submitted: yesNo(keys.has('proof_address')),
    directors,
  };
}

/** Every step of the account's kind is submitted: the customer may choose Instant or Trade. */
export function isEveryStepSubmitted(
  flags: Pick<
    VerificationFlags,
    | 'is_kyc_submitted'
    | 'is_photo_id_submitted'
    | 'is_selfie_submitted'
    | 'is_proof_address_submitted'
    | 'is_wealth_submitted'
  >,
): boolean {
  return (
    flags.is_kyc_submitted === 1 &&
    flags.is_photo_id_submitted === 1 &&
    flags.is_selfie_submitted === 1 &&
    flags.is_proof_address_submitted === 1 &&
    flags.is_wealth_submitted === 1
  );
}

/**
 * The current documents a new upload replaces (they become superseded). The
 * identity documents are one group: a passport or a national id replaces any
 * other identity document; one side of a licence replaces the other kinds but
 * keeps the other side, so a declined front can be uploaded again alone.
 */
export function keysReplacedBy(uploaded: readonly DocumentKey[]): DocumentKey[] {
  const replaced = new Set<DocumentKey>(uploaded);
  const has = (key: DocumentKey) => uploaded.includes(key);
  if (has('passport') || has('national_id_front') || (has('id_front') && has('id_back'))) {
    for (const key of IDENTITY_KEYS) replaced.add(key);
  } else if (has('id_front') || has('id_back')) {
    replaced.add('passport');
    replaced.add('national_id_front');
  }
  return [...replaced];
}
