import { createHash, randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPLIANCE_TEXTS,
  ComplianceCaseSchema,
  ErrorBodySchema,
  pageSchema,
  SANCTIONS_TEXTS,
  SanctionsHitSchema,
  SanctionsListSchema,
  ScreeningSchema,
  type SanctionsHit,
  type SanctionsHitStatus,
} from '@florin/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import {
  auditRows,
  completeVerification,
  customerBrowser,
  insertCustomer,
  insertIndividualDocuments,
  insertKycAnswers,
  mailSubjects,
} from '../compliance/customers.test-kit.js';
import { COMPANY, createKycTestApp, DIRECTOR, multipart, png, type KycTestApp } from '../kyc/kyc.test-kit.js';
import { conListCsv, entity, individual, type ListedRow } from './lists.test-kit.js';

let t: KycTestApp;
let officer: SignedInStaff;

beforeAll(async () => {
  t = await createKycTestApp();
  officer = await signedInStaff(t.app, t.database.db, 'compliance');
});
afterAll(async () => {
  await t.close();
});

const errorOf = (response: { json: () => unknown }) => ErrorBodySchema.parse(response.json());
const ImportAnswerSchema = z.object({
  data: z.object({
    list: SanctionsListSchema,
    screening: z.object({ customers: z.number(), hits: z.number(), held: z.number() }),
  }),
  message: z.string(),
});

