import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_TEXTS, type Director, type Document, type User } from '@florin/contracts';
import {
  COMPANY,
  DETAILS,
  DIRECTOR,
  WEALTH_NO,
  WEALTH_YES,
  createKycTestApp,
  errorOf,
  filePart,
  jpeg,
  newCustomer,
  pdf,
  png,
  type Customer,
  type KycTestApp,
} from './kyc.test-kit.js';

let t: KycTestApp;

beforeAll(async () => {
  t = await createKycTestApp();
});
afterAll(async () => {
  await t.close();
});

const FLAG_NAMES = [
  'is_kyc_submitted',
  'is_photo_id_submitted',
  'is_selfie_submitted',
  'is_proof_address_submitted',
  'is_wealth_submitted',
] as const;

function flagsOf(user: User) {
  return Object.fromEntries(FLAG_NAMES.map((name) => [name, user[name]]));
}

function flags(kyc: 0 | 1, photo: 0 | 1, selfie: 0 | 1, address: 0 | 1, wealth: 0 | 1) {
  return {
    is_kyc_submitted: kyc,
    is_photo_id_submitted: photo,
    is_selfie_submitted: selfie,
    is_proof_address_submitted: address,
    is_wealth_submitted: wealth,
  };
}

async function idProof(customer: Customer, docType: string, files: { bytes: Buffer; filename: string }[]) {
  return customer.upload('/api/v1/user/id-proof', [
    { name: 'doc_type', value: docType },
    ...files.map((file) => filePart(file.bytes, file.filename, files.length > 1 ? 'file[]' : 'file')),
  ]);
}

async function uploadByKey(
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

async function documentRows(userId: number) {
  return t.database.db
    .selectFrom('kyc_documents')
    .select(['id', 'key', 'status', 'director_id', 'content_type', 'original_name', 'size_bytes', 'sha256'])
    .where('user_id', '=', userId)
    .orderBy('seq')
    .execute();
}

async function declineDocument(documentId: number, note: string) {
  await t.database.db
    .updateTable('kyc_documents')
    .set({ status: 'declined', disapprove_note: note, reviewed_at: new Date() })
    .where('id', '=', String(documentId))
    .execute();
}

describe('GET /api/v1/user carries the verification state', () => {
  it('shows a new customer with nothing submitted and the compliance mailbox', async () => {
    const customer = await newCustomer(t, { accountType: null });
    const user = await customer.user();
    expect(flagsOf(user)).toEqual(flags(0, 0, 0, 0, 0));
    expect(user).toMatchObject({
      account_type: null,
      country: null,
      birthdate: null,
      is_sow_reset: 0,
      ico_confirmed: 0,
      account_tiers_class: 1,
      verification_completed: 0,
      denied_documents: 0,
      documents: [],
      kyc: null,
      company: null,
      compliance_email: 'compliance@florin.local',
    });
  });
});

describe('the texts of spec 000 section 5 come from the API', () => {
  it('refuses empty address fields with the four address texts', async () => {
    const customer = await newCustomer(t);
    const response = await customer.put('/api/v1/users', {
      ...DETAILS,
      address: '',
      phone: ' ',
      city: '',
      zip: '',
    });
    expect(response.statusCode).toBe(422);
    const body = errorOf(response);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors).toEqual({
      address: [KYC_TEXTS.addressRequired],
      phone: [KYC_TEXTS.phoneRequired],
      city: [KYC_TEXTS.cityRequired],
      zip: [KYC_TEXTS.zipRequired],
    });
  });

  it.each([
    ['a birthdate in the future', { birthdate: '2999-01-01' }, 'birthdate', KYC_TEXTS.birthdateFuture],
    [
      'someone under 18',
      { birthdate: `${new Date().getUTCFullYear() - 17}-01-01` },
      'birthdate',
      KYC_TEXTS.underAge,
    ],
    ['a country Florin does not serve', { country: 'US' }, 'country', KYC_TEXTS.countryNotServed],
    ['a malformed National Insurance number', { tax_id: 'QQ123456C' }, 'tax_id', KYC_TEXTS.niNumberInvalid],
  ])('refuses %s', async (_case, change, field, text) => {
    const customer = await newCustomer(t);
    const response = await customer.put('/api/v1/users', { ...DETAILS, ...change });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).errors).toEqual({ [field]: [text] });
  });

  it('refuses empty company fields with the company texts', async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    const response = await customer.post('/api/v1/users/corporate/company', {
      ...COMPANY,
      name: '',
      address: '',
      city: '',
      zip: '',
    });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).errors).toEqual({
      name: [KYC_TEXTS.nameRequired],
      address: [KYC_TEXTS.addressRequired],
      city: [KYC_TEXTS.cityRequired],
      zip: [KYC_TEXTS.zipRequired],
    });
  });

  it('refuses a director who is neither owner nor director, or under 18', async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    expect((await customer.post('/api/v1/users/corporate/company', COMPANY)).statusCode).toBe(200);
    const { status: _status, ...withoutStatus } = DIRECTOR;
    const noSelection = await customer.post('/api/v1/users/corporate/company-director', withoutStatus);
    expect(noSelection.statusCode).toBe(422);
    expect(errorOf(noSelection).errors).toEqual({ status: [KYC_TEXTS.missingSelection] });

    const young = await customer.post('/api/v1/users/corporate/company-director', {
      ...DIRECTOR,
      birthdate: `${new Date().getUTCFullYear() - 16}-06-01`,
    });
    expect(young.statusCode).toBe(422);
    expect(errorOf(young).errors).toEqual({ birthdate: [KYC_TEXTS.underAge] });
  });

  it('asks for an answer to the source-of-wealth question', async () => {
    const customer = await newCustomer(t);
    const response = await customer.post('/api/v1/settings/kyc/create', {});
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).errors).toEqual({ aware_of_risk: [KYC_TEXTS.pleaseChoose] });
  });

  it('refuses a file that is not JPEG, PNG or PDF, and a licence without two images', async () => {
    const customer = await newCustomer(t);
    const gif = await idProof(customer, 'passport', [
      { bytes: Buffer.from('GIF89a\x01\x00\x01\x00'), filename: 'id.gif' },
    ]);
    expect(gif.statusCode).toBe(422);
    expect(errorOf(gif)).toMatchObject({ code: 'UNSUPPORTED_FILE', message: KYC_TEXTS.fileFormat });

    const oneSide = await idProof(customer, 'driver_license', [
      { bytes: await jpeg(), filename: 'front.jpg' },
    ]);
    expect(oneSide.statusCode).toBe(422);
    expect(errorOf(oneSide)).toMatchObject({
      message: KYC_TEXTS.twoImages,
      errors: { file: [KYC_TEXTS.twoImages] },
    });

    const threeSides = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'driver_license' },
      filePart(await jpeg(), 'a.jpg', 'file[]'),
      filePart(await jpeg(), 'b.jpg', 'file[]'),
      filePart(await jpeg(), 'c.jpg', 'file[]'),
    ]);
    expect(threeSides.statusCode).toBe(422);
    expect(errorOf(threeSides).errors).toEqual({ file: [KYC_TEXTS.twoImages] });
    expect(await documentRows(customer.id)).toEqual([]);
  });
});

