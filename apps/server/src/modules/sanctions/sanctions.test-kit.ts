import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import {
  ErrorBodySchema,
  pageSchema,
  SanctionsHitSchema,
  SanctionsListSchema,
  ScreeningSchema,
  type SanctionsHit,
  type SanctionsHitStatus,
} from '@florin/contracts';
import { z } from 'zod';
import { type SignedInStaff } from '../../test/admin.js';
import {
  customerBrowser,
  insertCustomer,
  insertIndividualDocuments,
  insertKycAnswers,
} from '../compliance/customers.test-kit.js';
import { multipart, type KycTestApp } from '../kyc/kyc.test-kit.js';
import { conListCsv, type ListedRow } from './lists.test-kit.js';

export const errorOf = (response: { json: () => unknown }) => ErrorBodySchema.parse(response.json());
export const ImportAnswerSchema = z.object({
  data: z.object({
    list: SanctionsListSchema,
    screening: z.object({ customers: z.number(), hits: z.number(), held: z.number() }),
  }),
  message: z.string(),
});

/** A surname no other test (nor the KYC kit's Ada Lovelace) has: every import screens every customer. */
export function uniqueSurname(): string {
  const letters = [...randomBytes(8)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return `Zed${letters}`;
}

/**
 * What the sanctions API tests share: the consolidated list uploaded by a compliance officer, the
 * hits and screenings they see, and customers who finish verification through the API. Each test
 * file calls `sanctionsSteps(() => t, () => officer)` with its own app and officer.
 */
export function sanctionsSteps(app: () => KycTestApp, officer: () => SignedInStaff) {
  const db = () => app().database.db;

  function upload(staff: SignedInStaff, bytes: Buffer, filename = 'ConList.csv') {
    const form = multipart([{ name: 'file', filename, bytes, contentType: 'text/csv' }]);
    return staff.browser.post('/api/admin/sanctions/list', form.payload, { headers: form.headers });
  }

  async function importList(rows: readonly ListedRow[], staff: SignedInStaff = officer()) {
    const response = await upload(staff, Buffer.from(conListCsv(rows), 'utf8'));
    expect(response.statusCode, response.body).toBe(200);
    return ImportAnswerSchema.parse(response.json()).data;
  }

  async function accountOf(userId: number) {
    return db()
      .selectFrom('users')
      .select(['block_status', 'block_reason'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
  }

  async function statusOf(userId: number): Promise<number> {
    const row = await db()
      .selectFrom('users')
      .select('status')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return row.status;
  }

  async function openHits(): Promise<SanctionsHit[]> {
    return hitsOf('open');
  }

  async function hitsOf(status: SanctionsHitStatus): Promise<SanctionsHit[]> {
    const response = await officer().browser.get(`/api/admin/sanctions/hits?status=${status}`);
    expect(response.statusCode).toBe(200);
    return pageSchema(SanctionsHitSchema).parse(response.json()).data;
  }

  async function screeningsOf(userId: number) {
    const response = await officer().browser.get(`/api/admin/sanctions/customers/${userId}/screenings`);
    expect(response.statusCode).toBe(200);
    return z.object({ data: z.array(ScreeningSchema) }).parse(response.json()).data;
  }

  /** An Individual with every document and answer in place, who finishes the wizard through the API. */
  async function submitVerification(firstName: string, lastName: string) {
    const db = app().database.db;
    const customer = await insertCustomer(db, { firstName, lastName });
    await insertIndividualDocuments(db, customer.id);
    await insertKycAnswers(db, customer.id);
    const browser = await customerBrowser(app().app, db, customer.id);
    const response = await browser.put('/api/v1/users/account_type', { account_type: 'Instant' });
    expect(response.statusCode, response.body).toBe(200);
    return { ...customer, browser };
  }

  return { upload, importList, accountOf, statusOf, openHits, hitsOf, screeningsOf, submitVerification };
}