/** A surname no other test (nor the KYC kit's Ada Lovelace) has: every import screens every customer. */
function uniqueSurname(): string {
  const letters = [...randomBytes(8)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return `Zed${letters}`;
}

function upload(staff: SignedInStaff, bytes: Buffer, filename = 'ConList.csv') {
  const form = multipart([{ name: 'file', filename, bytes, contentType: 'text/csv' }]);
  return staff.browser.post('/api/admin/sanctions/list', form.payload, { headers: form.headers });
}

async function importList(rows: readonly ListedRow[], staff: SignedInStaff = officer) {
  const response = await upload(staff, Buffer.from(conListCsv(rows), 'utf8'));
  expect(response.statusCode, response.body).toBe(200);
  return ImportAnswerSchema.parse(response.json()).data;
}

async function accountOf(userId: number) {
  return t.database.db
    .selectFrom('users')
    .select(['block_status', 'block_reason'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

async function statusOf(userId: number): Promise<number> {
  const row = await t.database.db
    .selectFrom('users')
    .select('status')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.status;
}

async function openHits(): Promise<SanctionsHit[]> {
  return hitsOf('open');
}

async function hitsOf(status: SanctionsHitStatus): Promise<SanctionsHit[]> {
  const response = await officer.browser.get(`/api/admin/sanctions/hits?status=${status}`);
  expect(response.statusCode).toBe(200);
  return pageSchema(SanctionsHitSchema).parse(response.json()).data;
}

async function screeningsOf(userId: number) {
  const response = await officer.browser.get(`/api/admin/sanctions/customers/${userId}/screenings`);
  expect(response.statusCode).toBe(200);
  return z.object({ data: z.array(ScreeningSchema) }).parse(response.json()).data;
}

/** An Individual with every document and answer in place, who finishes the wizard through the API. */
async function submitVerification(firstName: string, lastName: string) {
  const db = t.database.db;
  const customer = await insertCustomer(db, { firstName, lastName });
  await insertIndividualDocuments(db, customer.id);
  await insertKycAnswers(db, customer.id);
  const browser = await customerBrowser(t.app, db, customer.id);
  const response = await browser.put('/api/v1/users/account_type', { account_type: 'Instant' });
  expect(response.statusCode, response.body).toBe(200);
  return { ...customer, browser };
}

describe('importing the consolidated list', () => {
  it('keeps the file as the active list with its metadata, and audits the import', async () => {
    const text = conListCsv(
      [
        individual('9001', uniqueSurname(), ['Ivan'], { DOB: '28/06/1960' }),
        individual('9001', uniqueSurname(), ['Ivan'], { 'Alias Type': 'AKA' }),
        entity('9002', 'NORTHERN STAR SHIPPING LTD', { 'Other Information': 'Quoted, with "quotes"' }),
        { 'Name 6': 'SEA BREEZE', 'Group Type': 'Ship', 'Group ID': '9003' },
      ],
      { bom: true, updated: '28/02/2026' },
    );
    const bytes = Buffer.from(text, 'utf8');
    const response = await upload(officer, bytes, 'ConList.csv');
    expect(response.statusCode, response.body).toBe(200);
    const { data, message } = ImportAnswerSchema.parse(response.json());
    expect(message).toBe(SANCTIONS_TEXTS.imported);
    expect(data.list).toMatchObject({
      file_name: 'ConList.csv',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size_bytes: bytes.length,
      list_updated_on: '2026-02-28',
      imported_by: officer.email,
      rows: 4,
      designations: 3,
      individuals: 1,
      entities: 1,
      ships: 1,
    });

    const current = await officer.browser.get('/api/admin/sanctions/list');
    expect(current.statusCode).toBe(200);
    expect(current.json()).toEqual({ data: data.list });
    const audit = await auditRows(t.database.db, 'sanctions_list', data.list.id);
    expect(audit).toMatchObject([
      {
        action: 'sanctions.list_imported',
        staff_id: officer.id,
        after: { sha256: data.list.sha256, list_updated_on: '2026-02-28', rows: 4, designations: 3 },
      },
    ]);
  });

  it('refuses a file that is not the consolidated list, says why, and changes nothing', async () => {
    const before = await importList([individual('9101', uniqueSurname(), ['Olga'])]);
    const attempts = [
      { bytes: Buffer.from('first_name,last_name\nAda,Lovelace\n'), errors: [SANCTIONS_TEXTS.notConList] },
      { bytes: await png(), errors: [SANCTIONS_TEXTS.notText] },
      {
        bytes: Buffer.from(
          conListCsv([{ ...individual('1', 'X', ['Y']), 'Group Type': 'Vessel' as 'Ship' }]),
        ),
        errors: [`Line 3: ${SANCTIONS_TEXTS.badGroupType}`],
      },
    ];
    for (const attempt of attempts) {
      const response = await upload(officer, attempt.bytes);
      expect(response.statusCode).toBe(422);
      expect(errorOf(response)).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: attempt.errors[0],
        errors: { file: attempt.errors },
      });
    }
    const current = await officer.browser.get('/api/admin/sanctions/list');
    expect(current.json()).toEqual({ data: before.list });
    expect(
      await t.database.db
        .selectFrom('sanctions_lists')
        .select('id')
        .where('id', '>', before.list.id)
        .execute(),
    ).toEqual([]);
  });

  it('asks for the file when the form carries none', async () => {
    const form = multipart([{ name: 'note', value: 'no file here' }]);
    const response = await officer.browser.post('/api/admin/sanctions/list', form.payload, {
      headers: form.headers,
    });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toMatchObject({ errors: { file: [SANCTIONS_TEXTS.fileRequired] } });
  });
});

describe('screening at onboarding and on every change', () => {
  it('puts a customer whose name is listed on hold when they submit verification, and opens a hit', async () => {
    const surname = uniqueSurname();
    const { list } = await importList([
      individual('9201', surname.toUpperCase(), ['Józef'], { DOB: '00/00/1980', Regime: 'Russia' }),
    ]);
    const customer = await submitVerification('Jozef', surname);

    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.holdReason,
    });
    expect(await mailSubjects(t.database.db, customer.email)).toContain(
      'Your Florin account is on hold — Florin',
    );
    const hold = await auditRows(t.database.db, 'user', customer.id);
    expect(hold).toMatchObject([{ action: 'user.put_on_hold', staff_id: null }]);

    const hit = (await openHits()).find((item) => item.user_id === customer.id);
    expect(hit).toMatchObject({
      user_identification: customer.reference,
      customer_name: `Jozef ${surname}`,
      block_status: 2,
      subject_kind: 'customer',
      subject_name: `Jozef ${surname}`,
      subject_birthdate: '1980-05-17',
      group_id: '9201',
      group_type: 'Individual',
      listed_name: `Józef ${surname.toUpperCase()}`,
      listed_dobs: '00/00/1980',
      regime: 'Russia',
      status: 'open',
    });
    expect(await screeningsOf(customer.id)).toMatchObject([
      {
        list_id: list.id,
        list_sha256: list.sha256,
        list_updated_on: list.list_updated_on,
        trigger: 'onboarding',
        outcome: 'hit',
        subjects: [{ kind: 'customer', name: `Jozef ${surname}`, birthdate: '1980-05-17' }],
        matches: [{ hit_id: hit?.id, group_id: '9201', status: 'open' }],
      },
    ]);
  });

  it('leaves a customer with no match free, and keeps the clear screening as evidence', async () => {
    const surname = uniqueSurname();
    await importList([
      individual('9301', surname, ['Ivan']),
      // The same name with another date of birth is someone else.
      individual('9302', surname, ['Maria'], { DOB: '12/12/1950' }),
    ]);
    const customer = await submitVerification('Maria', surname);
    expect(await accountOf(customer.id)).toEqual({ block_status: 0, block_reason: null });
    expect((await openHits()).filter((hit) => hit.user_id === customer.id)).toEqual([]);
    expect(await screeningsOf(customer.id)).toMatchObject([
      { trigger: 'onboarding', outcome: 'clear', matches: [] },
    ]);
  });

  it('screens again when staff change the name, and holds on a match', async () => {
    const surname = uniqueSurname();
    await importList([individual('9401', surname, ['Pavel'])]);
    const customer = await submitVerification('Petr', surname);
    expect((await accountOf(customer.id)).block_status).toBe(0);

    const support = await signedInStaff(t.app, t.database.db, 'support');
    const edit = await support.browser.put(`/api/admin/customers/${customer.id}/identity`, {
      first_name: 'Pavel',
      reason: 'Name changed by deed poll; certificate seen.',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ data: { block_status: 2 } });
    expect(
      (await screeningsOf(customer.id)).map((screening) => [screening.trigger, screening.outcome]),
    ).toEqual([
      ['identity_edited', 'hit'],
      ['onboarding', 'clear'],
    ]);
  });
  it('screens a Corporate customer again when, after submitting, they add a listed director', async () => {
    const surname = uniqueSurname();
    await importList([individual('9701', surname, ['Boris'], { DOB: '00/00/1971' })]);
    const db = t.database.db;
    const customer = await insertCustomer(db, { accountType: 'Corporate' });
    await completeVerification(db, customer.id);
    const browser = await customerBrowser(t.app, db, customer.id);
    const company = await browser.post('/api/v1/users/corporate/company', {
      ...COMPANY,
      company_number: `SC${randomInt(100_000, 999_999)}`,
    });
    expect(company.statusCode, company.body).toBe(200);
    expect((await accountOf(customer.id)).block_status).toBe(0);

    const director = await browser.post('/api/v1/users/corporate/company-director', {
      ...DIRECTOR,
      firstName: 'Boris',
      lastName: surname,
    });
    expect(director.statusCode, director.body).toBe(201);
    expect((await accountOf(customer.id)).block_status).toBe(2);
    expect((await screeningsOf(customer.id))[0]).toMatchObject({
      trigger: 'directors_changed',
      outcome: 'hit',
      subjects: [
        { kind: 'customer', name: 'Grace Hopper' },
        { kind: 'company', name: COMPANY.name, birthdate: null },
        { kind: 'director', name: `Boris ${surname}`, birthdate: DIRECTOR.birthdate },
      ],
      matches: [{ subject_kind: 'director', group_id: '9701', status: 'open' }],
    });
  });
});

