import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Customers, their sessions and the one-time tokens and codes of identity:
 * e-mail verification, password reset, e-mail change, 2FA recovery. Every
 * token and code is stored as a SHA-256 hash, never as sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE users (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_identification text NOT NULL UNIQUE,
      first_name text NOT NULL,
      last_name text NOT NULL,
      email text NOT NULL,
      password_hash text NOT NULL,
      email_verified_at timestamptz,
      pending_email text,
      status smallint NOT NULL DEFAULT 0,
      block_status smallint NOT NULL DEFAULT 0,
      account_type text CHECK (account_type IN ('Individual', 'Corporate')),
      platform smallint NOT NULL DEFAULT 1 CHECK (platform IN (1, 2)),
      upgraded smallint NOT NULL DEFAULT 0,
      totp_secret_encrypted text,
      totp_pending_secret_encrypted text,
      -- the last 30-second step whose code was accepted: a code is good once
      totp_last_step bigint,
      platform_2fa_mobile boolean NOT NULL DEFAULT false,
      referral_code text NOT NULL UNIQUE,
      referred_by_user_id integer REFERENCES users (id),
      last_login_at timestamptz,
      previous_login_at timestamptz,
      password_changed_at timestamptz NOT NULL DEFAULT now(),
      login_notifications boolean NOT NULL DEFAULT true,
      loginout_notifications boolean NOT NULL DEFAULT false,
      marketing_notifications boolean NOT NULL DEFAULT false,
      trade_notifications boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT users_no_self_referral CHECK (referred_by_user_id IS DISTINCT FROM id)
    );
    CREATE UNIQUE INDEX users_email ON users (lower(email));

    ALTER TABLE accounts ADD CONSTRAINT accounts_owner FOREIGN KEY (owner_user_id) REFERENCES users (id);

    CREATE TABLE sessions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      user_id integer NOT NULL REFERENCES users (id),
      csrf_token text NOT NULL,
      ip text,
      user_agent text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX sessions_user ON sessions (user_id) WHERE revoked_at IS NULL;

    -- Password right, second factor pending: good for one /login-2fa within minutes.
    CREATE TABLE login_challenges (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      user_id integer NOT NULL REFERENCES users (id),
      expires_at timestamptz NOT NULL,
      failed_attempts integer NOT NULL DEFAULT 0,
      used_at timestamptz
    );

    CREATE TABLE email_tokens (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      purpose text NOT NULL CHECK (purpose IN ('verify_email', 'password_reset', 'email_change')),
      token_hash text NOT NULL UNIQUE,
      new_email text,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX email_tokens_user ON email_tokens (user_id, purpose) WHERE used_at IS NULL;

    CREATE TABLE recovery_codes (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      code_hash text NOT NULL,
      used_at timestamptz
    );
    CREATE INDEX recovery_codes_user ON recovery_codes (user_id) WHERE used_at IS NULL;

    -- Sliding-window counters behind the per-account and per-IP abuse limits,
    -- in the database so several instances share them.
    CREATE TABLE rate_limit_hits (
      key text NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX rate_limit_hits_key ON rate_limit_hits (key, at);

    -- An ALTCHA challenge is good once.
    CREATE TABLE used_captchas (
      signature text PRIMARY KEY,
      expires_at timestamptz NOT NULL
    );

    -- The dev mailbox: mail the embedded default "sends", readable at /dev/mailbox.
    CREATE TABLE dev_mailbox (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      "to" text NOT NULL,
      subject text NOT NULL,
      text text NOT NULL,
      html text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    -- What Florin told each customer (the Alerts tab lists it).
    CREATE TABLE notifications (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      event text NOT NULL,
      subject text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notifications_user ON notifications (user_id, id DESC);
  `,
  );
}
