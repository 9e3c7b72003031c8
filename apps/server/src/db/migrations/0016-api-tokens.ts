import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * API tokens (issue 10): a customer's credentials for the public API. Only the
 * SHA-256 of a token is kept, with its first characters to show it masked;
 * deleting one sets deleted_at (spec 002 §4: soft delete). Permission ids are
 * the spec's (§6): 1 READ, 2 WITHDRAW SAVED ADDRESS, 3 WITHDRAW ANY ADDRESS,
 * 4 TRADE. A null ip_allowlist admits any address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE api_tokens (
      -- Random and long: a token's id is not guessable.
      id text PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      token_hash text NOT NULL UNIQUE,
      prefix text NOT NULL,
      permission_id integer NOT NULL CHECK (permission_id BETWEEN 1 AND 4),
      ip_allowlist text[],
      created_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      last_used_at timestamptz
    );
    -- A customer's list, newest first, and the count of their live tokens.
    CREATE INDEX api_tokens_user ON api_tokens (user_id, created_at DESC);
    `,
  );
}
