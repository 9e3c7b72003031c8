import { createHits } from './hits.js';
import { createListImport } from './list-import.js';
import { createScreening } from './screening.js';
import { createScreeningHistory } from './screening-history.js';
import type { SanctionsServiceDeps } from './shared.js';

export type { UploadedList } from './list-import.js';
export type { SanctionsScreener } from './screening.js';

/**
 * Sanctions screening (issue 13): the consolidated list compliance imports,
 * the screening of customers, companies and their directors and owners
 * against it, and the hits compliance reviews. A screening with an unreviewed
 * match puts the account on hold through the compliance service, as staff
 * would; a false positive is recorded but never lifts a hold by itself.
 */
export function createSanctionsService(deps: SanctionsServiceDeps) {
  // Screening everyone is the import's last step, not something callers ask for on its own.
  const { rescreenEveryone, ...screening } = createScreening(deps);
  return {
    ...createListImport(deps, rescreenEveryone),
    ...screening,
    ...createHits(deps),
    ...createScreeningHistory(deps),
  };
}

export type SanctionsService = ReturnType<typeof createSanctionsService>;
