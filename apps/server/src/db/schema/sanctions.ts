import type { ColumnType, Generated } from 'kysely';
import type { Int8Id, CreatedAt } from './columns.js';

// Sanctions lists, screenings and the hits compliance reviews.

/** Sanctions screening (migration 0024, issue 13): each import of the consolidated list. */
export type SanctionsListsTable = {
  id: Generated<number>;
  file_name: string;
  sha256: string;
  size_bytes: number;
  /** DATE: read with to_char. */
  list_updated_on: string;
  row_count: number;
  designation_count: number;
  individual_count: number;
  entity_count: number;
  ship_count: number;
  imported_by_staff_id: number;
  imported_at: CreatedAt;
  replaced_at: Date | null;
};

/** The rows of the active list, one per name or alias. */
export type SanctionsListEntriesTable = {
  id: Generated<number>;
  list_id: number;
  line: number;
  group_id: string;
  group_type: 'Individual' | 'Entity' | 'Ship';
  surname: string;
  given_names: string;
  title: string | null;
  dob: string | null;
  town_of_birth: string | null;
  country_of_birth: string | null;
  nationality: string | null;
  alias_type: string | null;
  regime: string | null;
  listed_on: string | null;
};

export type SanctionsScreeningSubject = {
  kind: 'customer' | 'company' | 'director';
  name: string;
  birthdate: string | null;
};

export type SanctionsScreeningMatch = {
  hit_id: number;
  subject_kind: 'customer' | 'company' | 'director';
  subject_name: string;
  group_id: string;
  listed_name: string;
  status: 'open' | 'false_positive' | 'confirmed' | 'delisted';
};

/** Every screening of a customer, clear or not: evidence. */
export type SanctionsScreeningsTable = {
  id: Int8Id;
  user_id: number;
  list_id: number;
  trigger:
    | 'onboarding'
    | 'details_changed'
    | 'company_changed'
    | 'directors_changed'
    | 'identity_edited'
    | 'list_imported';
  outcome: 'clear' | 'hit' | 'reviewed';
  subjects: ColumnType<SanctionsScreeningSubject[], string, never>;
  /** Filled in once the screening's hits are written (they need its id). */
  matches: ColumnType<SanctionsScreeningMatch[], string | undefined, string>;
  screened_at: Generated<Date>;
};

/** Possible matches for compliance to review, one per customer, subject and designation. */
export type SanctionsHitsTable = {
  id: Generated<number>;
  user_id: number;
  match_key: string;
  subject_kind: 'customer' | 'company' | 'director';
  director_id: number | null;
  subject_name: string;
  subject_birthdate: string | null;
  list_id: number;
  group_id: string;
  group_type: 'Individual' | 'Entity';
  listed_name: string;
  listed_dobs: string | null;
  regime: string | null;
  status: Generated<'open' | 'false_positive' | 'confirmed' | 'delisted'>;
  first_screening_id: string;
  last_screening_id: string;
  found_at: Generated<Date>;
  last_found_at: Generated<Date>;
  review_note: string | null;
  reviewed_by_staff_id: number | null;
  reviewed_at: Date | null;
  /** Set when a confirmed match's designation was revoked (migration 0030). */
  delisted_note: string | null;
  delisted_by_staff_id: number | null;
  delisted_at: Date | null;
};
