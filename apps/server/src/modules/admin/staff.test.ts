import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TEXTS, ErrorBodySchema } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  insertStaff,
  signInStaff,
  signedInStaff,
  STAFF_PASSWORD,
  type SignedInStaff,
} from '../../test/admin.js';
import { createBrowser, linkInMail, mailTo } from '../../test/browser.js';

let t: TestApp;
let superadmin: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
});
afterAll(async () => {
  await t.close();
});

function errorOf(response: { body: string }) {
  return ErrorBodySchema.parse(JSON.parse(response.body));
}

async function auditRows(targetId: number) {
  return t.database.db
    .selectFrom('audit_log')
    .select(['staff_id', 'action', 'target_type', 'target_id', 'before', 'after', 'ip'])
    .where('target_type', '=', 'staff')
    .where('target_id', '=', String(targetId))
    .orderBy('id')
    .execute();
}

function newEmail(label: string): string {
  return `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@florin.test`;
}

describe('staff management', () => {
  it('lists every member, without password hashes or 2FA secrets', async () => {
    const member = await insertStaff(t.database.db, { role: 'finance' });
    const response = await superadmin.browser.get('/api/admin/staff');
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: Record<string, unknown>[] }>();
    expect(data.find((row) => row.id === member.id)).toEqual({
      id: member.id,
      email: member.email,
      role: 'finance',
      password_set: true,
      two_factor_enrolled: false,
      disabled: false,
      last_sign_in_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
    });
    expect(data.find((row) => row.id === superadmin.id)).toMatchObject({
      two_factor_enrolled: true,
      last_sign_in_at: expect.stringMatching(/^\d{4}-/) as string,
    });
    expect(response.body).not.toMatch(/argon2|password_hash|totp/);
  });

  it('adds a member with an e-mailed set-password link, and writes who did it to the audit log', async () => {
    const email = newEmail('Added');
    const response = await superadmin.browser.post('/api/admin/staff', { email, role: 'compliance' });
    expect(response.statusCode).toBe(201);
    const body = response.json<{ data: { id: number }; message: string }>();
    expect(body).toEqual({
      message: ADMIN_TEXTS.staffCreated,
      data: expect.objectContaining({
        email: email.toLowerCase(),
        role: 'compliance',
        password_set: false,
        two_factor_enrolled: false,
        disabled: false,
      }) as object,
    });
    const [mail] = await mailTo(t.database.db, email.toLowerCase());
    expect(mail?.subject).toBe('Set your Florin staff password — Florin');
    expect(mail?.text).toContain('as Compliance');

    expect(await auditRows(body.data.id)).toEqual([
      {
        staff_id: superadmin.id,
        action: 'staff.created',
        target_type: 'staff',
        target_id: String(body.data.id),
        before: null,
        after: {
          email: email.toLowerCase(),
          role: 'compliance',
          password_set: false,
          two_factor_enrolled: false,
          disabled: false,
        },
        ip: superadmin.browser.ip,
      },
    ]);

    const twice = await superadmin.browser.post('/api/admin/staff', {
      email: email.toUpperCase(),
      role: 'support',
    });
    expect(twice.statusCode).toBe(422);
    expect(errorOf(twice).errors).toEqual({ email: [ADMIN_TEXTS.staffEmailTaken] });
  });

  it('refuses a role that does not exist and fields the contract does not name', async () => {
    const badRole = await superadmin.browser.post('/api/admin/staff', { email: newEmail('x'), role: 'root' });
    expect(badRole.statusCode).toBe(422);
    expect(Object.keys(errorOf(badRole).errors ?? {})).toEqual(['role']);
    const extra = await superadmin.browser.post('/api/admin/staff', {
      email: newEmail('y'),
      role: 'support',
      password: 'chosen-by-the-superadmin',
    });
    expect(extra.statusCode).toBe(422);
    expect(errorOf(extra).errors).toEqual({ password: ['This field is not allowed.'] });
  });

  it('changes a role, audited with the member before and after', async () => {
    const member = await insertStaff(t.database.db, { role: 'support' });
    const response = await superadmin.browser.put(`/api/admin/staff/${member.id}/role`, { role: 'finance' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: ADMIN_TEXTS.roleChanged, data: { role: 'finance' } });
    const [row] = await auditRows(member.id);
    expect(row).toMatchObject({
      staff_id: superadmin.id,
      action: 'staff.role_changed',
      before: { role: 'support', email: member.email, disabled: false },
      after: { role: 'finance', email: member.email, disabled: false },
    });

    const same = await superadmin.browser.put(`/api/admin/staff/${member.id}/role`, { role: 'finance' });
    expect(same.statusCode).toBe(409);
    expect(errorOf(same).message).toBe(ADMIN_TEXTS.sameRole);
    const missing = await superadmin.browser.put('/api/admin/staff/999999/role', { role: 'finance' });
    expect(missing.statusCode).toBe(404);
    expect(await auditRows(member.id)).toHaveLength(1);
  });

  it('never lets a superadmin demote, disable or reset the 2FA of themselves, so one always remains', async () => {
    const demote = await superadmin.browser.put(`/api/admin/staff/${superadmin.id}/role`, {
      role: 'support',
    });
    expect(demote.statusCode).toBe(403);
    expect(errorOf(demote)).toMatchObject({ code: 'FORBIDDEN', message: ADMIN_TEXTS.cannotChangeOwnRole });
    const disable = await superadmin.browser.post(`/api/admin/staff/${superadmin.id}/disable`);
    expect(disable.statusCode).toBe(403);
    expect(errorOf(disable).message).toBe(ADMIN_TEXTS.cannotDisableSelf);
    const reset = await superadmin.browser.post(`/api/admin/staff/${superadmin.id}/reset-2fa`);
    expect(reset.statusCode).toBe(403);
    expect(errorOf(reset).message).toBe(ADMIN_TEXTS.cannotResetOwnTwoFactor);
    expect((await superadmin.browser.get('/api/admin/me')).json()).toMatchObject({
      data: { role: 'superadmin' },
    });
    expect(await auditRows(superadmin.id)).not.toContainEqual(
      expect.objectContaining({
        action: expect.stringMatching(/role_changed|disabled|two_factor_reset/) as string,
      }),
    );
  });

  it('disables and enables a member, each audited; doing either twice is a conflict', async () => {
    const member = await insertStaff(t.database.db, { role: 'support' });
    const disabled = await superadmin.browser.post(`/api/admin/staff/${member.id}/disable`);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({
      message: ADMIN_TEXTS.staffDisabledDone,
      data: { disabled: true },
    });
    const again = await superadmin.browser.post(`/api/admin/staff/${member.id}/disable`);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(ADMIN_TEXTS.alreadyDisabled);

    const enabled = await superadmin.browser.post(`/api/admin/staff/${member.id}/enable`);
    expect(enabled.json()).toMatchObject({
      message: ADMIN_TEXTS.staffEnabledDone,
      data: { disabled: false },
    });
    expect((await superadmin.browser.post(`/api/admin/staff/${member.id}/enable`)).statusCode).toBe(409);

    const rows = await auditRows(member.id);
    expect(rows.map((row) => [row.action, row.before?.disabled, row.after?.disabled])).toEqual([
      ['staff.disabled', false, true],
      ['staff.enabled', true, false],
    ]);
  });

  it("resets a member's 2FA: their sessions end, they are told by mail, and they enroll again at the next sign-in", async () => {
    const member = await signedInStaff(t.app, t.database.db, 'compliance');
    const response = await superadmin.browser.post(`/api/admin/staff/${member.id}/reset-2fa`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: ADMIN_TEXTS.twoFactorReset,
      data: { two_factor_enrolled: false },
    });
    expect((await member.browser.get('/api/admin/me')).statusCode).toBe(404);
    const [mail] = await mailTo(t.database.db, member.email);
    expect(mail?.subject).toBe('Your Florin staff two-factor authentication was reset — Florin');

    const login = await createBrowser(t.app).post('/api/admin/login', {
      email: member.email,
      password: member.password,
    });
    const answer = login.json<{ must_enroll_2fa: boolean; enrollment: { secret: string } | null }>();
    expect(answer.must_enroll_2fa).toBe(true);
    expect(answer.enrollment?.secret).not.toBe(member.totpSecret);

    const [row] = await auditRows(member.id).then((rows) =>
      rows.filter((entry) => entry.action === 'staff.two_factor_reset'),
    );
    expect(row).toMatchObject({
      staff_id: superadmin.id,
      before: { two_factor_enrolled: true },
      after: { two_factor_enrolled: false },
    });
    // Nothing sealed or secret ever reaches the audit log.
    expect(JSON.stringify(await auditRows(member.id))).not.toMatch(/v1\.|argon2|secret/);

    const notEnrolled = await superadmin.browser.post(`/api/admin/staff/${member.id}/reset-2fa`);
    expect(notEnrolled.statusCode).toBe(409);
    expect(errorOf(notEnrolled).message).toBe(ADMIN_TEXTS.notEnrolled);
  });

  it('sends a new set-password link: the older link dies, the current password works until the new one is used', async () => {
    const member = await signedInStaff(t.app, t.database.db, 'finance');
    const email = newEmail('relinked');
    await superadmin.browser.post('/api/admin/staff', { email, role: 'support' });
    const firstLink = await linkInMail(t.database.db, email, /Set your Florin staff password/);

    const created = (await superadmin.browser.get('/api/admin/staff'))
      .json<{ data: { id: number; email: string }[] }>()
      .data.find((row) => row.email === email);
    const resent = await superadmin.browser.post(`/api/admin/staff/${created?.id}/password-link`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ message: ADMIN_TEXTS.passwordLinkSent });
    const secondLink = await linkInMail(t.database.db, email, /Set a new Florin staff password/);
    const body = (link: string) => ({
      token: link.split('#')[1],
      password: STAFF_PASSWORD,
      password_confirmation: STAFF_PASSWORD,
    });
    const browser = createBrowser(t.app);
    expect((await browser.post('/api/admin/set-password', body(firstLink))).statusCode).toBe(422);
    expect((await browser.post('/api/admin/set-password', body(secondLink))).statusCode).toBe(200);

    // A member who forgot their password: the old one still signs in until the link is used.
    await superadmin.browser.post(`/api/admin/staff/${member.id}/password-link`);
    const stillWorks = await signInStaff(t.app, member);
    expect((await stillWorks.browser.get('/api/admin/me')).statusCode).toBe(200);
    const link = await linkInMail(t.database.db, member.email, /Set a new Florin staff password/);
    const newPassword = 'a-brand-new-Password-2026';
    expect(
      (
        await browser.post('/api/admin/set-password', {
          token: link.split('#')[1],
          password: newPassword,
          password_confirmation: newPassword,
        })
      ).statusCode,
    ).toBe(200);
    // Setting it ends every session the member had.
    expect((await stillWorks.browser.get('/api/admin/me')).statusCode).toBe(404);
    const oldPassword = await createBrowser(t.app).post('/api/admin/login', {
      email: member.email,
      password: member.password,
    });
    expect(oldPassword.statusCode).toBe(401);
    const withNew = createBrowser(t.app);
    const login = await withNew.post('/api/admin/login', { email: member.email, password: newPassword });
    expect(login.statusCode).toBe(200);
    // The authenticator stays: a new password is not a new second factor.
    expect(login.json()).toMatchObject({ must_enroll_2fa: false, enrollment: null });
  });
});
