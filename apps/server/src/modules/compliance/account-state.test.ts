import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLIANCE_TEXTS, ComplianceCaseSchema } from '@florin/contracts';
import { createKycTestApp, DETAILS, type KycTestApp } from '../kyc/kyc.test-kit.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import type { DB } from '../../db/schema.js';
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
    expect((await documentRow(t.database.db, documents.proof_address)).status).toBe('superseded');
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
