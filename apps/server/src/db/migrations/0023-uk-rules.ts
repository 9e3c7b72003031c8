import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * UK rules (issue 13): the first-investment journey, and the account's end.
 *
 * The first-investment journey. `investor_profiles` holds where a
 * customer is: their declared category, when they passed the assessment, when
 * the 24-hour cooling-off ends, when they confirmed. Each assessment attempt
 * keeps the questions drawn and the order of their answers as shown, and is
 * answered once. `investor_evidence` is the append-only record of every step
 * and warning, kept like the audit log for the retention period.
 *
 * Customers who had already bought or locked coins before the journey
 * existed are not first-time investors: they are recorded as complete, with
 * an evidence row that says why.
 *
 * The account's end: `terminated_at` is when only withdrawals remain allowed
 * (a month after the firm's notice, or at once when the customer closes the
 * account) and `access_ends_at` when the customer can no longer sign in (60
 * days after a firm's termination; at once after a closure). Personal data is
 * erased five years after `access_ends_at` unless staff hold it for a legal
 * reason (`legal_hold_reason`); the money records stay, under the user's id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE investor_profiles (
      user_id integer PRIMARY KEY REFERENCES users (id),
      category text CHECK (category IN ('restricted', 'high_net_worth', 'sophisticated', 'large_undertaking')),
      categorised_at timestamptz,
      assessment_passed_at timestamptz,
      retake_at timestamptz,
      cooling_off_ends_at timestamptz,
      completed_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((category IS NULL) = (categorised_at IS NULL) OR completed_at IS NOT NULL),
      CHECK ((assessment_passed_at IS NULL) = (cooling_off_ends_at IS NULL))
    );

    CREATE TABLE assessment_attempts (
      id uuid PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      questions jsonb NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      submitted_at timestamptz,
      answers jsonb,
      score integer,
      total integer,
      passed boolean,
      CHECK ((submitted_at IS NULL) = (passed IS NULL))
    );
    CREATE INDEX assessment_attempts_user ON assessment_attempts (user_id, started_at DESC);

    CREATE TABLE investor_evidence (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      step text NOT NULL,
      details jsonb NOT NULL DEFAULT '{}'::jsonb,
      ip text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX investor_evidence_user ON investor_evidence (user_id, id);

    ALTER TABLE users
      ADD COLUMN termination_notice_at timestamptz,
      ADD COLUMN terminated_at timestamptz,
      ADD COLUMN access_ends_at timestamptz,
      ADD COLUMN terminated_by text CHECK (terminated_by IN ('firm', 'customer')),
      ADD COLUMN termination_reason text,
      ADD COLUMN legal_hold_reason text,
      ADD COLUMN personal_data_erased_at timestamptz,
      ADD CONSTRAINT users_termination_complete CHECK (
        (terminated_at IS NULL) = (access_ends_at IS NULL) AND (terminated_at IS NULL) = (terminated_by IS NULL)
      );
    -- The retention job's scan: accounts whose access ended, oldest first.
    CREATE INDEX users_access_ends_at ON users (access_ends_at) WHERE access_ends_at IS NOT NULL;

    INSERT INTO investor_profiles (user_id, completed_at)
    SELECT u.id, now() FROM users u
    WHERE EXISTS (SELECT 1 FROM trades t WHERE t.user_id = u.id AND t.side = 'buy')
       OR EXISTS (SELECT 1 FROM term_deposits d WHERE d.user_id = u.id);
    INSERT INTO investor_evidence (user_id, step, details)
    SELECT user_id, 'existing_investor',
      '{"note": "Had already invested on Florin before the first-investment journey existed."}'::jsonb
    FROM investor_profiles;
    `,
  );
}
