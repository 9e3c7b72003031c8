import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The addresses an account has signed in from (issue 15). Failed sign-ins
 * and 2FA codes from an address the account has had a session from count
 * apart from everyone else's, so a stranger guessing from elsewhere cannot
 * lock the owner out; the sign-in looks the pair up on every attempt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE INDEX sessions_user_ip ON sessions (user_id, ip);
    `,
  );
}
