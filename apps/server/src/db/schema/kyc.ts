import type { Generated } from 'kysely';
import type { Numeric, Int8Id, CreatedAt, WriteOrder } from './columns.js';

// Know-your-customer answers, companies, directors and documents.

export type KycAnswersTable = {
  user_id: number;
  trades_over_threshold: number;
  initial_investment: string | null;
  annual_income: string | null;
  net_worth: string | null;
  investment_portfolio: string | null;
  source_of_wealth: string | null;
  experience: string | null;
  investment_trades: string | null;
  aware_of_risk: number;
  offense: number | null;
  offense_details: string | null;
  criminal: number | null;
  criminal_details: string | null;
  caution: number | null;
  caution_details: string | null;
  ccj: number | null;
  ccj_details: string | null;
  submitted_at: Generated<Date>;
  updated_at: Generated<Date>;
};

export type CompaniesTable = {
  id: Generated<number>;
  seq: WriteOrder;
  user_id: number;
  name: string;
  company_number: string;
  address: string;
  city: string;
  country: string;
  zip: string;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
};

export type CompanyDirectorsTable = {
  id: Generated<number>;
  seq: WriteOrder;
  company_id: number;
  first_name: string;
  last_name: string;
  share_holding: Numeric;
  address: string;
  city: string;
  zip: string;
  country: string;
  phone: string;
  birthdate: string;
  status: number;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
  deleted_at: Date | null;
};

export type KycDocumentKey =
  | 'passport'
  | 'national_id_front'
  | 'id_front'
  | 'id_back'
  | 'proof_selfie'
  | 'proof_address'
  | 'coi'
  | 'aoa'
  | 'cproof_address';
export type KycDocumentStatus = 'pending' | 'approved' | 'declined' | 'superseded';

export type KycDocumentsTable = {
  id: Int8Id;
  seq: WriteOrder;
  user_id: number;
  director_id: number | null;
  key: KycDocumentKey;
  storage_key: string;
  content_type: 'image/jpeg' | 'image/png' | 'application/pdf';
  original_name: string;
  size_bytes: number;
  sha256: string;
  status: Generated<KycDocumentStatus>;
  disapprove_note: string | null;
  reviewed_by_staff_id: number | null;
  reviewed_at: Date | null;
  created_at: CreatedAt;
};
