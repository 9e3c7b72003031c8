import type { APIRequestContext, Page } from '@playwright/test';
import { csrfHeaders } from '../fixtures.js';
import { chooseAccountType, currentUser, saveDetails } from '../kyc/customer-actions.js';
import { pdfFile, pngFile, type UploadFile } from '../kyc/files.js';
import { completeFirstInvestmentJourney } from '../investor/journey-actions.js';
import { approveAllDocuments, makeLive } from '../kyc/staff-actions.js';

/** The company a Corporate customer declares in these stories. */
export const COMPANY = {
  name: 'Analytical Engines Ltd',
  company_number: '01234567',
  address: '2 Babbage Road',
  city: 'Manchester',
  country: 'GB',
  zip: 'M1 1AE',
} as const;

let companyCount = 0;

/** Eight digits no other story of this run or an earlier one on the same server has used. */
function uniqueCompanyNumber(): string {
  companyCount += 1;
  return String((Date.now() * 100 + process.pid * 10 + companyCount) % 100_000_000).padStart(8, '0');
}

const DIRECTOR = {
  firstName: 'Charles',
  lastName: 'Babbage',
  shareHolding: '30',
  address: '3 Difference Lane',
  city: 'London',
  zip: 'N1 9GU',
  country: 'GB',
  phone: '+44 20 7946 0001',
  birthdate: '1971-12-26',
  // Owner and director: a company needs at least one director to hand in its verification.
  status: 3,
} as const;

async function expectOk(
  what: string,
  response: { ok(): boolean; status(): number; text(): Promise<string> },
) {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
}

async function upload(request: APIRequestContext, url: string, fields: Record<string, string | UploadFile>) {
  await expectOk(
    `POST ${url}`,
    await request.post(url, { multipart: fields, headers: await csrfHeaders(request) }),
  );
}

/**
 * The customer signed in on `page` declares a company with one director, hands
 * in every document and chooses Instant (API); staff approve and make them live.
 */
export async function makeCorporateCustomerLive(page: Page, staff: APIRequestContext): Promise<number> {
  const request = page.request;
  await chooseAccountType(request, 'Corporate');
  await saveDetails(request);
  const headers = await csrfHeaders(request);
  await expectOk(
    'POST company',
    // Company numbers are unique across customers: each story's company gets its own.
    await request.post('/api/v1/users/corporate/company', {
      data: { ...COMPANY, company_number: uniqueCompanyNumber() },
      headers,
    }),
  );
  const { id } = await currentUser(request);
  for (const key of ['coi', 'aoa', 'cproof_address']) {
    await upload(request, '/api/v1/user/documents/upload', {
      parameters: JSON.stringify({ user_id: id, key }),
      file: pdfFile(`${key}.pdf`, key),
    });
  }
  const director = await request.post('/api/v1/users/corporate/company-director', {
    data: DIRECTOR,
    headers,
  });
  await expectOk('POST director', director);
  const { data } = (await director.json()) as { data: { id: number } };
  const directorUrl = `/api/v1/users/corporate/company-director/${data.id}/document-upload`;
  await upload(request, directorUrl, { type: 'passport', file: pngFile('director-passport.png', 190) });
  await upload(request, directorUrl, { type: 'proof_address', file: pdfFile('director-bill.pdf', 'Bill') });
  await expectOk(
    'POST kyc',
    await request.post('/api/v1/settings/kyc/create', {
      data: { trades_over_threshold: 0, aware_of_risk: 1 },
      headers,
    }),
  );
  await expectOk(
    'PUT account_type (Instant)',
    await request.put('/api/v1/users/account_type', { data: { account_type: 'Instant' }, headers }),
  );
  await approveAllDocuments(staff, id);
  await makeLive(staff, id);
  await completeFirstInvestmentJourney(request);
  return id;
}
