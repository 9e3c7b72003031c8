import type { ColumnType, Generated } from 'kysely';
import type { Int8Id, CreatedAt } from './columns.js';

// Back-office staff, their sign-in and the audit log of what they do.

export type StaffRole = 'superadmin' | 'compliance' | 'finance' | 'support';

export type StaffTable = {
  id: Generated<number>;
  email: string;
  /** Null until a member added by a superadmin follows their set-password link. */
  password_hash: string | null;
  role: StaffRole;
  totp_secret_encrypted: string | null;
  totp_last_step: string | null;
  disabled_at: Date | null;
  last_sign_in_at: Date | null;
  created_at: CreatedAt;
};

export type StaffSessionsTable = {
  id: Int8Id;
  token_hash: string;
  staff_id: number;
  csrf_token: string;
  ip: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
  last_seen_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
};

export type StaffLoginChallengesTable = {
  id: Int8Id;
  token_hash: string;
  staff_id: number;
  pending_totp_secret_encrypted: string | null;
  expires_at: Date;
  failed_attempts: Generated<number>;
  used_at: Date | null;
};

export type StaffPasswordTokensTable = {
  id: Int8Id;
  token_hash: string;
  staff_id: number;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
};

/** Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE). */
export type AuditLogTable = {
  id: Int8Id;
  staff_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: ColumnType<Record<string, unknown> | null, string | null, never>;
  after: ColumnType<Record<string, unknown> | null, string | null, never>;
  ip: string | null;
  created_at: CreatedAt;
};
