import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_TEXTS, type Document } from '@florin/contracts';
import {
  COMPANY,
  DETAILS,
  DIRECTOR,
  WEALTH_NO,
  WEALTH_YES,
  createKycTestApp,
  documentRows,
  errorOf,
  filePart,
  flags,
  flagsOf,
  idProof,
  jpeg,
  newCustomer,
  pdf,
  png,
  type KycTestApp,
} from './kyc.test-kit.js';

let t: KycTestApp;

beforeAll(async () => {
  t = await createKycTestApp();
});
afterAll(async () => {
  await t.close();
});

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
    expect(await documentRows(t, customer.id)).toEqual([]);
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

    const rows = await documentRows(t, customer.id);
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
    const rows = await documentRows(t, customer.id);
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
