import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPLIANCE_TEXTS,
  ComplianceCaseSchema,
  ErrorBodySchema,
  pageSchema,
  QueueItemSchema,
} from '@florin/contracts';
import {
  createKycTestApp,
  DETAILS,
  filePart,
  newCustomer,
  pdf,
  png,
  type KycTestApp,
} from '../kyc/kyc.test-kit.js';
import {
  answersOtherThanNotFound,
  callEveryAdminRoute,
  signedInStaff,
  type SignedInStaff,
} from '../../test/admin.js';
import type { DB } from '../../db/schema.js';
import { createBrowser } from '../../test/browser.js';
import {
  auditRows,
  completeVerification,
  customerBrowser,
  insertCustomer,
  insertDocument,
  insertIndividualDocuments,
  insertKycAnswers,
  mailSubjects,
} from './customers.test-kit.js';

let t: KycTestApp;
let compliance: SignedInStaff;

beforeAll(async () => {
  t = await createKycTestApp();
  compliance = await signedInStaff(t.app, t.database.db, 'compliance');
});
afterAll(async () => {
  await t.close();
});

const errorOf = (response: { json: () => unknown }) => ErrorBodySchema.parse(response.json());

/** A Corporate customer with a company, one director of `lastName` and the company's approved documents. */
async function insertCompanyCustomer(db: Kysely<DB>, name: string, lastName: string) {
  const customer = await insertCustomer(db, { accountType: 'Corporate' });
  const company = await db
    .insertInto('companies')
    .values({
      user_id: customer.id,
      name,
      company_number: `C${customer.id}`,
      address: '1 Road',
      city: 'Bath',
      country: 'GB',
      zip: 'BA1 1AA',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const director = await db
    .insertInto('company_directors')
    .values({
      company_id: company.id,
      first_name: 'Dee',
      last_name: lastName,
      share_holding: '0',
      address: '1 Road',
      city: 'Bath',
      zip: 'BA1 1AA',
      country: 'GB',
      phone: '+44 1225 000000',
      birthdate: '1975-03-04',
      status: 2,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const key of ['coi', 'aoa', 'cproof_address'] as const) {
    await insertDocument(db, customer.id, { key, status: 'approved' });
  }
  return { customer, director };
}

async function userRow(userId: number) {
  return t.database.db
    .selectFrom('users')
    .select(['status', 'live_since', 'block_status', 'block_reason', 'is_sow_reset'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

async function documentRow(id: number) {
  return t.database.db
    .selectFrom('kyc_documents')
    .select(['status', 'disapprove_note', 'reviewed_by_staff_id'])
    .where('id', '=', String(id))
    .executeTakeFirstOrThrow();
}

describe('the compliance queue', () => {
  it('lists customers with documents awaiting review, oldest waiting first, with their counts', async () => {
    const db = t.database.db;
    const newer = await insertCustomer(db, { firstName: 'Newer' });
    await insertIndividualDocuments(db, newer.id, 60);
    const older = await insertCustomer(db, { firstName: 'Older', accountType: 'Corporate' });
    await insertDocument(db, older.id, { key: 'coi', ageSeconds: 7_200 });
    await insertDocument(db, older.id, { key: 'aoa', status: 'approved', ageSeconds: 7_200 });
    await insertDocument(db, older.id, { key: 'cproof_address', status: 'declined', ageSeconds: 7_200 });
    // Nothing to review: everything approved, but the wizard is not finished.
    const idle = await insertCustomer(db, { firstName: 'Idle' });
    await insertDocument(db, idle.id, { key: 'passport', status: 'approved' });

    const response = await compliance.browser.get('/api/admin/compliance/queue');
    expect(response.statusCode).toBe(200);
    const page = pageSchema(QueueItemSchema).parse(response.json());
    const ids = page.data.map((item) => item.id);
    expect(ids).not.toContain(idle.id);
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(newer.id));
    expect(page.data.find((item) => item.id === older.id)).toMatchObject({
      first_name: 'Older',
      email: older.email,
      user_identification: older.reference,
      account_type: 'Corporate',
      stage: 'documents',
      pending_documents: 1,
      approved_documents: 1,
      declined_documents: 1,
      verification_completed: false,
    });
    expect(page.data.find((item) => item.id === newer.id)).toMatchObject({ pending_documents: 3 });
    expect(page).toMatchObject({ current_page: 1, per_page: 25, prev_page_url: null });
  });

  it('keeps a customer whose documents are all approved in the queue until the account is made live', async () => {
    const db = t.database.db;
    const ready = await insertCustomer(db);
    await insertDocument(db, ready.id, { key: 'passport', status: 'approved' });
    await completeVerification(db, ready.id);
    const page = pageSchema(QueueItemSchema).parse(
      (await compliance.browser.get('/api/admin/compliance/queue')).json(),
    );
    expect(page.data.find((item) => item.id === ready.id)).toMatchObject({
      stage: 'ready',
      pending_documents: 0,
      verification_completed: true,
    });
  });

  it('pages through the queue 25 at a time', async () => {
    const db = t.database.db;
    for (let index = 0; index < 26; index += 1) {
      const customer = await insertCustomer(db);
      await insertDocument(db, customer.id, { key: 'passport', ageSeconds: 100_000 - index });
    }
    const first = pageSchema(QueueItemSchema).parse(
      (await compliance.browser.get('/api/admin/compliance/queue')).json(),
    );
    expect(first.data).toHaveLength(25);
    expect(first.next_page_url).toBe('/api/admin/compliance/queue?page=2');
    const second = pageSchema(QueueItemSchema).parse(
      (await compliance.browser.get('/api/admin/compliance/queue?page=2')).json(),
    );
    expect(second.current_page).toBe(2);
    expect(second.data.map((item) => item.id)).not.toContain(first.data[0]?.id);
  });
});

describe('the case page', () => {
  it("shows the customer's details, answers, company, directors and each current document with its label", async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db, { accountType: 'Corporate', firstName: 'Corin' });
    await insertKycAnswers(db, customer.id);
    const company = await db
      .insertInto('companies')
      .values({
        user_id: customer.id,
        name: 'Acme Widgets Ltd',
        company_number: `0${customer.id}`.padStart(8, '0'),
        address: '2 High Street',
        city: 'Leeds',
        country: 'GB',
        zip: 'LS1 1AA',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const director = await db
      .insertInto('company_directors')
      .values({
        company_id: company.id,
        first_name: 'Olive',
        last_name: 'Owner',
        share_holding: '30.00',
        address: '3 Mill Road',
        city: 'York',
        zip: 'YO1 1AA',
        country: 'GB',
        phone: '+44 1904 000000',
        birthdate: '1970-01-02',
        status: 3,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const replaced = await insertDocument(db, customer.id, {
      key: 'coi',
      status: 'superseded',
      ageSeconds: 600,
    });
    const coi = await insertDocument(db, customer.id, { key: 'coi' });
    const passport = await insertDocument(db, customer.id, { key: 'passport', directorId: director.id });

    const response = await compliance.browser.get(`/api/admin/compliance/cases/${customer.id}`);
    expect(response.statusCode).toBe(200);
    const { data } = { data: ComplianceCaseSchema.parse(response.json<{ data: unknown }>().data) };
    expect(data.customer).toMatchObject({
      id: customer.id,
      first_name: 'Corin',
      account_type: 'Corporate',
      birthdate: '1980-05-17',
      tax_id: 'QQ123456C',
      status: 0,
      block_status: 0,
    });
    expect(data.kyc).toMatchObject({ trades_over_threshold: 0, aware_of_risk: 1 });
    expect(data.company).toMatchObject({
      name: 'Acme Widgets Ltd',
      directors: [
        {
          id: director.id,
          first_name: 'Olive',
          share_holding: '30.00',
          owner: true,
          director: true,
          birthdate: '1970-01-02',
        },
      ],
    });
    expect(data.documents.map((document) => [document.id, document.label, document.status])).toEqual(
      expect.arrayContaining([
        [coi, 'Certificate of Incorporation', 'pending'],
        [passport, 'Passport', 'pending'],
      ]),
    );
    expect(data.documents.find((document) => document.id === passport)?.director_name).toBe('Olive Owner');
    expect(data.replaced_documents.map((document) => document.id)).toEqual([replaced]);
    expect(data.go_live).toEqual({
      allowed: false,
      blockers: [COMPLIANCE_TEXTS.notCompleted, COMPLIANCE_TEXTS.documentsPending],
    });
  });

  it('is 404 for a customer who does not exist', async () => {
    const response = await compliance.browser.get('/api/admin/compliance/cases/2147483000');
    expect(response.statusCode).toBe(404);
    expect(errorOf(response)).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
  });
});

describe("a document's file", () => {
  it('is streamed to compliance for viewing in the page, never to be run or cached', async () => {
    const customer = await newCustomer(t);
    const image = await png();
    const uploaded = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'passport' },
      filePart(image, 'passport.png'),
    ]);
    expect(uploaded.statusCode).toBe(200);
    const pdfUpload = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'proof_address' },
      filePart(pdf(), 'statement.pdf'),
    ]);
    expect(pdfUpload.statusCode).toBe(200);
    const documents = await t.database.db
      .selectFrom('kyc_documents')
      .select(['id', 'key', 'sha256'])
      .where('user_id', '=', customer.id)
      .execute();
    const passport = documents.find((document) => document.key === 'passport');
    const statement = documents.find((document) => document.key === 'proof_address');

    const imageFile = await compliance.browser.get(`/api/admin/documents/${passport?.id}/file`);
    expect(imageFile.statusCode).toBe(200);
    expect(imageFile.headers).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': `inline; filename="passport-${passport?.id}.png"`,
      'content-security-policy': "sandbox; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    // What was stored (re-encoded, without metadata), byte for byte.
    expect(createHash('sha256').update(imageFile.rawPayload).digest('hex')).toBe(passport?.sha256);

    const pdfFile = await compliance.browser.get(`/api/admin/documents/${statement?.id}/file`);
    expect(pdfFile.headers['content-type']).toBe('application/pdf');
    expect(pdfFile.headers['content-disposition']).toBe(
      `inline; filename="proof_address-${statement?.id}.pdf"`,
    );
    expect(pdfFile.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const missing = await compliance.browser.get('/api/admin/documents/999999999/file');
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing)).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
  });

  it('is audited each time staff view it: who, from where, whose and which document', async () => {
    const customer = await newCustomer(t);
    const uploaded = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'passport' },
      filePart(await png(), 'passport.png'),
    ]);
    expect(uploaded.statusCode).toBe(200);
    const passport = await t.database.db
      .selectFrom('kyc_documents')
      .select('id')
      .where('user_id', '=', customer.id)
      .executeTakeFirstOrThrow();

    expect((await compliance.browser.get(`/api/admin/documents/${passport.id}/file`)).statusCode).toBe(200);
    expect((await compliance.browser.get(`/api/admin/documents/${passport.id}/file`)).statusCode).toBe(200);
    const viewed = {
      action: 'kyc.document_viewed',
      staff_id: compliance.id,
      before: null,
      after: { document_id: Number(passport.id), key: 'passport' },
      ip: compliance.browser.ip,
    };
    expect(await auditRows(t.database.db, 'user', customer.id)).toEqual([viewed, viewed]);
  });
});

