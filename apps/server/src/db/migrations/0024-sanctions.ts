import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Sanctions screening (issue 13).
 *
 * sanctions_lists: every import of OFSI's consolidated list (ConList.csv):
 * the file's name, size and SHA-256, its own Last Updated date, its counts,
 * who imported it and when. The one not replaced is the active list; an
 * import replaces it in the same transaction that makes the new one.
 *
 * sanctions_list_entries: the rows of the active list (one per name or alias,
 * grouped by Group ID). A replaced list's rows are deleted with the import:
 * what a screening matched is copied into its hit, so the evidence never
 * needs them.
 *
 * sanctions_screenings: every screening of a customer, clear or not, with the
 * list it used, what set it off, whose names were screened and what matched:
 * evidence kept with the customer's record.
 *
 * sanctions_hits: possible matches to review, one per customer, screened
 * subject (its name and date of birth as screened) and designation, so that a
 * later screening finding the same again updates it rather than adding
 * another, and a match marked a false positive stays decided.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE sanctions_lists (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      file_name text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 200),
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      size_bytes integer NOT NULL CHECK (size_bytes > 0),
      list_updated_on date NOT NULL,
      row_count integer NOT NULL CHECK (row_count > 0),
      designation_count integer NOT NULL CHECK (designation_count > 0),
      individual_count integer NOT NULL CHECK (individual_count >= 0),
      entity_count integer NOT NULL CHECK (entity_count >= 0),
      ship_count integer NOT NULL CHECK (ship_count >= 0),
      imported_by_staff_id integer NOT NULL REFERENCES staff (id),
      imported_at timestamptz NOT NULL DEFAULT now(),
      replaced_at timestamptz
    );
    -- One active list at a time.
    CREATE UNIQUE INDEX sanctions_lists_active ON sanctions_lists ((replaced_at IS NULL)) WHERE replaced_at IS NULL;

    CREATE TABLE sanctions_list_entries (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      list_id integer NOT NULL REFERENCES sanctions_lists (id),
      line integer NOT NULL,
      group_id text NOT NULL,
      group_type text NOT NULL CHECK (group_type IN ('Individual', 'Entity', 'Ship')),
      surname text NOT NULL,
      given_names text NOT NULL,
      title text,
      dob text,
      town_of_birth text,
      country_of_birth text,
      nationality text,
      alias_type text,
      regime text,
      listed_on text,
      CHECK (surname <> '' OR given_names <> '')
    );
    CREATE INDEX sanctions_list_entries_list ON sanctions_list_entries (list_id, group_id);

    CREATE TABLE sanctions_screenings (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      list_id integer NOT NULL REFERENCES sanctions_lists (id),
      trigger text NOT NULL CHECK (trigger IN ('onboarding', 'details_changed', 'company_changed',
        'directors_changed', 'identity_edited', 'list_imported')),
      outcome text NOT NULL CHECK (outcome IN ('clear', 'hit', 'reviewed')),
      subjects jsonb NOT NULL,
      matches jsonb NOT NULL DEFAULT '[]'::jsonb,
      screened_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX sanctions_screenings_user ON sanctions_screenings (user_id, id DESC);

    CREATE TABLE sanctions_hits (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      match_key text NOT NULL,
      subject_kind text NOT NULL CHECK (subject_kind IN ('customer', 'company', 'director')),
      director_id integer REFERENCES company_directors (id),
      subject_name text NOT NULL,
      subject_birthdate text,
      list_id integer NOT NULL REFERENCES sanctions_lists (id),
      group_id text NOT NULL,
      group_type text NOT NULL CHECK (group_type IN ('Individual', 'Entity')),
      listed_name text NOT NULL,
      listed_dobs text,
      regime text,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'false_positive')),
      first_screening_id bigint NOT NULL REFERENCES sanctions_screenings (id),
      last_screening_id bigint NOT NULL REFERENCES sanctions_screenings (id),
      found_at timestamptz NOT NULL DEFAULT now(),
      last_found_at timestamptz NOT NULL DEFAULT now(),
      review_note text CHECK (length(review_note) BETWEEN 1 AND 500),
      reviewed_by_staff_id integer REFERENCES staff (id),
      reviewed_at timestamptz,
      UNIQUE (user_id, match_key),
      CHECK ((status = 'open') = (reviewed_at IS NULL)),
      CHECK ((status = 'open') = (review_note IS NULL))
    );
    -- The sanctions screen lists the open hits, newest first.
    CREATE INDEX sanctions_hits_status ON sanctions_hits (status, id DESC);
    `,
  );
}
