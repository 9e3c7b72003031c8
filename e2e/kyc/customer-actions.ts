import type { User } from '@florin/contracts';
import type { APIRequestContext } from '@playwright/test';
import { csrfHeaders } from '../fixtures.js';
import { pdfFile, pngFile, type UploadFile } from './files.js';

/**
 * The customer's verification calls made through the API, for stories that start further along
 * the wizard than its first step (each story walks in the UI the steps it is about).
 */

async function expectOk(
  what: string,
  response: { ok(): boolean; status(): number; text(): Promise<string> },
) {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
}

export async function currentUser(request: APIRequestContext): Promise<User> {
  const response = await request.get('/api/v1/user');
  await expectOk('GET /api/v1/user', response);
  return ((await response.json()) as { data: User }).data;
}

export async function chooseAccountType(
  request: APIRequestContext,
  accountType: 'Individual' | 'Corporate',
): Promise<void> {
  const response = await request.put('/api/v1/users/account_type', {
    data: { account_type: accountType },
    headers: await csrfHeaders(request),
  });
  await expectOk('PUT /api/v1/users/account_type', response);
}

export const INDIVIDUAL_DETAILS = {
  country: 'GB',
  address: '221B Baker Street',
  city: 'London',
  zip: 'NW1 6XE',
  phone: '+44 20 7946 0958',
  birthdate: '1985-04-12',
  nationality: 'GB',
  tax_residence: 'GB',
  tax_id: 'AB123456C',
};

export async function saveDetails(request: APIRequestContext): Promise<void> {
  const response = await request.put('/api/v1/users', {
    data: INDIVIDUAL_DETAILS,
    headers: await csrfHeaders(request),
  });
  await expectOk('PUT /api/v1/users', response);
}

export async function uploadIdProof(
  request: APIRequestContext,
  docType: 'passport' | 'national_id' | 'proof_selfie' | 'proof_address',
  file: UploadFile,
): Promise<void> {
  const response = await request.post('/api/v1/user/id-proof', {
    multipart: { doc_type: docType, file },
    headers: await csrfHeaders(request),
  });
  await expectOk(`POST /api/v1/user/id-proof (${docType})`, response);
}

/** Steps 3 to 6 of an Individual customer: details, passport, selfie, proof of address. */
export async function submitIndividualDocuments(request: APIRequestContext): Promise<void> {
  await chooseAccountType(request, 'Individual');
  await saveDetails(request);
  await uploadIdProof(request, 'passport', pngFile('passport.png', 200));
  await uploadIdProof(request, 'proof_selfie', pngFile('selfie.png', 150));
  await uploadIdProof(request, 'proof_address', pdfFile('council-tax.pdf', 'Council tax bill'));
}

/** Steps 7 and 9: under £15,000 a year, aware of the risk. */
export async function answerSourceOfWealth(request: APIRequestContext): Promise<void> {
  await expectOk(
    'POST /api/v1/settings/kyc/create',
    await request.post('/api/v1/settings/kyc/create', {
      data: { trades_over_threshold: 0, aware_of_risk: 1 },
      headers: await csrfHeaders(request),
    }),
  );
}

/** Steps 7, 9 and 10: under £15,000 a year, aware of the risk, an Instant account. */
export async function finishIndividualVerification(request: APIRequestContext): Promise<void> {
  await answerSourceOfWealth(request);
  const headers = await csrfHeaders(request);
  await expectOk(
    'PUT /api/v1/users/account_type (Instant)',
    await request.put('/api/v1/users/account_type', { data: { account_type: 'Instant' }, headers }),
  );
}

/** Corporate steps 3 and 4: the company (with a number of its own) and its three documents. */
export async function submitCompanyWithDocuments(request: APIRequestContext): Promise<void> {
  await chooseAccountType(request, 'Corporate');
  await expectOk(
    'POST /api/v1/users/corporate/company',
    await request.post('/api/v1/users/corporate/company', {
      data: {
        name: 'Lantern Analytics Ltd',
        // Company numbers are unique across customers.
        company_number: String(Math.floor(Math.random() * 100_000_000)).padStart(8, '0'),
        address: '20 Farringdon Road',
        city: 'London',
        country: 'GB',
        zip: 'EC1M 3HE',
      },
      headers: await csrfHeaders(request),
    }),
  );
  const { id } = await currentUser(request);
  for (const key of ['coi', 'aoa', 'cproof_address']) {
    const response = await request.post('/api/v1/user/documents/upload', {
      multipart: { parameters: JSON.stringify({ user_id: id, key }), file: pdfFile(`${key}.pdf`, key) },
      headers: await csrfHeaders(request),
    });
    await expectOk(`POST /api/v1/user/documents/upload (${key})`, response);
  }
}
