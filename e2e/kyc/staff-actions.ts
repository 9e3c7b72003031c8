import type { APIRequestContext } from '@playwright/test';
import { csrfHeaders } from '../fixtures.js';

/**
 * What a compliance officer does in the back office, through its API, for the customer stories:
 * decline a document with a note, approve everything, make the account live, put it on hold.
 * `staff` is the complianceApi fixture's session (admin-fixtures.ts).
 */

type AdminDocument = { id: number; key: string; status: string; director_id: number | null };
type ComplianceCase = { documents: AdminDocument[] };
async function postJson(request: APIRequestContext, url: string, data: unknown) {
  return request.post(url, { data, headers: await csrfHeaders(request) });
}

async function expectOk(
  what: string,
  response: { ok(): boolean; status(): number; text(): Promise<string> },
) {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
}

export async function caseDocuments(staff: APIRequestContext, userId: number): Promise<AdminDocument[]> {
  const response = await staff.get(`/api/admin/compliance/cases/${userId}`);
  await expectOk('GET compliance case', response);
  return ((await response.json()) as { data: ComplianceCase }).data.documents;
}

/** Declines the customer's current document of this key; the note is what the customer reads as the cause. */
export async function declineDocument(
  staff: APIRequestContext,
  userId: number,
  key: string,
  note: string,
): Promise<void> {
  const document = (await caseDocuments(staff, userId)).find((entry) => entry.key === key);
  if (!document) throw new Error(`Customer ${userId} has no ${key} document`);
  await expectOk('decline', await postJson(staff, `/api/admin/documents/${document.id}/decline`, { note }));
}

export async function approveAllDocuments(staff: APIRequestContext, userId: number): Promise<void> {
  for (const document of await caseDocuments(staff, userId)) {
    if (document.status === 'approved') continue;
    await expectOk('approve', await postJson(staff, `/api/admin/documents/${document.id}/approve`, {}));
  }
}

export async function makeLive(staff: APIRequestContext, userId: number): Promise<void> {
  await expectOk('make live', await postJson(staff, `/api/admin/compliance/cases/${userId}/make-live`, {}));
}

export async function putOnHold(staff: APIRequestContext, userId: number, reason: string): Promise<void> {
  await expectOk('hold', await postJson(staff, `/api/admin/compliance/cases/${userId}/hold`, { reason }));
}

export async function resetSourceOfWealth(
  staff: APIRequestContext,
  userId: number,
  reason: string,
): Promise<void> {
  await expectOk(
    'reset source of wealth',
    await postJson(staff, `/api/admin/compliance/cases/${userId}/reset-source-of-wealth`, { reason }),
  );
}
