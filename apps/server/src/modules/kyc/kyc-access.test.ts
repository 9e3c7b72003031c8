import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Director, Document } from '@florin/contracts';
import {
  COMPANY,
  DIRECTOR,
  createKycTestApp,
  errorOf,
  filePart,
  jpeg,
  newCustomer,
  pdf,
  type Customer,
  type KycTestApp,
} from './kyc.test-kit.js';

let t: KycTestApp;
let owner: Customer;
let other: Customer;
let ownerDirector: Director;
let ownerDocument: Document;
let otherDirector: Director;

beforeAll(async () => {
  t = await createKycTestApp();
  owner = await newCustomer(t, { accountType: 'Corporate' });
  other = await newCustomer(t, { accountType: 'Corporate' });
  await owner.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: 'AA000001' });
  await other.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: 'BB000002' });
  ownerDirector = (await owner.post('/api/v1/users/corporate/company-director', DIRECTOR)).json<{
    data: Director;
  }>().data;
  otherDirector = (await other.post('/api/v1/users/corporate/company-director', DIRECTOR)).json<{
    data: Director;
  }>().data;
  const upload = await owner.upload('/api/v1/user/documents/upload', [
    { name: 'parameters', value: JSON.stringify({ user_id: owner.id, key: 'coi' }) },
    filePart(pdf(), 'coi.pdf'),
  ]);
  ownerDocument = upload.json<{ data: Document }>().data;
});
afterAll(async () => {
  await t.close();
});

function expectNotFound(response: { statusCode: number; json: () => unknown }) {
  expect(response.statusCode).toBe(404);
  expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
}

async function documentsOf(userId: number) {
  return t.database.db
    .selectFrom('kyc_documents')
    .select(['key', 'director_id'])
    .where('user_id', '=', userId)
    .execute();
}

describe("another customer's verification is not there for anyone else (404)", () => {
  it("does not hand out another customer's document file", async () => {
    expect((await owner.get(`/api/v1/user/documents/${ownerDocument.id}/file`)).statusCode).toBe(200);
    expectNotFound(await other.get(`/api/v1/user/documents/${ownerDocument.id}/file`));
    expectNotFound(await other.get('/api/v1/user/documents/999999999/file'));
  });

  it("does not change or delete another company's director", async () => {
    expectNotFound(await other.put(`/api/v1/users/corporate/company-director/${ownerDirector.id}`, DIRECTOR));
    expectNotFound(await other.delete(`/api/v1/users/corporate/company-director/${ownerDirector.id}`));
    const user = await owner.user();
    expect(user.company?.directors.map((director) => director.id)).toEqual([ownerDirector.id]);
  });

  it("does not take uploads for another company's director, by either route", async () => {
    expectNotFound(
      await other.upload(`/api/v1/users/corporate/company-director/${ownerDirector.id}/document-upload`, [
        { name: 'type', value: 'passport' },
        filePart(await jpeg(), 'p.jpg'),
      ]),
    );
    expectNotFound(
      await other.upload('/api/v1/user/id-proof', [
        { name: 'doc_type', value: 'passport' },
        { name: 'companyDirectorId', value: String(ownerDirector.id) },
        filePart(await jpeg(), 'p.jpg'),
      ]),
    );
    expect(await documentsOf(other.id)).toEqual([]);
    expect((await documentsOf(owner.id)).filter((row) => row.director_id !== null)).toEqual([]);
  });

  it("does not take a document in another customer's name", async () => {
    const response = await other.upload('/api/v1/user/documents/upload', [
      { name: 'parameters', value: JSON.stringify({ user_id: owner.id, key: 'aoa' }) },
      filePart(pdf(), 'aoa.pdf'),
    ]);
    expectNotFound(response);
    expect(await documentsOf(owner.id)).toEqual([{ key: 'coi', director_id: null }]);
    expect(await documentsOf(other.id)).toEqual([]);
  });

  it('shows each customer only their own company, directors and documents', async () => {
    const user = await other.user();
    expect(user.company).toMatchObject({ company_number: 'BB000002', directors: [{ id: otherDirector.id }] });
    expect(user.documents).toEqual([]);
  });

  it('refuses an id beyond the id columns with 422, as every other id in the API', async () => {
    const file = await owner.get('/api/v1/user/documents/3000000000/file');
    expect(file.statusCode).toBe(422);
    expect(errorOf(file).code).toBe('VALIDATION_FAILED');
    const upload = await owner.upload('/api/v1/user/documents/upload', [
      { name: 'parameters', value: JSON.stringify({ user_id: 3_000_000_000, key: 'aoa' }) },
      filePart(pdf(), 'aoa.pdf'),
    ]);
    expect(upload.statusCode).toBe(422);
    expect(errorOf(upload).errors).toHaveProperty('user_id');
  });

  it('asks for a session first', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/documents/${ownerDocument.id}/file`,
    });
    expect(response.statusCode).toBe(401);
    expect(errorOf(response).code).toBe('UNAUTHENTICATED');
  });
});
