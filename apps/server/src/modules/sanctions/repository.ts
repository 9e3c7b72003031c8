import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { createSanctionsHitRepository } from './hit-repository.js';
import { createSanctionsListRepository } from './list-repository.js';
import { createSanctionsScreeningRepository } from './screening-repository.js';
import { createSanctionsSubjectRepository } from './subject-repository.js';

export type { HitRow, NewHit } from './hit-repository.js';
export type { ListRow } from './list-repository.js';
export type { NewScreening, ScreeningRow } from './screening-repository.js';
export type { SubjectRow } from './subject-repository.js';

/**
 * The only place the sanctions module builds queries: lists, the subjects screened, screenings and
 * hits have a file each, composed here into one object.
 */
export function createSanctionsRepository(db: Kysely<DB>) {
  return {
    ...createSanctionsListRepository(db),
    ...createSanctionsSubjectRepository(db),
    ...createSanctionsScreeningRepository(db),
    ...createSanctionsHitRepository(db),
  };
}

export type SanctionsRepository = ReturnType<typeof createSanctionsRepository>;