describe('an Individual customer goes through every step', () => {
  it('with a passport and the yes branch of source of wealth, then chooses Trade', async () => {
    const customer = await newCustomer(t, { accountType: null });
    expect(
      (await customer.put('/api/v1/users/account_type', { account_type: 'Individual' })).statusCode,
    ).toBe(200);

    const details = await customer.put('/api/v1/users', { ...DETAILS, tax_id: 'ab 12 34 56 c' });
    expect(details.statusCode).toBe(200);
    let user = await customer.user();
    expect(flagsOf(user)).toEqual(flags(1, 0, 0, 0, 0));
    expect(user).toMatchObject({ ...DETAILS, tax_id: 'AB123456C', account_type: 'Individual' });

    const passport = await idProof(customer, 'passport', [
      { bytes: await jpeg(), filename: 'My Passport.JPG' },
    ]);
    expect(passport.statusCode).toBe(200);
    const uploaded = passport.json<{ data: { done: 1; documents: Document[] } }>().data;
    expect(uploaded.done).toBe(1);
    expect(uploaded.documents).toMatchObject([
      { key: 'passport', is_admin_approved: 0, content_type: 'image/jpeg' },
    ]);
    expect(flagsOf(await customer.user())).toEqual(flags(1, 1, 0, 0, 0));

    expect(
      (await idProof(customer, 'proof_selfie', [{ bytes: await png(), filename: 'selfie.png' }])).statusCode,
    ).toBe(200);
    expect(flagsOf(await customer.user())).toEqual(flags(1, 1, 1, 0, 0));

    expect(
      (await idProof(customer, 'proof_address', [{ bytes: pdf(), filename: 'bill.pdf' }])).statusCode,
    ).toBe(200);
    expect(flagsOf(await customer.user())).toEqual(flags(1, 1, 1, 1, 0));

    const early = await customer.put('/api/v1/users/account_type', {
      account_type: 'Trade',
      platform: 2,
      account_tiers_class: 4,
      ico_confirmed: 1,
    });
    expect(early.statusCode).toBe(409);
    expect(errorOf(early).message).toBe(KYC_TEXTS.stepsIncomplete);

    expect((await customer.post('/api/v1/settings/kyc/create', WEALTH_YES)).statusCode).toBe(200);
    user = await customer.user();
    expect(flagsOf(user)).toEqual(flags(1, 1, 1, 1, 1));
    expect(user.kyc).toMatchObject({ ...WEALTH_YES, offense_details: null });

    const trade = await customer.put('/api/v1/users/account_type', {
      account_type: 'Trade',
      platform: 2,
      account_tiers_class: 4,
      ico_confirmed: 1,
    });
    expect(trade.statusCode).toBe(200);
    user = await customer.user();
    expect(user).toMatchObject({
      platform: 2,
      account_tiers_class: 4,
      ico_confirmed: 1,
      verification_completed: 1,
    });
    expect(user.documents.map((document) => document.key)).toEqual([
      'passport',
      'proof_selfie',
      'proof_address',
    ]);

    const rows = await documentRows(customer.id);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      original_name: 'My Passport.JPG',
      content_type: 'image/jpeg',
      status: 'pending',
    });
    expect(rows[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);

    const instantLater = await customer.put('/api/v1/users/account_type', { account_type: 'Instant' });
    expect(instantLater.statusCode).toBe(409);
    expect(errorOf(instantLater).message).toBe(KYC_TEXTS.accountTypeLocked);
  });

  it('with a driver licence (two files) and the no branch, then chooses Instant', async () => {
    const customer = await newCustomer(t);
    expect((await customer.put('/api/v1/users', DETAILS)).statusCode).toBe(200);

    const licence = await idProof(customer, 'driver_license', [
      { bytes: await jpeg(), filename: 'front.jpg' },
      { bytes: await png(), filename: 'back.png' },
    ]);
    expect(licence.statusCode).toBe(200);
    expect(
      licence.json<{ data: { documents: Document[] } }>().data.documents.map((document) => document.key),
    ).toEqual(['id_front', 'id_back']);
    expect(flagsOf(await customer.user())).toEqual(flags(1, 1, 0, 0, 0));

    expect(
      (await idProof(customer, 'proof_selfie', [{ bytes: await jpeg(), filename: 'selfie.jpg' }])).statusCode,
    ).toBe(200);
    expect(
      (await idProof(customer, 'proof_address', [{ bytes: await png(), filename: 'bill.png' }])).statusCode,
    ).toBe(200);
    expect(flagsOf(await customer.user())).toEqual(flags(1, 1, 1, 1, 0));

    // The no branch carries only the risk question: anything else it sends is not kept.
    expect(
      (await customer.post('/api/v1/settings/kyc/create', { ...WEALTH_NO, initial_investment: 'over_100k' }))
        .statusCode,
    ).toBe(200);
    const user = await customer.user();
    expect(flagsOf(user)).toEqual(flags(1, 1, 1, 1, 1));
    expect(user.kyc).toMatchObject({
      trades_over_threshold: 0,
      aware_of_risk: 1,
      initial_investment: null,
      offense: null,
    });

    expect((await customer.put('/api/v1/users/account_type', { account_type: 'Instant' })).statusCode).toBe(
      200,
    );
    expect(await customer.user()).toMatchObject({
      platform: 1,
      account_tiers_class: 1,
      verification_completed: 1,
    });
  });

  it('replaces a licence with a passport, keeping the licence as a superseded record', async () => {
    const customer = await newCustomer(t);
    await idProof(customer, 'driver_license', [
      { bytes: await jpeg(), filename: 'front.jpg' },
      { bytes: await jpeg(), filename: 'back.jpg' },
    ]);
    await idProof(customer, 'passport', [{ bytes: await jpeg(), filename: 'passport.jpg' }]);
    const rows = await documentRows(customer.id);
    expect(rows.map((row) => [row.key, row.status])).toEqual([
      ['id_front', 'superseded'],
      ['id_back', 'superseded'],
      ['passport', 'pending'],
    ]);
    expect((await customer.user()).documents.map((document) => document.key)).toEqual(['passport']);
  });
});