describe('screening every customer when a list is imported', () => {
  it('holds customers, companies and directors the new list names, and reports the counts', async () => {
    const db = t.database.db;
    const [personSurname, companyWord, directorSurname] = [uniqueSurname(), uniqueSurname(), uniqueSurname()];
    const person = await insertCustomer(db, { firstName: 'Anna', lastName: personSurname });
    await completeVerification(db, person.id);
    const corporate = await insertCustomer(db, { accountType: 'Corporate' });
    await db
      .insertInto('companies')
      .values({
        user_id: corporate.id,
        name: `${companyWord} Trading Limited`,
        company_number: `SC${randomBytes(3).toString('hex')}`,
        address: '2 Babbage Road',
        city: 'London',
        country: 'GB',
        zip: 'EC1A 1BB',
      })
      .execute();
    const directed = await insertCustomer(db, { accountType: 'Corporate' });
    const otherCompany = await db
      .insertInto('companies')
      .values({
        user_id: directed.id,
        name: 'Analytical Engines Ltd',
        company_number: `SC${randomBytes(3).toString('hex')}`,
        address: '2 Babbage Road',
        city: 'London',
        country: 'GB',
        zip: 'EC1A 1BB',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('company_directors')
      .values({
        company_id: otherCompany.id,
        first_name: 'Viktor',
        last_name: directorSurname,
        share_holding: '40',
        address: '3 Difference Lane',
        city: 'London',
        zip: 'N1 9GU',
        country: 'GB',
        phone: '+44 20 7946 0001',
        birthdate: '1971-12-26',
        status: 3,
      })
      .execute();
    const free = await insertCustomer(db, { firstName: 'Anna', lastName: uniqueSurname() });

    const { screening } = await importList([
      individual('9501', personSurname.toUpperCase(), ['Anna']),
      entity('9502', `${companyWord.toUpperCase()} TRADING LLC`),
      individual('9503', directorSurname, ['Viktor'], { DOB: '26/12/1971' }),
      // A listed person named like the company is no match for a company.
      individual('9504', 'Trading', [companyWord]),
    ]);
    expect(screening).toMatchObject({ hits: 3, held: 3 });
    expect(screening.customers).toBeGreaterThanOrEqual(4);

    for (const held of [person, corporate, directed]) {
      expect((await accountOf(held.id)).block_status).toBe(2);
    }
    expect((await accountOf(free.id)).block_status).toBe(0);
    expect(await screeningsOf(free.id)).toMatchObject([{ trigger: 'list_imported', outcome: 'clear' }]);
    const hits = await openHits();
    expect(hits.find((hit) => hit.user_id === corporate.id)).toMatchObject({
      subject_kind: 'company',
      group_type: 'Entity',
      group_id: '9502',
    });
    expect(hits.find((hit) => hit.user_id === directed.id)).toMatchObject({
      subject_kind: 'director',
      subject_name: `Viktor ${directorSurname}`,
      group_id: '9503',
    });
  });
});

describe('reviewing a hit', () => {
  it('marks a false positive with a note, keeps the hold, and does not raise it again', async () => {
    const surname = uniqueSurname();
    const rows = [individual('9601', surname, ['Nikolai'])];
    await importList(rows);
    const customer = await submitVerification('Nikolai', surname);
    const hit = (await openHits()).find((item) => item.user_id === customer.id);
    if (!hit) throw new Error('no hit');
    const liftPath = `/api/admin/compliance/cases/${customer.id}/lift-hold`;
    const reason = 'Sanctions hit reviewed: false positive.';

    // Unreviewed, the match may be the listed person: the hold stays, and nothing is written or sent.
    const early = await officer.browser.post(liftPath, { reason });
    expect(early.statusCode).toBe(409);
    expect(errorOf(early).message).toBe(COMPLIANCE_TEXTS.openSanctionsHit);
    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.holdReason,
    });
    expect((await auditRows(t.database.db, 'user', customer.id)).map((row) => row.action)).toEqual([
      'user.put_on_hold',
    ]);
    expect(await mailSubjects(t.database.db, customer.email)).not.toContain(
      'The hold on your Florin account is lifted — Florin',
    );

    const empty = await officer.browser.post(`/api/admin/sanctions/hits/${hit.id}/false-positive`, {
      note: ' ',
    });
    expect(empty.statusCode).toBe(422);
    expect(errorOf(empty).errors).toEqual({ note: [SANCTIONS_TEXTS.noteRequired] });

    const note = 'Different person: passport shows born in Leeds, 1990.';
    const marked = await officer.browser.post(`/api/admin/sanctions/hits/${hit.id}/false-positive`, { note });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({
      message: SANCTIONS_TEXTS.falsePositiveMarked,
      data: { id: hit.id, status: 'false_positive', review_note: note, reviewed_by: officer.email },
    });
    // The hold is the officer's to lift, on the customer's page.
    expect((await accountOf(customer.id)).block_status).toBe(2);
    expect(await auditRows(t.database.db, 'sanctions_hit', hit.id)).toMatchObject([
      {
        action: 'sanctions.hit_false_positive',
        staff_id: officer.id,
        after: { note, status: 'false_positive' },
      },
    ]);
    const again = await officer.browser.post(`/api/admin/sanctions/hits/${hit.id}/false-positive`, { note });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(SANCTIONS_TEXTS.alreadyFalsePositive);
    const missing = await officer.browser.post('/api/admin/sanctions/hits/999999/false-positive', { note });
    expect(missing.statusCode).toBe(404);

    const lift = await officer.browser.post(liftPath, { reason });
    expect(lift.statusCode).toBe(200);
    expect(await mailSubjects(t.database.db, customer.email)).toContain(
      'The hold on your Florin account is lifted — Florin',
    );
    // The next list names them again: the decision stands, and the account stays free.
    await importList(rows);
    expect((await accountOf(customer.id)).block_status).toBe(0);
    expect((await openHits()).filter((item) => item.user_id === customer.id)).toEqual([]);
    expect((await screeningsOf(customer.id))[0]).toMatchObject({
      trigger: 'list_imported',
      outcome: 'reviewed',
      matches: [{ hit_id: hit.id, status: 'false_positive' }],
    });
  });
});

