import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/** Back-office staff: separate from customers, with roles; 2FA is enrolled on first sign-in. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE staff (
      id serial PRIMARY KEY,
      email text NOT NULL,
      password_hash text NOT NULL,
      role text NOT NULL CHECK (role IN ('superadmin', 'compliance', 'finance', 'support')),
      totp_secret_encrypted text,
      disabled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX staff_email ON staff (lower(email));
  `,
  );
}
