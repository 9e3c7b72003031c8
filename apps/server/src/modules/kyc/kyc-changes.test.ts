import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_TEXTS, type Document } from '@florin/contracts';
import {
  DETAILS,
  WEALTH_NO,
  WEALTH_YES,
  createKycTestApp,
  errorOf,
  idProof,
  jpeg,
  newCustomer,
  pdf,
  png,
  uploadByKey,
  type KycTestApp,
} from './kyc.test-kit.js';

let t: KycTestApp;

beforeAll(async () => {
  t = await createKycTestApp();
});
afterAll(async () => {
  await t.close();
});

async function declineDocument(documentId: number, note: string) {
  await t.database.db
    .updateTable('kyc_documents')
    .set({ status: 'declined', disapprove_note: note, reviewed_at: new Date() })
    .where('id', '=', String(documentId))
    .execute();
}

describe('declined documents', () => {
  it('are counted, shown with the note, and a re-upload makes a new pending document', async () => {
    const customer = await newCustomer(t);
    await customer.put('/api/v1/users', DETAILS);
    const uploaded = await idProof(customer, 'proof_address', [{ bytes: pdf(), filename: 'bill.pdf' }]);
    const [document] = uploaded.json<{ data: { documents: Document[] } }>().data.documents;
    await declineDocument(document?.id ?? 0, 'The bill is older than three months.');

    let user = await customer.user();
    expect(user.denied_documents).toBe(1);
    expect(user.is_proof_address_submitted).toBe(1);
    expect(user.documents).toMatchObject([
      {
        key: 'proof_address',
        is_admin_approved: -1,
        disapprove_note: 'The bill is older than three months.',
      },
    ]);

    const again = await uploadByKey(customer, 'proof_address', {
      bytes: await jpeg(),
      filename: 'new-bill.jpg',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: Document }>().data).toMatchObject({
      key: 'proof_address',
      is_admin_approved: 0,
    });
    user = await customer.user();
    expect(user.denied_documents).toBe(0);
    expect(user.documents).toMatchObject([
      { key: 'proof_address', is_admin_approved: 0, disapprove_note: null },
    ]);
  });
});

