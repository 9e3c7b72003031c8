import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_MESSAGES, KYC_TEXTS, type Director } from '@florin/contracts';
import {
  COMPANY,
  DIRECTOR,
  WEALTH_NO,
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
  uploadByKey,
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
    expect((await documentRows(t, customer.id)).map((row) => row.status)).toEqual(['superseded']);
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
    // A form field with no message of its own is refused in the customer's words, as a JSON body's is.
    const notANumber = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'passport' },
      { name: 'companyDirectorId', value: 'abc' },
      filePart(await jpeg(), 'p.jpg'),
    ]);
    expect(notANumber.statusCode).toBe(422);
    expect(errorOf(notANumber).errors).toEqual({ companyDirectorId: [CUSTOMER_MESSAGES.notNumber] });
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
