import { createHash, randomBytes } from 'node:crypto';
import type { DocumentKey } from '@florin/contracts';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { FileStorage } from '../../adapters/storage/index.js';
import type { DB, KycDocumentStatus } from '../../db/schema.js';
import { createBrowser, type Browser } from '../../test/browser.js';
import { createSessionStore } from '../auth/service.js';
import { createSecretBox, hashToken } from '../../security/secret-box.js';
import { testClock } from '../../test/clock.js';

/**
 * Customers for the back-office tests, written straight into the tables the
 * KYC wizard fills: the wizard's own rules are the KYC module's tests; these
 * test what staff do with the result.
 */

let count = 0;

export type TestCustomer = { id: number; email: string; firstName: string; reference: string };

export async function insertCustomer(
  db: Kysely<DB>,
  options: { firstName?: string; lastName?: string; accountType?: 'Individual' | 'Corporate' } = {},
): Promise<TestCustomer> {
  count += 1;
  const unique = `${Date.now().toString(36)}${count}${randomBytes(3).toString('hex')}`;
  const firstName = options.firstName ?? 'Grace';
  const row = await db
    .insertInto('users')
    .values({
      user_identification: `FL${randomBytes(4).toString('hex').toUpperCase()}`,
      first_name: firstName,
      last_name: options.lastName ?? 'Hopper',
      email: `customer.${unique}@example.com`,
      password_hash: 'not-used-in-these-tests',
      email_verified_at: new Date(),
      account_type: options.accountType ?? 'Individual',
      referral_code: `R${unique}`.toUpperCase(),
      country: 'GB',
      address: '1 Long Lane',
      city: 'London',
      zip: 'EC1A 1BB',
      phone: '+44 20 7946 0000',
      birthdate: '1980-05-17',
      nationality: 'GB',
      tax_residence: 'GB',
      tax_id: 'QQ123456C',
      details_submitted_at: new Date(),
    })
    .returning(['id', 'email', 'user_identification'])
    .executeTakeFirstOrThrow();
  return { id: row.id, email: row.email, firstName, reference: row.user_identification };
}

