import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPLIANCE_TEXTS,
  ComplianceCaseSchema,
  SANCTIONS_TEXTS,
  SanctionsHitSchema,
} from '@florin/contracts';
import { sql } from 'kysely';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { auditRows, mailSubjects } from '../compliance/customers.test-kit.js';
import { createKycTestApp, type KycTestApp } from '../kyc/kyc.test-kit.js';
import { individual } from './lists.test-kit.js';

import { errorOf, sanctionsSteps, uniqueSurname } from './sanctions.test-kit.js';

let t: KycTestApp;
let officer: SignedInStaff;

beforeAll(async () => {
  t = await createKycTestApp();
  officer = await signedInStaff(t.app, t.database.db, 'compliance');
});
afterAll(async () => {
  await t.close();
});

const { importList, accountOf, statusOf, openHits, hitsOf, screeningsOf, submitVerification } =
  sanctionsSteps(
    () => t,
    () => officer,
  );

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
