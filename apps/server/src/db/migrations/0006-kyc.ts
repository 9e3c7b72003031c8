import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Identity verification: the customer's details, their source-of-wealth
 * answers, a Corporate customer's company and its directors and owners, and
 * every uploaded document with its review. Files live in the storage adapter;
 * a row holds only the random storage key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE users
      ADD COLUMN country text,
      ADD COLUMN address text,
      ADD COLUMN city text,
      ADD COLUMN zip text,
      ADD COLUMN phone text,
      ADD COLUMN birthdate date,
      -- HMRC cryptoasset reporting: nationality, tax residence and the NI number or foreign tax id
      ADD COLUMN nationality text,
      ADD COLUMN tax_residence text,
      ADD COLUMN tax_id text,
      -- the address step was saved (the spec's is_kyc_submitted for an Individual)
      ADD COLUMN details_submitted_at timestamptz,
      -- staff asked for the source of wealth again; answering clears it
      ADD COLUMN is_sow_reset smallint NOT NULL DEFAULT 0 CHECK (is_sow_reset IN (0, 1)),
      ADD COLUMN ico_confirmed smallint NOT NULL DEFAULT 0 CHECK (ico_confirmed IN (0, 1)),
      ADD COLUMN account_tiers_class smallint NOT NULL DEFAULT 1,
      -- the customer finished the wizard (the completion dialog); staff review from here
      ADD COLUMN verification_completed_at timestamptz,
      ADD COLUMN live_since timestamptz;

    CREATE TABLE kyc_answers (
      user_id integer PRIMARY KEY REFERENCES users (id),
      -- expects to trade more than 15,000 pounds a year (1) or not (0): which wealth form was answered
      trades_over_threshold smallint NOT NULL CHECK (trades_over_threshold IN (0, 1)),
      initial_investment text,
      annual_income text,
      net_worth text,
      investment_portfolio text,
      source_of_wealth text,
      experience text,
      investment_trades text,
      aware_of_risk smallint NOT NULL CHECK (aware_of_risk IN (0, 1)),
      offense smallint CHECK (offense IN (0, 1)),
      offense_details text,
      criminal smallint CHECK (criminal IN (0, 1)),
      criminal_details text,
      caution smallint CHECK (caution IN (0, 1)),
      caution_details text,
      ccj smallint CHECK (ccj IN (0, 1)),
      ccj_details text,
      submitted_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE companies (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL UNIQUE REFERENCES users (id),
      name text NOT NULL,
      company_number text NOT NULL,
      address text NOT NULL,
      city text NOT NULL,
      country text NOT NULL,
      zip text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- one customer per registered company
    CREATE UNIQUE INDEX companies_number ON companies (country, upper(replace(company_number, ' ', '')));

    CREATE TABLE company_directors (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies (id),
      first_name text NOT NULL,
      last_name text NOT NULL,
      share_holding numeric(5, 2) NOT NULL CHECK (share_holding >= 0 AND share_holding <= 100),
      address text NOT NULL,
      city text NOT NULL,
      zip text NOT NULL,
      country text NOT NULL,
      phone text NOT NULL,
      birthdate date NOT NULL,
      -- 1 owner only, 2 director only, 3 both
      status smallint NOT NULL CHECK (status IN (1, 2, 3)),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- kept, with their documents, as a record of what was declared
      deleted_at timestamptz
    );
    CREATE INDEX company_directors_company ON company_directors (company_id) WHERE deleted_at IS NULL;

    CREATE TABLE kyc_documents (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      -- null: the customer's own (or their company's) document
      director_id integer REFERENCES company_directors (id),
      key text NOT NULL CHECK (key IN (
        'passport', 'national_id_front', 'id_front', 'id_back', 'proof_selfie', 'proof_address',
        'coi', 'aoa', 'cproof_address')),
      storage_key text NOT NULL UNIQUE,
      content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf')),
      original_name text NOT NULL,
      size_bytes integer NOT NULL CHECK (size_bytes > 0),
      sha256 text NOT NULL,
      -- superseded: replaced by a newer upload of the same kind, kept as a record
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'declined', 'superseded')),
      disapprove_note text,
      reviewed_by_staff_id integer REFERENCES staff (id),
      reviewed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT kyc_documents_note CHECK (status <> 'declined' OR disapprove_note IS NOT NULL)
    );
    -- one current document of each kind per customer, and per director
    CREATE UNIQUE INDEX kyc_documents_current ON kyc_documents (user_id, coalesce(director_id, 0), key)
      WHERE status <> 'superseded';
    CREATE INDEX kyc_documents_pending ON kyc_documents (created_at) WHERE status = 'pending';
  `,
  );
}