describe('a live customer', () => {
  async function liveCustomer(answers: object = WEALTH_YES) {
    const customer = await newCustomer(t);
    await customer.put('/api/v1/users', DETAILS);
    await idProof(customer, 'passport', [{ bytes: await jpeg(), filename: 'passport.jpg' }]);
    await idProof(customer, 'proof_address', [{ bytes: pdf(), filename: 'bill.pdf' }]);
    await customer.post('/api/v1/settings/kyc/create', answers);
    await t.database.db
      .updateTable('kyc_documents')
      .set({ status: 'approved' })
      .where('user_id', '=', customer.id)
      .execute();
    await t.database.db.updateTable('users').set({ status: 1 }).where('id', '=', customer.id).execute();
    return customer;
  }

  it('may change phone and address; a new address needs a new proof of address, which goes to review', async () => {
    const customer = await liveCustomer();
    const phoneOnly = await customer.put('/api/v1/users', { ...DETAILS, phone: '+44 7700 900123' });
    expect(phoneOnly.statusCode).toBe(200);
    expect(await customer.user()).toMatchObject({ phone: '+44 7700 900123', is_proof_address_submitted: 1 });

    const moved = await customer.put('/api/v1/users', {
      ...DETAILS,
      address: '9 New Road',
      zip: 'M1 1AE',
      city: 'Manchester',
    });
    expect(moved.statusCode).toBe(200);
    let user = await customer.user();
    expect(user).toMatchObject({
      address: '9 New Road',
      city: 'Manchester',
      status: 1,
      is_proof_address_submitted: 0,
    });
    expect(user.documents.map((document) => document.key)).toEqual(['passport']);

    await idProof(customer, 'proof_address', [{ bytes: await png(), filename: 'new-bill.png' }]);
    user = await customer.user();
    expect(user.is_proof_address_submitted).toBe(1);
    expect(user.documents).toMatchObject([
      { key: 'passport', is_admin_approved: 1 },
      { key: 'proof_address', is_admin_approved: 0 },
    ]);
  });

  it('may not change date of birth or nationality', async () => {
    const customer = await liveCustomer();
    const response = await customer.put('/api/v1/users', {
      ...DETAILS,
      birthdate: '1991-05-17',
      nationality: 'FR',
    });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).errors).toEqual({
      birthdate: [KYC_TEXTS.birthdateLocked],
      nationality: [KYC_TEXTS.birthdateLocked],
    });
    expect(await customer.user()).toMatchObject({ birthdate: DETAILS.birthdate, nationality: 'GB' });
  });

  it('may not rewrite the source-of-wealth answers staff reviewed, only answer again after a reset', async () => {
    const declared = { ...WEALTH_YES, criminal: 1, criminal_details: 'A conviction for fraud in 2015.' };
    const customer = await liveCustomer(declared);
    const answers = () =>
      t.database.db
        .selectFrom('kyc_answers')
        .select(['criminal', 'criminal_details'])
        .where('user_id', '=', customer.id)
        .executeTakeFirstOrThrow();

    const rewrite = await customer.post('/api/v1/settings/kyc/update', WEALTH_YES);
    expect(rewrite.statusCode).toBe(409);
    expect(errorOf(rewrite)).toMatchObject({ code: 'CONFLICT', message: KYC_TEXTS.answersLocked });
    expect(await answers()).toEqual({ criminal: 1, criminal_details: declared.criminal_details });

    await t.database.db.updateTable('users').set({ is_sow_reset: 1 }).where('id', '=', customer.id).execute();
    const again = await customer.post('/api/v1/settings/kyc/update', { ...WEALTH_YES, sow_reset: 0 });
    expect(again.statusCode).toBe(200);
    expect(await answers()).toEqual({ criminal: 0, criminal_details: null });
    expect(await customer.user()).toMatchObject({ is_sow_reset: 0, is_wealth_submitted: 1 });
    // Answered again: locked again until staff ask once more.
    expect((await customer.post('/api/v1/settings/kyc/update', declared)).statusCode).toBe(409);
  });
});

describe('a customer who finished the wizard', () => {
  it('may not change date of birth or nationality while staff check them against the ID', async () => {
    const customer = await newCustomer(t);
    expect((await customer.put('/api/v1/users', DETAILS)).statusCode).toBe(200);
    await idProof(customer, 'passport', [{ bytes: await jpeg(), filename: 'passport.jpg' }]);
    await idProof(customer, 'proof_selfie', [{ bytes: await jpeg(), filename: 'selfie.jpg' }]);
    await idProof(customer, 'proof_address', [{ bytes: pdf(), filename: 'bill.pdf' }]);
    await customer.post('/api/v1/settings/kyc/create', WEALTH_NO);
    expect((await customer.put('/api/v1/users/account_type', { account_type: 'Instant' })).statusCode).toBe(
      200,
    );
    expect(await customer.user()).toMatchObject({ status: 0, verification_completed: 1 });

    const response = await customer.put('/api/v1/users', {
      ...DETAILS,
      birthdate: '1991-05-17',
      nationality: 'FR',
    });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toMatchObject({
      message: KYC_TEXTS.birthdateLocked,
      errors: { birthdate: [KYC_TEXTS.birthdateLocked], nationality: [KYC_TEXTS.birthdateLocked] },
    });
    expect(await customer.user()).toMatchObject({ birthdate: DETAILS.birthdate, nationality: 'GB' });

    // The phone is not on the ID: it still changes.
    const phone = await customer.put('/api/v1/users', { ...DETAILS, phone: '+44 7700 900456' });
    expect(phone.statusCode).toBe(200);

    // The answers staff are about to review are locked from now too.
    const answers = await customer.post('/api/v1/settings/kyc/update', WEALTH_YES);
    expect(answers.statusCode).toBe(409);
    expect(errorOf(answers).message).toBe(KYC_TEXTS.answersLocked);
    expect((await customer.user()).kyc).toMatchObject({ trades_over_threshold: 0 });
  });
});