describe('the rules of the account type and the answers', () => {
  it('lets Individual become Corporate only before anything is submitted', async () => {
    const customer = await newCustomer(t, { accountType: null });
    expect((await customer.put('/api/v1/users/account_type', { account_type: 'Corporate' })).statusCode).toBe(
      200,
    );
    expect(
      (await customer.put('/api/v1/users/account_type', { account_type: 'Individual' })).statusCode,
    ).toBe(200);
    expect((await customer.put('/api/v1/users', DETAILS)).statusCode).toBe(200);
    const locked = await customer.put('/api/v1/users/account_type', { account_type: 'Corporate' });
    expect(locked.statusCode).toBe(409);
    expect(errorOf(locked)).toMatchObject({ code: 'CONFLICT', message: KYC_TEXTS.accountTypeLocked });
    expect(
      (await customer.put('/api/v1/users/account_type', { account_type: 'Individual' })).statusCode,
    ).toBe(200);
  });

  it('asks for the account type before any step', async () => {
    const customer = await newCustomer(t, { accountType: null });
    const response = await customer.put('/api/v1/users', DETAILS);
    expect(response.statusCode).toBe(409);
    expect(errorOf(response).message).toBe(KYC_TEXTS.accountTypeMissing);
  });

  it('refuses Trade without its platform, tiers class and confirmation', async () => {
    const customer = await newCustomer(t);
    const response = await customer.put('/api/v1/users/account_type', { account_type: 'Trade' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(errorOf(response).errors ?? {}).sort()).toEqual([
      'account_tiers_class',
      'ico_confirmed',
      'platform',
    ]);
  });

  it('creates the answers once, updates only existing ones, and an update with sow_reset 0 ends a reset', async () => {
    const customer = await newCustomer(t);
    const updateFirst = await customer.post('/api/v1/settings/kyc/update', WEALTH_NO);
    expect(updateFirst.statusCode).toBe(409);
    expect(errorOf(updateFirst).code).toBe('CONFLICT');

    expect((await customer.post('/api/v1/settings/kyc/create', WEALTH_NO)).statusCode).toBe(200);
    expect((await customer.post('/api/v1/settings/kyc/create', WEALTH_NO)).statusCode).toBe(409);

    await t.database.db.updateTable('users').set({ is_sow_reset: 1 }).where('id', '=', customer.id).execute();
    // Wealth stays submitted while reset, so the reset screen (not the wizard) asks again.
    expect(await customer.user()).toMatchObject({ is_sow_reset: 1, is_wealth_submitted: 1 });

    expect((await customer.post('/api/v1/settings/kyc/update', WEALTH_YES)).statusCode).toBe(200);
    expect(await customer.user()).toMatchObject({ is_sow_reset: 1, kyc: { trades_over_threshold: 1 } });
    expect(
      (await customer.post('/api/v1/settings/kyc/update', { ...WEALTH_NO, sow_reset: 0 })).statusCode,
    ).toBe(200);
    expect(await customer.user()).toMatchObject({
      is_sow_reset: 0,
      is_wealth_submitted: 1,
      kyc: { trades_over_threshold: 0 },
    });
  });

  it("takes the spec's body without trades_over_threshold, reading the branch from the fields sent", async () => {
    const { trades_over_threshold: _yes, ...yesBranch } = WEALTH_YES;
    const storedBranch = async (userId: number) =>
      (
        await t.database.db
          .selectFrom('kyc_answers')
          .select('trades_over_threshold')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).trades_over_threshold;

    // The spec's reduced form: the risk question alone is the no branch.
    const reduced = await newCustomer(t);
    expect((await reduced.post('/api/v1/settings/kyc/create', { aware_of_risk: 1 })).statusCode).toBe(200);
    expect(await storedBranch(reduced.id)).toBe(0);
    expect((await reduced.user()).kyc).toMatchObject({ trades_over_threshold: 0, initial_investment: null });
    // A client that sends every declaration answered No is still on the no branch.
    const declaredNo = await newCustomer(t);
    const noes = { aware_of_risk: 1, offense: 0, criminal: 0, caution: 0, ccj: 0 };
    expect((await declaredNo.post('/api/v1/settings/kyc/create', noes)).statusCode).toBe(200);
    expect(await storedBranch(declaredNo.id)).toBe(0);

    // Source of Wealth and Experience: any of its fields is the yes branch, on create and on update.
    const full = await newCustomer(t);
    expect((await full.post('/api/v1/settings/kyc/create', yesBranch)).statusCode).toBe(200);
    expect(await storedBranch(full.id)).toBe(1);
    expect((await full.user()).kyc).toMatchObject(WEALTH_YES);
    expect((await reduced.post('/api/v1/settings/kyc/update', yesBranch)).statusCode).toBe(200);
    expect(await storedBranch(reduced.id)).toBe(1);

    // Half a yes branch is still the yes branch: the rest of its questions are asked for.
    const partial = await newCustomer(t);
    const response = await partial.post('/api/v1/settings/kyc/create', {
      aware_of_risk: 1,
      initial_investment: 'under_1k',
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(errorOf(response).errors ?? {}).sort()).toEqual(
      [
        'annual_income',
        'net_worth',
        'investment_portfolio',
        'source_of_wealth',
        'experience',
        'investment_trades',
        'offense',
        'criminal',
        'caution',
        'ccj',
      ].sort(),
    );
  });

  it('requires details for each declaration answered Yes', async () => {
    const customer = await newCustomer(t);
    const response = await customer.post('/api/v1/settings/kyc/create', {
      ...WEALTH_YES,
      caution_details: undefined,
    });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).errors).toEqual({ caution_details: [KYC_TEXTS.detailsRequired] });
  });

  it('records the trading-account confirmation', async () => {
    const customer = await newCustomer(t);
    expect((await customer.put('/api/v1/users/ico_confirm', { ico_confirmed: true })).statusCode).toBe(200);
    expect((await customer.user()).ico_confirmed).toBe(1);
  });
});

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

