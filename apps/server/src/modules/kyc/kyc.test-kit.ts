import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { ErrorBodySchema, type User } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createSessionStore } from '../auth/sessions.js';
import { testClock } from '../../test/clock.js';

/**
 * What the KYC API tests share: the app on a fresh database with uploads in a
 * temporary folder, customers made in the database and signed in with a
 * bearer session, multipart bodies built by hand, and sample files.
 */

export type KycTestApp = TestApp & { uploadsDir: string };

/** The app with its data folder (where local storage keeps uploads) in a fresh temporary folder. */
export async function createKycTestApp(): Promise<KycTestApp> {
  const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-kyc-'));
  const t = await createTestApp({ env: { DATA_DIR: uploadsDir } });
  return {
    ...t,
    uploadsDir,
    close: async () => {
      await t.close();
      fs.rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}

/** Every file under the data folder: what storage holds. */
export function storedFiles(t: KycTestApp): string[] {
  return fs
    .readdirSync(t.uploadsDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

export type FilePart = { name: string; filename: string; bytes: Buffer; contentType?: string };
export type FieldPart = { name: string; value: string };

/** A multipart/form-data body as a browser sends it. */
export function multipart(parts: readonly (FilePart | FieldPart)[]) {
  const boundary = `----florin${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('bytes' in part) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.bytes,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

let customers = 0;

/** A verified customer made in the database, signed in with a bearer session (no CSRF needed). */
export async function newCustomer(
  t: TestApp,
  options: { accountType?: 'Individual' | 'Corporate' | null } = {},
) {
  customers += 1;
  const suffix = `${customers}${randomBytes(3).toString('hex')}`;
  const user = await t.database.db
    .insertInto('users')
    .values({
      user_identification: `FLT${suffix}`.slice(0, 10).toUpperCase(),
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: `kyc${suffix}@example.com`,
      password_hash: 'not-used-by-these-tests',
      referral_code: `ref${suffix}`,
      email_verified_at: new Date(),
      account_type: options.accountType === undefined ? 'Individual' : options.accountType,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const session = await createSessionStore(t.database.db, testClock).create(user.id, { ip: '127.0.0.1' });
  const authorization = `Bearer ${session.token}`;

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization },
      ...(body !== undefined ? { payload: body } : {}),
    });

  return {
    id: user.id,
    get: (url: string) => send('GET', url),
    post: (url: string, body: object = {}) => send('POST', url, body),
    put: (url: string, body: object = {}) => send('PUT', url, body),
    delete: (url: string) => send('DELETE', url),
    upload: (url: string, parts: readonly (FilePart | FieldPart)[]) => {
      const form = multipart(parts);
      return t.app.inject({
        method: 'POST',
        url,
        headers: { authorization, ...form.headers },
        payload: form.payload,
      });
    },
    /** GET /api/v1/user's data. */
    async user(): Promise<User> {
      const response = await send('GET', '/api/v1/user');
      if (response.statusCode !== 200)
        throw new Error(`GET /api/v1/user answered ${response.statusCode}: ${response.body}`);
      return response.json<{ data: User }>().data;
    },
  };
}

export type Customer = Awaited<ReturnType<typeof newCustomer>>;

export function errorOf(response: LightMyRequestResponse) {
  return ErrorBodySchema.parse(response.json());
}

// ---- sample files ----

export function jpeg(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
}

export function png(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#aa6633' } })
    .png()
    .toBuffer();
}

/** A one-page PDF; `catalogExtra` goes into the document catalogue (e.g. an OpenAction). */
export function pdf(catalogExtra = ''): Buffer {
  return Buffer.from(
    [
      '%PDF-1.4',
      `1 0 obj << /Type /Catalog /Pages 2 0 R ${catalogExtra} >> endobj`,
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
      '',
    ].join('\n'),
    'latin1',
  );
}

export const pdfWithJavaScript = () => pdf('/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>');

export const filePart = (bytes: Buffer, filename: string, name = 'file'): FilePart => ({
  name,
  filename,
  bytes,
});

// ---- bodies that pass their contracts ----

export const DETAILS = {
  country: 'GB',
  address: '1 High Street',
  city: 'London',
  zip: 'SW1A 1AA',
  phone: '+44 20 7946 0000',
  birthdate: '1990-05-17',
  nationality: 'GB',
  tax_residence: 'GB',
  tax_id: 'AB123456C',
} as const;

export const COMPANY = {
  name: 'Analytical Engines Ltd',
  company_number: '01234567',
  address: '2 Babbage Road',
  city: 'London',
  country: 'GB',
  zip: 'EC1A 1BB',
} as const;

export const DIRECTOR = {
  firstName: 'Charles',
  lastName: 'Babbage',
  shareHolding: '30',
  address: '3 Difference Lane',
  city: 'London',
  zip: 'N1 9GU',
  country: 'GB',
  phone: '+44 20 7946 0001',
  birthdate: '1971-12-26',
  status: 1,
} as const;

export const WEALTH_NO = { trades_over_threshold: 0, aware_of_risk: 1 } as const;

export { WEALTH_YES } from '../compliance/customers.test-kit.js';

/** The five "submitted" flags of GET /user, for comparing a customer's progress in one assertion. */
const FLAG_NAMES = [
  'is_kyc_submitted',
  'is_photo_id_submitted',
  'is_selfie_submitted',
  'is_proof_address_submitted',
  'is_wealth_submitted',
] as const;

export function flagsOf(user: User) {
  return Object.fromEntries(FLAG_NAMES.map((name) => [name, user[name]]));
}

export function flags(kyc: 0 | 1, photo: 0 | 1, selfie: 0 | 1, address: 0 | 1, wealth: 0 | 1) {
  return {
    is_kyc_submitted: kyc,
    is_photo_id_submitted: photo,
    is_selfie_submitted: selfie,
    is_proof_address_submitted: address,
    is_wealth_submitted: wealth,
  };
}

export async function idProof(
  customer: Customer,
  docType: string,
  files: { bytes: Buffer; filename: string }[],
) {
  return customer.upload('/api/v1/user/id-proof', [
    { name: 'doc_type', value: docType },
    ...files.map((file) => filePart(file.bytes, file.filename, files.length > 1 ? 'file[]' : 'file')),
  ]);
}

export async function uploadByKey(
  customer: Customer,
  key: string,
  file: { bytes: Buffer; filename: string },
  userId = customer.id,
) {
  return customer.upload('/api/v1/user/documents/upload', [
    { name: 'parameters', value: JSON.stringify({ user_id: userId, key }) },
    filePart(file.bytes, file.filename),
  ]);
}

/** A customer's stored documents in upload order, as the database holds them. */
export async function documentRows(t: TestApp, userId: number) {
  return t.database.db
    .selectFrom('kyc_documents')
    .select(['id', 'key', 'status', 'director_id', 'content_type', 'original_name', 'size_bytes', 'sha256'])
    .where('user_id', '=', userId)
    .orderBy('seq')
    .execute();
}
