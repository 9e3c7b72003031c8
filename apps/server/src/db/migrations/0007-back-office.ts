import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The back office: staff sign-in (password, then an authenticator code that
 * is enrolled on the first sign-in), staff sessions, set-password links, and
 * the audit log, which the database itself keeps append-only. Tokens are
 * stored as SHA-256 hashes, 2FA secrets sealed with the secret box.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    -- A member added by a superadmin has no password until they follow their set-password link.
    ALTER TABLE staff ALTER COLUMN password_hash DROP NOT NULL;
    -- The last 30-second step whose code was accepted: each code is good once.
    ALTER TABLE staff ADD COLUMN totp_last_step bigint;
    ALTER TABLE staff ADD COLUMN last_sign_in_at timestamptz;

    CREATE TABLE staff_sessions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      staff_id integer NOT NULL REFERENCES staff (id),
      csrf_token text NOT NULL,
      ip text,
      user_agent text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id) WHERE revoked_at IS NULL;

    -- Password right, second factor pending. A member without 2FA gets a new
    -- secret to scan with the challenge; it becomes theirs with the first good code.
    CREATE TABLE staff_login_challenges (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      staff_id integer NOT NULL REFERENCES staff (id),
      pending_totp_secret_encrypted text,
      expires_at timestamptz NOT NULL,
      failed_attempts integer NOT NULL DEFAULT 0,
      used_at timestamptz
    );

    CREATE TABLE staff_password_tokens (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      staff_id integer NOT NULL REFERENCES staff (id),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX staff_password_tokens_staff ON staff_password_tokens (staff_id) WHERE used_at IS NULL;

    -- Who did what to what, when, from where, with the state before and after.
    -- staff_id is null for what nobody signed in did (the system).
    CREATE TABLE audit_log (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      staff_id integer REFERENCES staff (id),
      action text NOT NULL,
      target_type text NOT NULL,
      target_id text,
      before jsonb,
      after jsonb,
      ip text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX audit_log_target ON audit_log (target_type, target_id, id DESC);
    CREATE INDEX audit_log_staff ON audit_log (staff_id, id DESC);

    CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
    END
    $$;
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
    CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
  `,
  );
}