describe('confirming a match', () => {
  it('keeps the account on hold for good: the hold cannot be lifted, nor the customer made live', async () => {
    const surname = uniqueSurname();
    const rows = [individual('9651', surname, ['Olga'])];
    await importList(rows);
    const customer = await submitVerification('Olga', surname);
    const hit = (await openHits()).find((item) => item.user_id === customer.id);
    if (!hit) throw new Error('no hit');
    const confirmPath = `/api/admin/sanctions/hits/${hit.id}/confirm`;
    // A hold lifted before lifting waited for review: confirming the match holds the account again.
    await t.database.db
      .updateTable('users')
      .set({ block_status: 0, block_reason: null })
      .where('id', '=', customer.id)
      .execute();

    // The case page says why the hold stays and the customer cannot go live, before anyone tries.
    const caseOf = async () => {
      const { sanctions_match: match, go_live: goLive } = ComplianceCaseSchema.parse(
        (await officer.browser.get(`/api/admin/compliance/cases/${customer.id}`)).json<{ data: unknown }>()
          .data,
      );
      // The customer's page in the back office says the same.
      const profile = await officer.browser.get(`/api/admin/customers/${customer.id}`);
      const profileGoLive = profile.json<{ data: { go_live: { blockers: string[] } } }>().data.go_live;
      expect(profileGoLive).toEqual(goLive);
      return { match, allowed: goLive.allowed, firstBlocker: goLive.blockers[0] };
    };
    expect(await caseOf()).toEqual({
      match: 'open',
      allowed: false,
      firstBlocker: COMPLIANCE_TEXTS.openSanctionsHit,
    });

    const empty = await officer.browser.post(confirmPath, { note: '' });
    expect(empty.statusCode).toBe(422);
    expect(errorOf(empty).errors).toEqual({ note: [SANCTIONS_TEXTS.confirmNoteRequired] });
    expect((await accountOf(customer.id)).block_status).toBe(0);

    const note = 'Same person: date and place of birth match the listing. OFSI report FR-2026-0142.';
    const confirmed = await officer.browser.post(confirmPath, { note });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      message: SANCTIONS_TEXTS.matchConfirmed,
      data: {
        id: hit.id,
        status: 'confirmed',
        review_note: note,
        reviewed_by: officer.email,
        block_status: 2,
      },
    });
    // Staff reading the customer's page see the match is confirmed, not merely possible.
    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.confirmedHoldReason,
    });
    expect(await auditRows(t.database.db, 'sanctions_hit', hit.id)).toMatchObject([
      { action: 'sanctions.hit_confirmed', staff_id: officer.id, after: { note, status: 'confirmed' } },
    ]);
    // Held again by the officer who confirmed it, before the confirmation; then held for the confirmed match.
    expect(
      (await auditRows(t.database.db, 'user', customer.id))
        .filter((row) => row.staff_id === officer.id)
        .map((row) => [row.action, row.after]),
    ).toEqual([
      ['user.put_on_hold', { block_status: 2, block_reason: SANCTIONS_TEXTS.holdReason }],
      ['user.hold_reason_changed', { block_reason: SANCTIONS_TEXTS.confirmedHoldReason }],
    ]);
    expect((await hitsOf('confirmed')).map((item) => item.id)).toContain(hit.id);
    expect((await openHits()).map((item) => item.id)).not.toContain(hit.id);

    // Decided: neither decision can be taken again.
    for (const path of [confirmPath, `/api/admin/sanctions/hits/${hit.id}/false-positive`]) {
      const again = await officer.browser.post(path, { note });
      expect([path, again.statusCode, errorOf(again).message]).toEqual([
        path,
        409,
        SANCTIONS_TEXTS.alreadyConfirmed,
      ]);
    }
    expect(await caseOf()).toEqual({
      match: 'confirmed',
      allowed: false,
      firstBlocker: COMPLIANCE_TEXTS.confirmedSanctionsHit,
    });
    const lift = await officer.browser.post(`/api/admin/compliance/cases/${customer.id}/lift-hold`, {
      reason: 'Customer asked us to lift it.',
    });
    expect(lift.statusCode).toBe(409);
    expect(errorOf(lift).message).toBe(COMPLIANCE_TEXTS.confirmedSanctionsHit);
    const live = await officer.browser.post(`/api/admin/compliance/cases/${customer.id}/make-live`);
    expect(live.statusCode).toBe(409);
    expect(errorOf(live).message).toBe(COMPLIANCE_TEXTS.confirmedSanctionsHit);
    expect(await statusOf(customer.id)).toBe(0);
    expect((await accountOf(customer.id)).block_status).toBe(2);

    // The next list names them again: the match stays confirmed and holds the account.
    await importList(rows);
    expect((await screeningsOf(customer.id))[0]).toMatchObject({
      trigger: 'list_imported',
      outcome: 'hit',
      matches: [{ hit_id: hit.id, status: 'confirmed' }],
    });
    expect((await openHits()).map((item) => item.id)).not.toContain(hit.id);
  });
  it('confirms the hit and restates the hold together: a failure between them leaves both undone, and a retry does both', async () => {
    const surname = uniqueSurname();
    await importList([individual('9652', surname, ['Pavel'])]);
    const customer = await submitVerification('Pavel', surname);
    const hit = (await openHits()).find((item) => item.user_id === customer.id);
    if (!hit) throw new Error('no hit');
    const confirmPath = `/api/admin/sanctions/hits/${hit.id}/confirm`;
    const note = 'Same person: the passport number matches the listing.';
    // The database refuses this customer's new hold reason: the confirmation fails after the hit's review.
    const db = t.database.db;
    await sql`CREATE FUNCTION refuse_confirmed_reason() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'restating the hold failed'; END $$`.execute(db);
    await sql`CREATE TRIGGER refuse_confirmed_reason BEFORE UPDATE OF block_reason ON users FOR EACH ROW
      WHEN (NEW.id = ${sql.lit(customer.id)}) EXECUTE FUNCTION refuse_confirmed_reason()`.execute(db);
    try {
      const failed = await officer.browser.post(confirmPath, { note });
      expect(failed.statusCode).toBe(500);
    } finally {
      await sql`DROP TRIGGER refuse_confirmed_reason ON users`.execute(db);
      await sql`DROP FUNCTION refuse_confirmed_reason()`.execute(db);
    }
    expect((await openHits()).map((item) => item.id)).toContain(hit.id);
    expect(await auditRows(db, 'sanctions_hit', hit.id)).toEqual([]);
    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.holdReason,
    });

    const retried = await officer.browser.post(confirmPath, { note });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.confirmedHoldReason,
    });
    expect((await auditRows(db, 'sanctions_hit', hit.id)).map((row) => row.action)).toEqual([
      'sanctions.hit_confirmed',
    ]);
  });
});