describe('a Corporate customer', () => {
  async function addDirector(customer: Customer, body: object) {
    const response = await customer.post('/api/v1/users/corporate/company-director', body);
    expect(response.statusCode).toBe(201);
    return response.json<{ data: Director }>().data;
  }

  async function directorUpload(
    customer: Customer,
    directorId: number,
    type: string,
    file: { bytes: Buffer; filename: string },
  ) {
    return customer.upload(`/api/v1/users/corporate/company-director/${directorId}/document-upload`, [
      { name: 'type', value: type },
      filePart(file.bytes, file.filename),
    ]);
  }

  it('declares the company, its documents and two directors, and completes the wizard', async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    const saved = await customer.post('/api/v1/users/corporate/company', {
      ...COMPANY,
      company_number: 'sc 123456',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      data: { name: COMPANY.name, company_number: 'SC123456', directors: [] },
    });
    expect(flagsOf(await customer.user())).toEqual(flags(1, 0, 1, 0, 0));

    for (const key of ['coi', 'aoa', 'cproof_address']) {
      expect((await uploadByKey(customer, key, { bytes: pdf(), filename: `${key}.pdf` })).statusCode).toBe(
        200,
      );
    }
    // The company's documents alone are not enough: its people must be identified too.
    expect(flagsOf(await customer.user())).toEqual(flags(1, 0, 1, 0, 0));

    const owner = await addDirector(customer, DIRECTOR);
    expect(owner).toMatchObject({
      firstName: 'Charles',
      shareHolding: '30.00',
      owner: 1,
      director: 0,
      status: 1,
      identity_done: 0,
      proof_address_done: 0,
      documents: [],
    });
    const directorOnly = await addDirector(customer, {
      ...DIRECTOR,
      firstName: 'Augusta',
      lastName: 'King',
      shareHolding: 0,
      status: 2,
    });
    expect(directorOnly).toMatchObject({ owner: 0, director: 1, shareHolding: '0.00' });

    const ownerPassport = await directorUpload(customer, owner.id, 'passport', {
      bytes: await jpeg(),
      filename: 'p.jpg',
    });
    expect(ownerPassport.statusCode).toBe(200);
    expect(ownerPassport.json()).toMatchObject({
      data: { done: 1, director: { id: owner.id, identity_done: 1, proof_address_done: 0 } },
    });
    await directorUpload(customer, owner.id, 'proof_address', { bytes: pdf(), filename: 'bill.pdf' });

    const front = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'driver_license' },
      { name: 'companyDirectorId', value: String(directorOnly.id) },
      filePart(await jpeg(), 'front.jpg', 'file[]'),
      filePart(await jpeg(), 'back.jpg', 'file[]'),
    ]);
    expect(front.statusCode).toBe(200);
    expect(flagsOf(await customer.user())).toEqual(flags(1, 1, 1, 0, 0));
    await directorUpload(customer, directorOnly.id, 'proof_address', {
      bytes: await png(),
      filename: 'bill.png',
    });

    let user = await customer.user();
    expect(flagsOf(user)).toEqual(flags(1, 1, 1, 1, 0));
    expect(user.documents.map((document) => document.key)).toEqual(['coi', 'aoa', 'cproof_address']);
    expect(user.company?.directors).toMatchObject([
      { id: owner.id, identity_done: 1, proof_address_done: 1 },
      { id: directorOnly.id, identity_done: 1, proof_address_done: 1 },
    ]);
    expect(user.company?.directors[1]?.documents.map((document) => document.key)).toEqual([
      'id_front',
      'id_back',
      'proof_address',
    ]);

    expect((await customer.post('/api/v1/settings/kyc/create', WEALTH_NO)).statusCode).toBe(200);
    expect((await customer.put('/api/v1/users/account_type', { account_type: 'Instant' })).statusCode).toBe(
      200,
    );
    user = await customer.user();
    expect(user).toMatchObject({ verification_completed: 1, denied_documents: 0, status: 0 });

    // Handed in (not live yet), the company staff check against its certificate keeps its name,
    // number and country, as its people keep their names.
    const companyChanged = await customer.post('/api/v1/users/corporate/company', {
      ...COMPANY,
      name: 'Difference Engines Ltd',
      company_number: 'SC654321',
      country: 'IE',
    });
    expect(companyChanged.statusCode).toBe(422);
    expect(errorOf(companyChanged)).toMatchObject({
      message: KYC_TEXTS.companyLocked,
      errors: {
        name: [KYC_TEXTS.companyLocked],
        company_number: [KYC_TEXTS.companyLocked],
        country: [KYC_TEXTS.companyLocked],
      },
    });
    expect((await customer.user()).company).toMatchObject({
      name: COMPANY.name,
      company_number: 'SC123456',
      country: 'GB',
    });
    // The rest of the company's details still change.
    const newZip = await customer.post('/api/v1/users/corporate/company', {
      ...COMPANY,
      company_number: 'SC123456',
      zip: 'EC1A 1BC',
    });
    expect(newZip.statusCode, newZip.body).toBe(200);

    // Handed in, the people staff check against their IDs stay who they were declared to be.
    const ownerPath = `/api/v1/users/corporate/company-director/${owner.id}`;
    const renamed = await customer.put(ownerPath, {
      ...DIRECTOR,
      firstName: 'Carl',
      birthdate: '1970-01-01',
    });
    expect(renamed.statusCode).toBe(422);
    expect(errorOf(renamed)).toMatchObject({
      message: KYC_TEXTS.directorLocked,
      errors: { firstName: [KYC_TEXTS.directorLocked], birthdate: [KYC_TEXTS.directorLocked] },
    });
    // Their share changes freely; a move needs a proof of the new address, so the step is open again.
    const reshared = await customer.put(ownerPath, { ...DIRECTOR, shareHolding: '45' });
    expect(reshared.statusCode, reshared.body).toBe(200);
    expect(reshared.json()).toMatchObject({
      data: { firstName: 'Charles', shareHolding: '45.00', identity_done: 1, proof_address_done: 1 },
    });
    const moved = await customer.put(ownerPath, { ...DIRECTOR, shareHolding: '45', address: '9 Engine Row' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      data: { firstName: 'Charles', address: '9 Engine Row', identity_done: 1, proof_address_done: 0 },
    });
    user = await customer.user();
    expect(flagsOf(user)).toEqual(flags(1, 1, 1, 0, 1));
    expect(user.company?.directors[0]?.documents.map((document) => document.key)).toEqual(['passport']);
  });

  it('cannot pass 100 % shareholding, and changes a director within it', async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    await customer.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: 'OC300001' });
    const first = await addDirector(customer, { ...DIRECTOR, shareHolding: '60.5' });
    const tooMuch = await customer.post('/api/v1/users/corporate/company-director', {
      ...DIRECTOR,
      shareHolding: '39.51',
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(errorOf(tooMuch).errors).toEqual({ shareHolding: [KYC_TEXTS.shareHoldingTotal] });
    await addDirector(customer, { ...DIRECTOR, shareHolding: '39.5' });

    const changed = await customer.put(`/api/v1/users/corporate/company-director/${first.id}`, {
      ...DIRECTOR,
      shareHolding: '60',
      status: 3,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ data: { shareHolding: '60.00', owner: 1, director: 1 } });
    const over = await customer.put(`/api/v1/users/corporate/company-director/${first.id}`, {
      ...DIRECTOR,
      shareHolding: '61',
    });
    expect(over.statusCode).toBe(422);
  });

  it('refuses a person holding more than 25% unless they are declared an owner', async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    await customer.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: 'OC300006' });
    const path = '/api/v1/users/corporate/company-director';

    const undeclared = await customer.post(path, { ...DIRECTOR, shareHolding: '25.01', status: 2 });
    expect(undeclared.statusCode).toBe(422);
    expect(errorOf(undeclared).errors).toEqual({ shareHolding: [KYC_TEXTS.ownerRequired] });
    expect((await customer.user()).company?.directors).toEqual([]);

    // 25% exactly is not more than 25%; owner only (1) and both (3) may hold any share.
    await addDirector(customer, { ...DIRECTOR, firstName: 'Augusta', shareHolding: '25', status: 2 });
    const both = await addDirector(customer, { ...DIRECTOR, shareHolding: '30', status: 3 });
    await addDirector(customer, { ...DIRECTOR, firstName: 'Ada', shareHolding: '45', status: 1 });

    // A change of status without the shareholding (the spec's payload) is checked against the stored one.
    const { shareHolding: _shareHolding, ...specPayload } = DIRECTOR;
    const demoted = await customer.put(`${path}/${both.id}`, { ...specPayload, status: 2 });
    expect(demoted.statusCode).toBe(422);
    expect(errorOf(demoted).errors).toEqual({ shareHolding: [KYC_TEXTS.ownerRequired] });
    const reduced = await customer.put(`${path}/${both.id}`, { ...DIRECTOR, shareHolding: '20', status: 2 });
    expect(reduced.statusCode, reduced.body).toBe(200);
    expect(reduced.json()).toMatchObject({ data: { shareHolding: '20.00', owner: 0, director: 1 } });
  });

  it("takes the spec's PUT payload without a shareholding and keeps the stored share", async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    await customer.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: 'OC300007' });
    const owner = await addDirector(customer, { ...DIRECTOR, shareHolding: '60', status: 3 });
    await addDirector(customer, { ...DIRECTOR, firstName: 'Augusta', shareHolding: '40' });
    const path = `/api/v1/users/corporate/company-director/${owner.id}`;

    // Spec 000 section 7: phone, address, city, country, zip, birthdate, firstName, lastName, status.
    const { shareHolding: _shareHolding, ...specPayload } = DIRECTOR;
    const changed = await customer.put(path, { ...specPayload, phone: '+44 20 7946 0002', status: 3 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      data: { shareHolding: '60.00', phone: '+44 20 7946 0002', owner: 1, director: 1 },
    });
    expect((await customer.user()).company?.directors.map((director) => director.shareHolding)).toEqual([
      '60.00',
      '40.00',
    ]);
    // A share that is sent is still checked against the 100% total.
    const over = await customer.put(path, { ...DIRECTOR, shareHolding: '60.01', status: 3 });
    expect(over.statusCode).toBe(422);
    expect(errorOf(over).errors).toEqual({ shareHolding: [KYC_TEXTS.shareHoldingTotal] });
  });

  it('cannot hand in with owners only: at least one person must be a director', async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    await customer.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: 'OC300008' });
    for (const key of ['coi', 'aoa', 'cproof_address']) {
      await uploadByKey(customer, key, { bytes: pdf(), filename: `${key}.pdf` });
    }
    const owner = await addDirector(customer, { ...DIRECTOR, shareHolding: '100', status: 1 });
    await directorUpload(customer, owner.id, 'passport', { bytes: await jpeg(), filename: 'p.jpg' });
    await directorUpload(customer, owner.id, 'proof_address', { bytes: pdf(), filename: 'bill.pdf' });
    expect((await customer.post('/api/v1/settings/kyc/create', WEALTH_NO)).statusCode).toBe(200);

    // The owner has both documents, yet nobody runs the company: its people are not identified.
    let user = await customer.user();
    expect(user.company?.directors).toMatchObject([{ identity_done: 1, proof_address_done: 1 }]);
    expect(flagsOf(user)).toEqual(flags(1, 0, 1, 0, 1));
    const refused = await customer.put('/api/v1/users/account_type', { account_type: 'Instant' });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(KYC_TEXTS.stepsIncomplete);

    // Ticking Director for the owner (status 3) completes the step.
    const both = await customer.put(`/api/v1/users/corporate/company-director/${owner.id}`, {
      ...DIRECTOR,
      shareHolding: '100',
      status: 3,
    });
    expect(both.statusCode, both.body).toBe(200);
    user = await customer.user();
    expect(flagsOf(user)).toEqual(flags(1, 1, 1, 1, 1));
    expect((await customer.put('/api/v1/users/account_type', { account_type: 'Instant' })).statusCode).toBe(
      200,
    );

    // Handed in, the company keeps a director: the only one can neither go back to owner nor be removed
    // until a new director is added.
    const ownerAgain = await customer.put(`/api/v1/users/corporate/company-director/${owner.id}`, {
      ...DIRECTOR,
      status: 1,
    });
    expect(ownerAgain.statusCode).toBe(409);
    expect(errorOf(ownerAgain).message).toBe(KYC_TEXTS.lastDirector);
    const removed = await customer.delete(`/api/v1/users/corporate/company-director/${owner.id}`);
    expect(removed.statusCode).toBe(409);
    expect(errorOf(removed).message).toBe(KYC_TEXTS.lastDirector);
    expect((await customer.user()).company?.directors).toMatchObject([{ id: owner.id, director: 1 }]);

    const successor = await addDirector(customer, {
      ...DIRECTOR,
      firstName: 'Nia',
      shareHolding: '0',
      status: 2,
    });
    expect(
      (await customer.put(`/api/v1/users/corporate/company-director/${owner.id}`, { ...DIRECTOR, status: 1 }))
        .statusCode,
    ).toBe(200);
    expect(
      (await customer.delete(`/api/v1/users/corporate/company-director/${successor.id}`)).statusCode,
    ).toBe(409);
  });

  it('deletes a director after confirmation: gone from the list, their documents superseded', async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    await customer.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: 'OC300002' });
    const director = await addDirector(customer, DIRECTOR);
    await directorUpload(customer, director.id, 'passport', { bytes: await jpeg(), filename: 'p.jpg' });

    const deleted = await customer.delete(`/api/v1/users/corporate/company-director/${director.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true });
    expect((await customer.user()).company?.directors).toEqual([]);
    expect((await documentRows(customer.id)).map((row) => row.status)).toEqual(['superseded']);
    const row = await t.database.db
      .selectFrom('company_directors')
      .select('deleted_at')
      .where('id', '=', director.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeInstanceOf(Date);

    expect(
      (await customer.delete(`/api/v1/users/corporate/company-director/${director.id}`)).statusCode,
    ).toBe(404);
  });

  it('refuses a director id beyond the integer column with 422, not a database error', async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    await customer.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: 'OC300004' });
    const path = '/api/v1/users/corporate/company-director/3000000000';
    for (const response of [
      await customer.put(path, DIRECTOR),
      await customer.delete(path),
      await directorUpload(customer, 3_000_000_000, 'passport', { bytes: await jpeg(), filename: 'p.jpg' }),
      await customer.upload('/api/v1/user/id-proof', [
        { name: 'doc_type', value: 'passport' },
        { name: 'companyDirectorId', value: '3000000000' },
        filePart(await jpeg(), 'p.jpg'),
      ]),
    ]) {
      expect(response.statusCode).toBe(422);
      expect(errorOf(response).code).toBe('VALIDATION_FAILED');
    }
  });

  it("keeps a live company's name, number and country, and asks for proof of a new registered address", async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    const company = { ...COMPANY, company_number: 'OC300005' };
    await customer.post('/api/v1/users/corporate/company', company);
    await uploadByKey(customer, 'cproof_address', { bytes: pdf(), filename: 'lease.pdf' });
    await t.database.db.updateTable('users').set({ status: 1 }).where('id', '=', customer.id).execute();

    const renamed = await customer.post('/api/v1/users/corporate/company', {
      ...company,
      name: 'Engines Two Ltd',
      country: 'IE',
    });
    expect(renamed.statusCode).toBe(422);
    expect(errorOf(renamed).message).toBe(KYC_TEXTS.companyLocked);
    expect(errorOf(renamed).errors).toEqual({
      name: [KYC_TEXTS.companyLocked],
      country: [KYC_TEXTS.companyLocked],
    });
    const moved = await customer.post('/api/v1/users/corporate/company', {
      ...company,
      address: '7 Mill Yard',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const user = await customer.user();
    expect(user.company).toMatchObject({
      name: COMPANY.name,
      company_number: 'OC300005',
      address: '7 Mill Yard',
    });
    expect(user.documents.map((document) => document.key)).toEqual([]);
  });

  it('refuses a company number another customer registered', async () => {
    const first = await newCustomer(t, { accountType: 'Corporate' });
    const second = await newCustomer(t, { accountType: 'Corporate' });
    expect(
      (await first.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: '09999999' }))
        .statusCode,
    ).toBe(200);
    const taken = await second.post('/api/v1/users/corporate/company', {
      ...COMPANY,
      company_number: '0999 9999',
    });
    expect(taken.statusCode).toBe(400);
    expect(errorOf(taken)).toMatchObject({
      code: 'COMPANY_NUMBER_TAKEN',
      message: KYC_TEXTS.companyNumberTaken,
    });
    // Saving one's own company again is no clash.
    expect(
      (
        await first.post('/api/v1/users/corporate/company', {
          ...COMPANY,
          company_number: '09999999',
          city: 'Leeds',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('is the only kind of customer with company endpoints', async () => {
    const individual = await newCustomer(t);
    expect(
      (await individual.post('/api/v1/users/corporate/company', { ...COMPANY, company_number: 'OC300003' }))
        .statusCode,
    ).toBe(404);
    expect((await individual.post('/api/v1/users/corporate/company-director', DIRECTOR)).statusCode).toBe(
      404,
    );
    expect((await uploadByKey(individual, 'coi', { bytes: pdf(), filename: 'coi.pdf' })).statusCode).toBe(
      404,
    );
    const corporate = await newCustomer(t, { accountType: 'Corporate' });
    const ownPassport = await idProof(corporate, 'passport', [{ bytes: await jpeg(), filename: 'p.jpg' }]);
    expect(ownPassport.statusCode).toBe(409);
    expect(errorOf(ownPassport).message).toBe(KYC_TEXTS.documentNotForAccount);
  });
});
