import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLIANCE_TEXTS, ComplianceCaseSchema, pageSchema, QueueItemSchema } from '@florin/contracts';
import { createKycTestApp, filePart, newCustomer, pdf, png, type KycTestApp } from '../kyc/kyc.test-kit.js';
import {
  answersOtherThanNotFound,
  callEveryAdminRoute,
  signedInStaff,
  type SignedInStaff,
} from '../../test/admin.js';
import { createBrowser } from '../../test/browser.js';
import { errorOf } from '../fiat/fiat.test-kit.js';
import {
  auditRows,
  documentRow,
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
    expect(await documentRow(t.database.db, id)).toEqual({
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
    expect((await documentRow(t.database.db, id)).status).toBe('pending');

    const note = 'The statement is older than three months.';
    const declined = await compliance.browser.post(`/api/admin/documents/${id}/decline`, { note });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({
      message: COMPLIANCE_TEXTS.documentDeclined,
      data: { status: 'declined', disapprove_note: note, label: 'Proof of Address' },
    });
    expect(await documentRow(t.database.db, id)).toMatchObject({ status: 'declined', disapprove_note: note });
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
    expect((await documentRow(t.database.db, id)).status).toBe('pending');
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