export async function insertDocument(
  db: Kysely<DB>,
  userId: number,
  options: {
    key: DocumentKey;
    status?: KycDocumentStatus;
    note?: string;
    directorId?: number;
    /** Seconds ago it was uploaded: the queue orders by it. */
    ageSeconds?: number;
    storageKey?: string;
    /** The bytes stored under storageKey: the row records their SHA-256 and size (made up otherwise). */
    bytes?: Buffer;
    contentType?: 'image/jpeg' | 'image/png' | 'application/pdf';
  },
): Promise<number> {
  const row = await db
    .insertInto('kyc_documents')
    .values({
      user_id: userId,
      director_id: options.directorId ?? null,
      key: options.key,
      storage_key: options.storageKey ?? `test/${randomBytes(12).toString('hex')}`,
      content_type: options.contentType ?? 'image/png',
      original_name: `${options.key}.${options.contentType === 'application/pdf' ? 'pdf' : 'png'}`,
      size_bytes: options.bytes?.length ?? 1234,
      sha256: options.bytes
        ? createHash('sha256').update(options.bytes).digest('hex')
        : randomBytes(32).toString('hex'),
      status: options.status ?? 'pending',
      disapprove_note: options.note ?? (options.status === 'declined' ? 'Blurred.' : null),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (options.ageSeconds) {
    await sql`UPDATE kyc_documents SET created_at = now() - make_interval(secs => ${options.ageSeconds})
      WHERE id = ${row.id}`.execute(db);
  }
  return Number(row.id);
}

/** The documents an Individual uploads in the wizard, each awaiting review. */
export async function insertIndividualDocuments(
  db: Kysely<DB>,
  userId: number,
  ageSeconds = 0,
): Promise<Record<'passport' | 'proof_selfie' | 'proof_address', number>> {
  return {
    passport: await insertDocument(db, userId, { key: 'passport', ageSeconds }),
    proof_selfie: await insertDocument(db, userId, { key: 'proof_selfie', ageSeconds }),
    proof_address: await insertDocument(db, userId, { key: 'proof_address', ageSeconds }),
  };
}

/**
 * Step 7 answered Yes, with the source of wealth and the declarations of step 8: a customer who expects to
 * trade more than £15,000 a year. The wizard's body, and columns of kyc_answers as they are stored.
 */
export const WEALTH_YES = {
  trades_over_threshold: 1,
  aware_of_risk: 1,
  initial_investment: '15k_50k',
  annual_income: '50k_100k',
  net_worth: '250k_1m',
  investment_portfolio: '10k_50k',
  source_of_wealth: 'employment',
  experience: '1_3',
  investment_trades: '1_5',
  offense: 0,
  criminal: 0,
  caution: 1,
  caution_details: 'A police caution in 2009 for a parking dispute.',
  ccj: 0,
} as const;

export async function insertKycAnswers(db: Kysely<DB>, userId: number): Promise<void> {
  await db
    .insertInto('kyc_answers')
    .values({ user_id: userId, trades_over_threshold: 0, aware_of_risk: 1 })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute();
}

/** The wizard's last step: answers given, the account type chosen, the completion dialog seen. */
export async function completeVerification(db: Kysely<DB>, userId: number): Promise<void> {
  await insertKycAnswers(db, userId);
  await db
    .updateTable('users')
    .set({ verification_completed_at: new Date() })
    .where('id', '=', userId)
    .execute();
}

/**
 * A complete verification with every document approved, as if the customer
 * had walked the wizard and staff had reviewed it: the details, the
 * answers and, for an Individual, identity, selfie and proof of address;
 * for a Corporate, the company, its three documents and one director with
 * theirs. Each document's file is in `storage` (the app's), so whatever
 * reads or checks the files finds them. The money services refuse a customer
 * without it (spec 000 §6, kyc/verification.ts); the tests of money are
 * about money, and the KYC tests walk the wizard itself.
 */
export async function insertApprovedVerification(
  db: Kysely<DB>,
  storage: FileStorage,
  userId: number,
): Promise<void> {
  const user = await db
    .updateTable('users')
    .set((eb) => ({
      address: eb.fn.coalesce('address', sql.lit('1 Long Lane')),
      city: eb.fn.coalesce('city', sql.lit('London')),
      zip: eb.fn.coalesce('zip', sql.lit('EC1A 1BB')),
      country: eb.fn.coalesce('country', sql.lit('GB')),
      details_submitted_at: eb.fn.coalesce('details_submitted_at', sql<Date>`now()`),
    }))
    .where('id', '=', userId)
    .returning('account_type')
    .executeTakeFirstOrThrow();
  await insertKycAnswers(db, userId);
  const approved = async (key: DocumentKey, directorId?: number) => {
    const bytes = Buffer.from(`%PDF-1.4\n% ${key} of customer ${userId}\n%%EOF\n`);
    await insertDocument(db, userId, {
      key,
      status: 'approved',
      storageKey: await storage.put(bytes, 'application/pdf'),
      bytes,
      contentType: 'application/pdf',
      ...(directorId ? { directorId } : {}),
    });
  };
  if (user.account_type !== 'Corporate') {
    for (const key of ['passport', 'proof_selfie', 'proof_address'] as const) await approved(key);
    return;
  }
  const company = await db
    .insertInto('companies')
    .values({
      user_id: userId,
      name: 'Analytical Engines Ltd',
      // Company numbers are unique.
      company_number: `FX${String(userId).padStart(6, '0')}`,
      address: '2 Babbage Road',
      city: 'London',
      country: 'GB',
      zip: 'EC1A 1BB',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const director = await db
    .insertInto('company_directors')
    .values({
      company_id: company.id,
      first_name: 'Charles',
      last_name: 'Babbage',
      share_holding: '100',
      address: '3 Difference Lane',
      city: 'London',
      zip: 'N1 9GU',
      country: 'GB',
      phone: '+44 20 7946 0001',
      birthdate: '1971-12-26',
      // Owner and director: a company needs at least one director (kyc/flags.ts).
      status: 3,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const key of ['coi', 'aoa', 'cproof_address'] as const) await approved(key);
  for (const key of ['passport', 'proof_address'] as const) await approved(key, director.id);
}

/** A browser holding a fresh session of the customer (as after a sign-in). */
export async function customerBrowser(
  app: FastifyInstance,
  db: Kysely<DB>,
  userId: number,
  userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Florin tests',
): Promise<Browser> {
  const browser = createBrowser(app);
  const session = await createSessionStore(db, testClock).create(userId, { ip: browser.ip, userAgent });
  browser.cookies.set('access_token', session.token);
  browser.cookies.set('csrf_token', session.csrfToken);
  return browser;
}

/** A customer with an authenticator, ten recovery codes and two open sessions. */
export async function customerWithTwoFactor(app: FastifyInstance, db: Kysely<DB>) {
  const customer = await insertCustomer(db);
  await db
    .updateTable('users')
    .set({ totp_secret_encrypted: createSecretBox(Buffer.alloc(32, 7)).encrypt('JBSWY3DPEHPK3PXP') })
    .where('id', '=', customer.id)
    .execute();
  await db
    .insertInto('recovery_codes')
    .values(
      Array.from({ length: 10 }, (_, index) => ({
        user_id: customer.id,
        code_hash: hashToken(`code-${index}`),
      })),
    )
    .execute();
  const phone = await customerBrowser(app, db, customer.id, 'Phone browser');
  const laptop = await customerBrowser(app, db, customer.id, 'Laptop browser');
  return { customer, phone, laptop };
}

/** A document's review state. */
export async function documentRow(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('kyc_documents')
    .select(['status', 'disapprove_note', 'reviewed_by_staff_id'])
    .where('id', '=', String(id))
    .executeTakeFirstOrThrow();
}

export async function auditRows(db: Kysely<DB>, targetType: string, targetId: string | number) {
  return db
    .selectFrom('audit_log')
    .select(['action', 'staff_id', 'before', 'after', 'ip'])
    .where('target_type', '=', targetType)
    .where('target_id', '=', String(targetId))
    .orderBy('id')
    .execute();
}

export async function mailSubjects(db: Kysely<DB>, to: string): Promise<string[]> {
  const rows = await db
    .selectFrom('dev_mailbox')
    .select('subject')
    .where('to', '=', to)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.subject);
}