describe('deciding a document', () => {
  it('approves it, audits who did it with before and after, and e-mails the customer; approving again changes nothing', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const id = await insertDocument(db, customer.id, { key: 'passport' });

    const approved = await compliance.browser.post(`/api/admin/documents/${id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      message: COMPLIANCE_TEXTS.documentApproved,
      data: { id, status: 'approved', label: 'Passport', reviewed_by: compliance.email },
    });
    expect(await documentRow(id)).toEqual({
      status: 'approved',
      disapprove_note: null,
      reviewed_by_staff_id: compliance.id,
    });
    const again = await compliance.browser.post(`/api/admin/documents/${id}/approve`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ message: COMPLIANCE_TEXTS.documentAlreadyApproved });

    expect(await auditRows(db, 'kyc_document', id)).toEqual([
      {
        action: 'kyc.document_approved',
        staff_id: compliance.id,
        before: { user_id: customer.id, key: 'passport', status: 'pending', disapprove_note: null },
        after: { user_id: customer.id, key: 'passport', status: 'approved', disapprove_note: null },
        ip: compliance.browser.ip,
      },
    ]);
    expect(await mailSubjects(db, customer.email)).toEqual(['Your document was approved — Florin']);
  });

  it('declines it only with a note of 1 to 500 characters, which the customer is sent as the cause', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const id = await insertDocument(db, customer.id, { key: 'proof_address' });

    for (const [body, message] of [
      [{}, COMPLIANCE_TEXTS.declineNoteRequired],
      [{ note: '   ' }, COMPLIANCE_TEXTS.declineNoteRequired],
      [{ note: 'x'.repeat(501) }, COMPLIANCE_TEXTS.declineNoteTooLong],
    ] as const) {
      const refused = await compliance.browser.post(`/api/admin/documents/${id}/decline`, body);
      expect(refused.statusCode).toBe(422);
      expect(errorOf(refused)).toMatchObject({ code: 'VALIDATION_FAILED', errors: { note: [message] } });
    }
    expect((await documentRow(id)).status).toBe('pending');

    const note = 'The statement is older than three months.';
    const declined = await compliance.browser.post(`/api/admin/documents/${id}/decline`, { note });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({
      message: COMPLIANCE_TEXTS.documentDeclined,
      data: { status: 'declined', disapprove_note: note, label: 'Proof of Address' },
    });
    expect(await documentRow(id)).toMatchObject({ status: 'declined', disapprove_note: note });
    const [audit] = await auditRows(db, 'kyc_document', id);
    expect(audit).toMatchObject({
      action: 'kyc.document_declined',
      before: { status: 'pending', disapprove_note: null },
      after: { status: 'declined', disapprove_note: note },
    });
    const [mail] = await db
      .selectFrom('dev_mailbox')
      .select(['subject', 'text'])
      .where('to', '=', customer.email)
      .execute();
    expect(mail?.subject).toBe('Please upload your document again — Florin');
    expect(mail?.text).toContain(`Cause of rejection: ${note}`);
    expect(mail?.text).toContain('Proof of Address');

    // The same decision twice is a retry; another note on a declined document is a conflict.
    expect((await compliance.browser.post(`/api/admin/documents/${id}/decline`, { note })).statusCode).toBe(
      200,
    );
    const otherNote = await compliance.browser.post(`/api/admin/documents/${id}/decline`, {
      note: 'Another.',
    });
    expect(otherNote.statusCode).toBe(409);
    expect(errorOf(otherNote)).toMatchObject({
      code: 'CONFLICT',
      message: COMPLIANCE_TEXTS.documentAlreadyDeclined,
    });
    expect(await auditRows(db, 'kyc_document', id)).toHaveLength(1);
  });

  it('refuses to decide a document the customer has since replaced', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const id = await insertDocument(db, customer.id, { key: 'passport', status: 'superseded' });
    for (const [path, body] of [
      ['approve', undefined],
      ['decline', { note: 'Blurred.' }],
    ] as const) {
      const response = await compliance.browser.post(`/api/admin/documents/${id}/${path}`, body);
      expect(response.statusCode).toBe(409);
      expect(errorOf(response)).toMatchObject({
        code: 'CONFLICT',
        message: COMPLIANCE_TEXTS.documentSuperseded,
      });
    }
    expect(await auditRows(db, 'kyc_document', id)).toEqual([]);
  });

  it('is 404 for a document that does not exist', async () => {
    const response = await compliance.browser.post('/api/admin/documents/999999999/approve');
    expect(response.statusCode).toBe(404);
    expect(errorOf(response).code).toBe('NOT_FOUND');
  });
});

describe("the account's state", () => {
  it('refuses to make an account live while verification is unfinished or a document is pending or declined', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const documents = await insertIndividualDocuments(db, customer.id);
    const makeLive = () => compliance.browser.post(`/api/admin/compliance/cases/${customer.id}/make-live`);

    const unfinished = await makeLive();
    expect(unfinished.statusCode).toBe(409);
    expect(errorOf(unfinished)).toMatchObject({
      code: 'CONFLICT',
      message: COMPLIANCE_TEXTS.cannotGoLive,
      data: { blockers: [COMPLIANCE_TEXTS.notCompleted, COMPLIANCE_TEXTS.documentsPending] },
    });

    await completeVerification(db, customer.id);
    await compliance.browser.post(`/api/admin/documents/${documents.passport}/approve`);
    await compliance.browser.post(`/api/admin/documents/${documents.proof_selfie}/approve`);
    const pending = await makeLive();
    expect(pending.statusCode).toBe(409);
    expect(errorOf(pending).data).toEqual({ blockers: [COMPLIANCE_TEXTS.documentsPending] });

    await compliance.browser.post(`/api/admin/documents/${documents.proof_address}/decline`, {
      note: 'Too old.',
    });
    const declined = await makeLive();
    expect(declined.statusCode).toBe(409);
    expect(errorOf(declined).data).toEqual({ blockers: [COMPLIANCE_TEXTS.documentsDeclined] });
    expect((await userRow(customer.id)).status).toBe(0);
    expect((await auditRows(db, 'user', customer.id)).map((row) => row.action)).toEqual([]);
  });

  it("counts the directors' documents too", async () => {
    const db = t.database.db;
    const { customer, director } = await insertCompanyCustomer(db, 'Directors Ltd', 'Rector');
    await insertDocument(db, customer.id, { key: 'passport', directorId: director.id, status: 'declined' });
    await insertDocument(db, customer.id, {
      key: 'proof_address',
      directorId: director.id,
      status: 'approved',
    });
    await completeVerification(db, customer.id);
    const refused = await compliance.browser.post(`/api/admin/compliance/cases/${customer.id}/make-live`);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).data).toEqual({ blockers: [COMPLIANCE_TEXTS.documentsDeclined] });
  });

  it('refuses to make an account live while a step is missing again: a new address after the wizard needs its proof', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const documents = await insertIndividualDocuments(db, customer.id);
    await completeVerification(db, customer.id);
    // The customer moves after finishing the wizard: the proof of the old address no longer counts.
    const browser = await customerBrowser(t.app, db, customer.id);
    const moved = await browser.put('/api/v1/users', { ...DETAILS, birthdate: '1980-05-17' });
    expect(moved.statusCode).toBe(200);
    expect((await documentRow(documents.proof_address)).status).toBe('superseded');
    for (const id of [documents.passport, documents.proof_selfie]) {
      expect((await compliance.browser.post(`/api/admin/documents/${id}/approve`)).statusCode).toBe(200);
    }

    const shown = await compliance.browser.get(`/api/admin/compliance/cases/${customer.id}`);
    expect(ComplianceCaseSchema.parse(shown.json<{ data: unknown }>().data).go_live).toEqual({
      allowed: false,
      blockers: [COMPLIANCE_TEXTS.stepMissing],
    });
    // The customer's page in the back office says the same.
    const profile = await compliance.browser.get(`/api/admin/customers/${customer.id}`);
    expect(profile.json<{ data: { go_live: unknown } }>().data.go_live).toEqual({
      allowed: false,
      blockers: [COMPLIANCE_TEXTS.stepMissing],
    });
    const refused = await compliance.browser.post(`/api/admin/compliance/cases/${customer.id}/make-live`);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toMatchObject({
      code: 'CONFLICT',
      message: COMPLIANCE_TEXTS.cannotGoLive,
      data: { blockers: [COMPLIANCE_TEXTS.stepMissing] },
    });
    expect((await userRow(customer.id)).status).toBe(0);
    expect(await auditRows(db, 'user', customer.id)).toEqual([]);
  });

  it('refuses to make a company live without a director', async () => {
    const db = t.database.db;
    const { customer, director } = await insertCompanyCustomer(db, 'Lone Ltd', 'Parted');
    for (const key of ['passport', 'proof_address'] as const) {
      await insertDocument(db, customer.id, { key, directorId: director.id, status: 'approved' });
    }
    await completeVerification(db, customer.id);
    // Handed in, the customer can no longer remove the last director…
    const browser = await customerBrowser(t.app, db, customer.id);
    expect((await browser.delete(`/api/v1/users/corporate/company-director/${director.id}`)).statusCode).toBe(
      409,
    );
    // …but a company that lost it before that rule did: going live still refuses it.
    await db
      .updateTable('company_directors')
      .set({ deleted_at: new Date() })
      .where('id', '=', director.id)
      .execute();

    const refused = await compliance.browser.post(`/api/admin/compliance/cases/${customer.id}/make-live`);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).data).toEqual({ blockers: [COMPLIANCE_TEXTS.stepMissing] });
    expect((await userRow(customer.id)).status).toBe(0);
  });

  it('makes the account live once everything is approved, audits it and e-mails the customer, once', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const documents = await insertIndividualDocuments(db, customer.id);
    await completeVerification(db, customer.id);
    for (const id of Object.values(documents)) {
      expect((await compliance.browser.post(`/api/admin/documents/${id}/approve`)).statusCode).toBe(200);
    }
    const live = await compliance.browser.post(`/api/admin/compliance/cases/${customer.id}/make-live`);
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({
      message: COMPLIANCE_TEXTS.madeLive,
      data: { id: customer.id, status: 1 },
    });
    const row = await userRow(customer.id);
    expect(row.status).toBe(1);
    expect(row.live_since).toBeInstanceOf(Date);

    const again = await compliance.browser.post(`/api/admin/compliance/cases/${customer.id}/make-live`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ message: COMPLIANCE_TEXTS.alreadyLive });

    const audit = await auditRows(db, 'user', customer.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'user.made_live',
      staff_id: compliance.id,
      before: { status: 0, live_since: null },
      after: { status: 1, live_since: row.live_since?.toISOString() },
    });
    const subjects = await mailSubjects(db, customer.email);
    expect(subjects.filter((subject) => subject === 'Your Florin account is live — Florin')).toHaveLength(1);

    // The customer's own view: live, and nothing left to re-upload.
    const browser = await customerBrowser(t.app, db, customer.id);
    const me = await browser.get('/api/v1/user');
    expect(me.json()).toMatchObject({ data: { status: 1, block_status: 0, denied_documents: 0 } });
  });

  it('puts the account on hold with a reason and lifts it, each audited and e-mailed; twice is a conflict', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const base = `/api/admin/compliance/cases/${customer.id}`;

    const noReason = await compliance.browser.post(`${base}/hold`, { reason: '' });
    expect(noReason.statusCode).toBe(422);
    expect(errorOf(noReason).errors).toEqual({ reason: [COMPLIANCE_TEXTS.reasonRequired] });

    const reason = 'Sanctions screening match under review.';
    const held = await compliance.browser.post(`${base}/hold`, { reason });
    expect(held.statusCode).toBe(200);
    expect(held.json()).toMatchObject({
      message: COMPLIANCE_TEXTS.putOnHold,
      data: { block_status: 2, block_reason: reason },
    });
    const twice = await compliance.browser.post(`${base}/hold`, { reason });
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice)).toMatchObject({ code: 'CONFLICT', message: COMPLIANCE_TEXTS.alreadyOnHold });

    const browser = await customerBrowser(t.app, db, customer.id);
    expect((await browser.get('/api/v1/user')).json()).toMatchObject({ data: { block_status: 2 } });

    const lifted = await compliance.browser.post(`${base}/lift-hold`, { reason: 'Cleared: a false match.' });
    expect(lifted.statusCode).toBe(200);
    expect(await userRow(customer.id)).toMatchObject({ block_status: 0, block_reason: null });
    const notHeld = await compliance.browser.post(`${base}/lift-hold`, { reason: 'Again.' });
    expect(notHeld.statusCode).toBe(409);
    expect(errorOf(notHeld).message).toBe(COMPLIANCE_TEXTS.notOnHold);

    expect(await auditRows(db, 'user', customer.id)).toEqual([
      expect.objectContaining({
        action: 'user.put_on_hold',
        before: { block_status: 0, block_reason: null },
        after: { block_status: 2, block_reason: reason },
      }),
      expect.objectContaining({
        action: 'user.hold_lifted',
        before: { block_status: 2, block_reason: reason },
        after: { block_status: 0, block_reason: null, reason: 'Cleared: a false match.' },
      }),
    ]);
    expect(await mailSubjects(db, customer.email)).toEqual([
      'Your Florin account is on hold — Florin',
      'The hold on your Florin account is lifted — Florin',
    ]);
  });

  it('asks the customer for the source of wealth again, once they have answered it', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const path = `/api/admin/compliance/cases/${customer.id}/reset-source-of-wealth`;
    const reason = 'Annual review of high-value customers.';

    const unanswered = await compliance.browser.post(path, { reason });
    expect(unanswered.statusCode).toBe(409);
    expect(errorOf(unanswered).message).toBe(COMPLIANCE_TEXTS.sourceOfWealthNotAnswered);

    await insertKycAnswers(db, customer.id);
    const reset = await compliance.browser.post(path, { reason });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({
      message: COMPLIANCE_TEXTS.sourceOfWealthReset,
      data: { is_sow_reset: 1 },
    });
    expect((await userRow(customer.id)).is_sow_reset).toBe(1);
    const again = await compliance.browser.post(path, { reason });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(COMPLIANCE_TEXTS.sourceOfWealthAlreadyReset);

    expect(await auditRows(db, 'user', customer.id)).toEqual([
      expect.objectContaining({
        action: 'user.source_of_wealth_reset',
        before: { is_sow_reset: 0 },
        after: { is_sow_reset: 1, reason },
      }),
    ]);
    expect(await mailSubjects(db, customer.email)).toEqual([
      'Please tell us about your source of wealth again — Florin',
    ]);
    const browser = await customerBrowser(t.app, db, customer.id);
    expect((await browser.get('/api/v1/user')).json()).toMatchObject({ data: { is_sow_reset: 1 } });
  });
});

describe('who may see compliance', () => {
  it('admits compliance and superadmin staff, and answers support, finance, customers and strangers 404', async () => {
    const db = t.database.db;
    const customer = await insertCustomer(db);
    const id = await insertDocument(db, customer.id, { key: 'passport' });
    const superadmin = await signedInStaff(t.app, db, 'superadmin');
    expect((await superadmin.browser.get('/api/admin/compliance/queue')).statusCode).toBe(200);
    expect((await superadmin.browser.get(`/api/admin/compliance/cases/${customer.id}`)).statusCode).toBe(200);

    const outsiders = [
      (await signedInStaff(t.app, db, 'support')).browser,
      (await signedInStaff(t.app, db, 'finance')).browser,
      await customerBrowser(t.app, db, customer.id),
      createBrowser(t.app),
    ];
    for (const browser of outsiders) {
      for (const response of [
        await browser.get('/api/admin/compliance/queue'),
        await browser.get(`/api/admin/compliance/cases/${customer.id}`),
        await browser.get(`/api/admin/documents/${id}/file`),
        await browser.post(`/api/admin/documents/${id}/approve`),
        await browser.post(`/api/admin/documents/${id}/decline`, { note: 'No.' }),
        await browser.post(`/api/admin/compliance/cases/${customer.id}/make-live`),
        await browser.post(`/api/admin/compliance/cases/${customer.id}/hold`, { reason: 'No.' }),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(errorOf(response)).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
      }
    }
    expect((await documentRow(id)).status).toBe('pending');
  });

  it('sweeps every /api/admin route: a signed-in customer sees only 404s', async () => {
    const customer = await insertCustomer(t.database.db);
    const browser = await customerBrowser(t.app, t.database.db, customer.id);
    const answers = await callEveryAdminRoute(t.app, browser);
    expect(answers.map((answer) => answer.route)).toEqual(
      expect.arrayContaining(['GET /api/admin/compliance/queue', 'POST /api/admin/customers/1/reset-2fa']),
    );
    expect(answersOtherThanNotFound(answers)).toEqual([]);
  });
});
