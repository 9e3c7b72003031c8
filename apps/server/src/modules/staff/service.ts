import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { hashPassword } from '../../security/passwords.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@florin.local';

/**
 * On the very first start, creates the one superadmin. Its password is the
 * configured one or a random one returned here to be printed once; there is
 * never a fixed default. Returns null when staff already exist.
 */
export async function ensureFirstStaff(
  db: Kysely<DB>,
  options: { email?: string; password?: string },
): Promise<{ email: string; password: string; generated: boolean } | null> {
  const existing = await db.selectFrom('staff').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const email = options.email ?? DEFAULT_ADMIN_EMAIL;
  const password = options.password ?? randomBytes(18).toString('base64url');
  const inserted = await sql<{ id: number }>`
    INSERT INTO staff (email, password_hash, role)
    SELECT ${email}, ${await hashPassword(password)}, 'superadmin'
    WHERE NOT EXISTS (SELECT 1 FROM staff)
    ON CONFLICT DO NOTHING
    RETURNING id`.execute(db);
  // Another instance starting at the same moment may have won; it printed its own.
  if (inserted.rows.length === 0) return null;
  return { email, password, generated: options.password === undefined };
}
