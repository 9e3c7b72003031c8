import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from './columns.js';

// The first-investment journey: profiles, assessments and evidence.

/** The first-investment journey (migration 0023, issue 13). */
export type InvestorProfilesTable = {
  user_id: number;
  category: 'restricted' | 'high_net_worth' | 'sophisticated' | 'large_undertaking' | null;
  categorised_at: Date | null;
  assessment_passed_at: Date | null;
  retake_at: Date | null;
  cooling_off_ends_at: Date | null;
  completed_at: Date | null;
  updated_at: Generated<Date>;
};

/** One attempt of the appropriateness assessment: the questions drawn, as shown, answered once. */
export type AssessmentAttemptsTable = {
  id: string;
  user_id: number;
  questions: ColumnType<{ id: string; option_ids: string[] }[], string, never>;
  started_at: CreatedAt;
  submitted_at: Date | null;
  answers: ColumnType<Record<string, string> | null, never, string>;
  score: number | null;
  total: number | null;
  passed: boolean | null;
};

/** Append-only evidence of every step and warning of the journey. */
export type InvestorEvidenceTable = {
  id: Generated<string>;
  user_id: number;
  step: string;
  details: ColumnType<Record<string, unknown>, string, never>;
  ip: string | null;
  created_at: CreatedAt;
};
