import { createAccountType } from './account-type.js';
import { createAnswers } from './answers.js';
import { createCompany } from './company.js';
import { createDirectors } from './directors.js';
import { createDetails } from './details.js';
import { createDocumentFiles } from './document-files.js';
import type { KycServiceDeps } from './shared.js';
import { createUploads } from './uploads.js';
import { createVerificationState } from './verification-state.js';

export { percentToHundredths } from './directors.js';
export type { DocumentFile, IncomingFile, KycServiceDeps } from './shared.js';
export { sanitiseFileName, type DirectorDocumentType } from './uploads.js';
export { isEveryStepSubmitted } from './flags.js';

/**
 * The customer's side of identity verification (spec 000 sections 2-9 and
 * DECISIONS.md "Who may do what"): details, source of wealth, the company and
 * its directors and owners, every upload, and the flags GET /api/v1/user
 * shows. Staff decisions live in the back office; the functions it shares
 * with this module are marked in verification-state.ts and document-files.ts.
 */
export function createKycService(deps: KycServiceDeps) {
  const verification = createVerificationState(deps);
  return {
    ...verification,
    ...createDetails(deps),
    ...createAccountType(deps, verification),
    ...createAnswers(deps),
    ...createCompany(deps),
    ...createDirectors(deps),
    ...createUploads(deps),
    ...createDocumentFiles(deps),
  };
}

export type KycService = ReturnType<typeof createKycService>;