describe('recording a delisting', () => {
  it('frees a confirmed match once the list no longer names it, and holds the account again if it is listed again', async () => {
    const surname = uniqueSurname();
    const listed = [individual('9661', surname, ['Rurik'])];
    await importList(listed);
    const customer = await submitVerification('Rurik', surname);
    const hit = (await openHits()).find((item) => item.user_id === customer.id);
    if (!hit) throw new Error('no hit');
    const delistedPath = `/api/admin/sanctions/hits/${hit.id}/delisted`;
    const note = 'Revoked by OFSI notice 2026/117 of 20 November 2026.';

    // Open, not confirmed: nothing to delist.
    const early = await officer.browser.post(delistedPath, { note });
    expect([early.statusCode, errorOf(early).message]).toEqual([409, SANCTIONS_TEXTS.onlyConfirmedDelisted]);
    const confirmed = await officer.browser.post(`/api/admin/sanctions/hits/${hit.id}/confirm`, {
      note: 'Same person: the passport matches the listing.',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(SanctionsHitSchema.parse(confirmed.json<{ data: unknown }>().data).still_listed).toBe(true);

    // The active list still names the designation: refused, and nothing changes.
    const tooSoon = await officer.browser.post(delistedPath, { note });
    expect([tooSoon.statusCode, errorOf(tooSoon).message]).toEqual([409, SANCTIONS_TEXTS.stillListed]);
    expect((await hitsOf('confirmed')).map((item) => item.id)).toContain(hit.id);

    // OFSI's next list no longer names them.
    await importList([individual('9662', uniqueSurname(), ['Someone'])]);
    const stillConfirmed = (await hitsOf('confirmed')).find((item) => item.id === hit.id);
    expect(stillConfirmed).toMatchObject({ status: 'confirmed', still_listed: false });
    const noNote = await officer.browser.post(delistedPath, { note: ' ' });
    expect(noNote.statusCode).toBe(422);
    expect(errorOf(noNote).errors).toEqual({ note: [SANCTIONS_TEXTS.delistNoteRequired] });

    const delisted = await officer.browser.post(delistedPath, { note });
    expect(delisted.statusCode, delisted.body).toBe(200);
    expect(delisted.json()).toMatchObject({
      message: SANCTIONS_TEXTS.delisted,
      data: {
        id: hit.id,
        status: 'delisted',
        still_listed: false,
        delisted_note: note,
        delisted_by: officer.email,
        review_note: 'Same person: the passport matches the listing.',
      },
    });
    expect((await hitsOf('delisted')).map((item) => item.id)).toContain(hit.id);
    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.delistedHoldReason,
    });
    expect((await auditRows(t.database.db, 'sanctions_hit', hit.id)).map((row) => row.action)).toEqual([
      'sanctions.hit_confirmed',
      'sanctions.hit_delisted',
    ]);
    // Decided: neither it nor another decision can be taken again.
    for (const path of [delistedPath, `/api/admin/sanctions/hits/${hit.id}/confirm`]) {
      const again = await officer.browser.post(path, { note });
      expect([path, again.statusCode, errorOf(again).message]).toEqual([
        path,
        409,
        SANCTIONS_TEXTS.alreadyDelisted,
      ]);
    }
    // Nothing holds the account any more: the case no longer blocks, and compliance can lift the hold.
    const caseAnswer = await officer.browser.get(`/api/admin/compliance/cases/${customer.id}`);
    expect(ComplianceCaseSchema.parse(caseAnswer.json<{ data: unknown }>().data).sanctions_match).toBeNull();

    // Designated again: the match is confirmed once more, and the account held for it.
    await importList(listed);
    expect((await hitsOf('confirmed')).find((item) => item.id === hit.id)).toMatchObject({
      status: 'confirmed',
      still_listed: true,
      delisted_note: null,
    });
    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.confirmedHoldReason,
    });
    expect((await screeningsOf(customer.id))[0]).toMatchObject({
      trigger: 'list_imported',
      outcome: 'hit',
      matches: [{ hit_id: hit.id, status: 'confirmed' }],
    });
    expect((await auditRows(t.database.db, 'sanctions_hit', hit.id)).map((row) => row.action)).toEqual([
      'sanctions.hit_confirmed',
      'sanctions.hit_delisted',
      'sanctions.hit_relisted',
    ]);
    const lift = await officer.browser.post(`/api/admin/compliance/cases/${customer.id}/lift-hold`, {
      reason: 'Delisted, we thought.',
    });
    expect([lift.statusCode, errorOf(lift).message]).toEqual([409, COMPLIANCE_TEXTS.confirmedSanctionsHit]);
  });

  it('says what still holds the account: a match to review, another confirmed one, or nothing', async () => {
    const surname = uniqueSurname();
    // One name, three designations: three hits for the one customer.
    const rows = ['9671', '9672', '9673'].map((groupId) => individual(groupId, surname, ['Irina']));
    await importList(rows);
    const customer = await submitVerification('Irina', surname);
    const hits = (await openHits()).filter((item) => item.user_id === customer.id);
    expect(hits.map((item) => item.group_id).sort()).toEqual(['9671', '9672', '9673']);
    const hitOf = (groupId: string) => hits.find((item) => item.group_id === groupId)!.id;
    for (const groupId of ['9671', '9672']) {
      const confirmed = await officer.browser.post(`/api/admin/sanctions/hits/${hitOf(groupId)}/confirm`, {
        note: 'Same person: the passport matches the listing.',
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
    }
    // The next list names only the third designation: the two confirmed ones are delisted together.
    await importList([rows[2]!]);
    const answers = await Promise.all(
      ['9671', '9672'].map((groupId) =>
        officer.browser.post(`/api/admin/sanctions/hits/${hitOf(groupId)}/delisted`, {
          note: 'Revoked by OFSI notice 2026/119.',
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    // The third, never reviewed, still holds the account, and the hold says so.
    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.holdReason,
    });
    const falsePositive = await officer.browser.post(
      `/api/admin/sanctions/hits/${hitOf('9673')}/false-positive`,
      { note: 'Another Irina: born in another decade.' },
    );
    expect(falsePositive.statusCode, falsePositive.body).toBe(200);
    const lift = await officer.browser.post(`/api/admin/compliance/cases/${customer.id}/lift-hold`, {
      reason: 'Nothing holds the account any more.',
    });
    expect(lift.statusCode, lift.body).toBe(200);
  });

  it('mends a confirmed match’s hold at the next screening: a stale reason, or a hold lifted behind the screen’s back', async () => {
    const surname = uniqueSurname();
    const rows = [individual('9681', surname, ['Gleb'])];
    await importList(rows);
    const customer = await submitVerification('Gleb', surname);
    const hit = (await openHits()).find((item) => item.user_id === customer.id);
    if (!hit) throw new Error('no hit');
    const confirmed = await officer.browser.post(`/api/admin/sanctions/hits/${hit.id}/confirm`, {
      note: 'Same person: the passport matches the listing.',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // As a relisting whose restatement failed would leave it.
    await t.database.db
      .updateTable('users')
      .set({ block_reason: SANCTIONS_TEXTS.delistedHoldReason })
      .where('id', '=', customer.id)
      .execute();
    await importList(rows);
    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.confirmedHoldReason,
    });

    // A hold lifted behind the screen's back (as a database edit would): the next screening holds the
    // account again, for the confirmed match, and tells the customer.
    await t.database.db
      .updateTable('users')
      .set({ block_status: 0, block_reason: null })
      .where('id', '=', customer.id)
      .execute();
    const mailsBefore = (await mailSubjects(t.database.db, customer.email)).length;
    await importList(rows);
    expect(await accountOf(customer.id)).toEqual({
      block_status: 2,
      block_reason: SANCTIONS_TEXTS.confirmedHoldReason,
    });
    expect((await mailSubjects(t.database.db, customer.email)).slice(mailsBefore)).toEqual([
      'Your Florin account is on hold — Florin',
    ]);
  });

  it('lets compliance lift the hold of a delisted customer', async () => {
    const surname = uniqueSurname();
    await importList([individual('9663', surname, ['Vadim'])]);
    const customer = await submitVerification('Vadim', surname);
    const hit = (await openHits()).find((item) => item.user_id === customer.id);
    if (!hit) throw new Error('no hit');
    const note = 'Same person: the passport matches the listing.';
    expect(
      (await officer.browser.post(`/api/admin/sanctions/hits/${hit.id}/confirm`, { note })).statusCode,
    ).toBe(200);
    await importList([individual('9664', uniqueSurname(), ['Someone'])]);
    const delisted = await officer.browser.post(`/api/admin/sanctions/hits/${hit.id}/delisted`, {
      note: 'Revoked by OFSI notice 2026/118.',
    });
    expect(delisted.statusCode, delisted.body).toBe(200);
    const lift = await officer.browser.post(`/api/admin/compliance/cases/${customer.id}/lift-hold`, {
      reason: 'Designation revoked; the account is otherwise in order.',
    });
    expect(lift.statusCode, lift.body).toBe(200);
    expect(await accountOf(customer.id)).toEqual({ block_status: 0, block_reason: null });
  });
});

describe('going live', () => {
  /** A customer whose verification is finished and approved, but whose onboarding screening never happened. */
  async function unscreenedCustomer(firstName: string, lastName: string) {
    const db = t.database.db;
    const customer = await insertCustomer(db, { firstName, lastName });
    const documents = await insertIndividualDocuments(db, customer.id);
    await completeVerification(db, customer.id);
    for (const id of Object.values(documents)) {
      expect((await officer.browser.post(`/api/admin/documents/${id}/approve`)).statusCode).toBe(200);
    }
    return customer;
  }
  const makeLive = (userId: number) =>
    officer.browser.post(`/api/admin/compliance/cases/${userId}/make-live`);

  it('screens a customer whose onboarding screening was missed before they go live; a match holds them', async () => {
    const surname = uniqueSurname();
    await importList([individual('9701', surname, ['Pavel'])]);
    // The wizard screens after its own commit: a failure there left these two unscreened.
    const listed = await unscreenedCustomer('Pavel', surname);
    const clear = await unscreenedCustomer('Grace', uniqueSurname());
    expect(await screeningsOf(listed.id)).toEqual([]);

    const refused = await makeLive(listed.id);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(COMPLIANCE_TEXTS.openSanctionsHit);
    expect(await screeningsOf(listed.id)).toMatchObject([{ trigger: 'onboarding', outcome: 'hit' }]);
    expect(await accountOf(listed.id)).toEqual({ block_status: 2, block_reason: SANCTIONS_TEXTS.holdReason });
    expect(await statusOf(listed.id)).toBe(0);
    const [hit] = (await openHits()).filter((item) => item.user_id === listed.id);
    if (!hit) throw new Error('no hit');
    // Reviewed, the customer goes live, still on hold until the officer lifts it.
    const note = 'Different person: born in York, passport checked.';
    expect(
      (await officer.browser.post(`/api/admin/sanctions/hits/${hit.id}/false-positive`, { note })).statusCode,
    ).toBe(200);
    expect((await makeLive(listed.id)).statusCode).toBe(200);
    expect(await statusOf(listed.id)).toBe(1);
    expect(await screeningsOf(listed.id)).toHaveLength(1);

    expect((await makeLive(clear.id)).statusCode).toBe(200);
    expect(await screeningsOf(clear.id)).toMatchObject([{ trigger: 'onboarding', outcome: 'clear' }]);
    expect((await accountOf(clear.id)).block_status).toBe(0);
  });

  it('does not screen again a customer screened since they finished verification', async () => {
    await importList([individual('9702', uniqueSurname(), ['Nikita'])]);
    const customer = await submitVerification('Grace', uniqueSurname());
    const documents = await t.database.db
      .selectFrom('kyc_documents')
      .select('id')
      .where('user_id', '=', customer.id)
      .execute();
    for (const { id } of documents) await officer.browser.post(`/api/admin/documents/${id}/approve`);
    const screened = await screeningsOf(customer.id);
    expect(screened).toMatchObject([{ trigger: 'onboarding', outcome: 'clear' }]);

    expect((await makeLive(customer.id)).statusCode).toBe(200);
    expect(await screeningsOf(customer.id)).toEqual(screened);
  });
});

describe('who may use it', () => {
  it('answers staff of other roles 404 on every sanctions route, and lets a superadmin in', async () => {
    const routes = [
      ['GET', '/api/admin/sanctions/list'],
      ['POST', '/api/admin/sanctions/list'],
      ['GET', '/api/admin/sanctions/hits'],
      ['POST', '/api/admin/sanctions/hits/1/false-positive'],
      ['POST', '/api/admin/sanctions/hits/1/confirm'],
      ['POST', '/api/admin/sanctions/hits/1/delisted'],
      ['GET', '/api/admin/sanctions/customers/1/screenings'],
    ] as const;
    for (const role of ['support', 'finance'] as const) {
      const staff = await signedInStaff(t.app, t.database.db, role);
      for (const [method, url] of routes) {
        const response =
          method === 'GET' ? await staff.browser.get(url) : await staff.browser.post(url, { note: 'x' });
        expect([role, method, url, response.statusCode, errorOf(response).code]).toEqual([
          role,
          method,
          url,
          404,
          'NOT_FOUND',
        ]);
      }
    }
    const superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
    expect((await superadmin.browser.get('/api/admin/sanctions/list')).statusCode).toBe(200);
    expect((await superadmin.browser.get('/api/admin/sanctions/hits')).statusCode).toBe(200);
  });

  it('answers a signed-in customer 404, as if the back office did not exist', async () => {
    const customer = await insertCustomer(t.database.db);
    const browser = await customerBrowser(t.app, t.database.db, customer.id);
    for (const url of ['/api/admin/sanctions/list', '/api/admin/sanctions/hits']) {
      const response = await browser.get(url);
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
    }
    const upload = await browser.post('/api/admin/sanctions/list', {});
    expect(upload.statusCode).toBe(404);
  });
});
