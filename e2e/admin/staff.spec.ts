import { ADMIN_TEXTS } from '@florin/contracts';
import type { Page } from '@playwright/test';
import { expect, freshStaffCode, STAFF_PASSWORD, test } from '../admin-fixtures.js';
import { linkIn } from '../fixtures.js';
import { closeToasts } from '../kyc/wizard-page.js';

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
}

/** Types the code into the six boxes (they submit themselves when full). */
async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Authentication code, digit 1 of 6' }).pressSequentially(code);
}

/** The staff sign-in, the first time: e-mail and password, then the secret read off the page, as an app scanning the QR code would. */
async function signInEnrolling(page: Page, email: string, password: string): Promise<string> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Set up two-factor authentication' }),
  ).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByLabel('Secret key').inputValue()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  return secret;
}

test.describe('the back office: staff', () => {
  // Two people sign in with codes from their apps; a code's 30-second step may have to pass.
  test.describe.configure({ timeout: 120_000 });

  test('a new superadmin enrolls 2FA at first sign-in, adds a compliance member, who sets a password and signs in', async ({
    page,
    invitedStaff,
    mailbox,
    newDevice,
    saveScreenshots,
    consoleErrors,
  }) => {
    const superadmin = await invitedStaff('superadmin');

    // A signed-out visitor of any back-office address lands on the staff sign-in.
    await page.goto('/admin/staff');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Staff sign-in' })).toBeVisible();
    await saveScreenshots('admin-login');

    const secret = await signInEnrolling(page, superadmin.email, superadmin.password);
    await saveScreenshots('admin-enroll-2fa');
    await typeCode(page, await freshStaffCode(secret));
    // Back where the visit began.
    await expect(page).toHaveURL(/\/admin\/staff$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();

    const nav = page.getByRole('navigation', { name: 'Back office' });
    for (const label of ['Compliance', 'Customers', 'Staff', 'Audit log']) {
      await expect(nav.getByRole('link', { name: label })).toBeVisible();
    }
    const banner = page.getByRole('banner');
    await expect(banner.getByText(superadmin.email)).toBeVisible();
    await expect(banner.getByText('Superadmin', { exact: true })).toBeVisible();

    // Add a compliance member.
    const memberEmail = `officer-${Date.now().toString(36)}@florin.test`;
    const since = new Date(Date.now() - 1_000);
    await page.getByRole('button', { name: 'Add staff member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add staff member' });
    await dialog.getByLabel('Email').fill(memberEmail);
    await dialog.getByLabel('Role', { exact: true }).click();
    await page.getByRole('option', { name: 'Compliance' }).click();
    await dialog.getByRole('button', { name: 'Add staff member' }).click();
    const toast = page.getByRole('alert').filter({ hasText: ADMIN_TEXTS.staffCreated });
    await expect(toast).toBeVisible();
    await expect(dialog).toBeHidden();
    await closeToasts(page);
    await expect(toast).toBeHidden();
    const row = page.getByRole('row').filter({ hasText: memberEmail });
    await expect(row.getByText('Invited')).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Compliance', exact: true })).toBeVisible();
    await saveScreenshots('admin-staff');

    // The member follows the e-mailed link on a device of their own.
    const mail = await mailbox.waitForMail(memberEmail, 'Set your Florin staff password', { since });
    const { page: memberPage } = await newDevice();
    await memberPage.goto(linkIn(mail));
    await expect(memberPage.getByRole('heading', { level: 1, name: 'Set your password' })).toBeVisible();
    await memberPage.getByLabel('New password', { exact: true }).fill('too-short');
    await memberPage.getByLabel('Confirm new password', { exact: true }).fill('too-short');
    await memberPage.getByRole('button', { name: 'Set password' }).click();
    await expect(memberPage.getByText(ADMIN_TEXTS.passwordTooShort)).toBeVisible();
    await memberPage.getByLabel('New password', { exact: true }).fill(STAFF_PASSWORD);
    await memberPage.getByLabel('Confirm new password', { exact: true }).fill(STAFF_PASSWORD);
    await memberPage.getByRole('button', { name: 'Set password' }).click();
    await expect(memberPage).toHaveURL(/\/admin\/login$/);
    await expect(memberPage.getByText(ADMIN_TEXTS.passwordSet)).toBeVisible();

    const memberSecret = await signInEnrolling(memberPage, memberEmail, STAFF_PASSWORD);
    // A wrong code first: it is refused and the boxes clear.
    const right = await freshStaffCode(memberSecret);
    await typeCode(memberPage, String((Number(right) + 500_000) % 1_000_000).padStart(6, '0'));
    await expect(memberPage.getByRole('alert').filter({ hasText: ADMIN_TEXTS.wrongCode })).toBeVisible();
    await expect(memberPage.getByRole('textbox', { name: 'Authentication code, digit 1 of 6' })).toHaveValue(
      '',
    );
    await typeCode(memberPage, right);
    await expect(memberPage).toHaveURL(/\/admin\/compliance$/);
    await expect(memberPage.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    const memberNav = memberPage.getByRole('navigation', { name: 'Back office' });
    await expect(memberNav.getByRole('link', { name: 'Audit log' })).toBeVisible();
    // Staff management is for superadmins only.
    await expect(memberNav.getByRole('link', { name: 'Staff' })).toHaveCount(0);
    await expect(memberPage.getByRole('banner').getByText(memberEmail)).toBeVisible();

    // The superadmin sees the member active, and every step in the audit log.
    await page.reload();
    await expect(row.getByText('Active')).toBeVisible();
    await nav.getByRole('link', { name: 'Audit log' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    const log = page.getByRole('table', { name: 'Audit log' });
    await expect(log.getByRole('row').filter({ hasText: 'staff.created' }).first()).toBeVisible();
    await expect(log.getByRole('row').filter({ hasText: memberEmail }).first()).toBeVisible();
    await saveScreenshots('admin-audit-log');

    // Signing out ends the session: the back office is closed again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect((await page.request.get('/api/admin/me')).status()).toBe(404);
    expect(consoleErrors).toEqual([]);
  });

  test('a customer who opens /admin finds only the staff sign-in, and the back-office API answers 404', async ({
    signedInPage: page,
    consoleErrors,
  }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Staff sign-in' })).toBeVisible();
    const me = await page.request.get('/api/admin/me');
    expect(me.status()).toBe(404);
    expect(((await me.json()) as { code: string }).code).toBe('NOT_FOUND');
    expect((await page.request.get('/api/admin/staff')).status()).toBe(404);
    expect(consoleErrors).toEqual([]);
  });

  test('a compliance member works from a phone: the navigation folds behind a burger, and Staff is not theirs', async ({
    page,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    const member = await staffMember('compliance');
    await page.setViewportSize({ width: 375, height: 812 });
    await signInStaff(page, member);
    await expect(page).toHaveURL(/\/admin\/compliance$/);
    const nav = page.getByRole('navigation', { name: 'Back office' });
    await expect(nav).toBeHidden();
    await expectNoSidewaysScroll(page);

    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);
    await saveScreenshots('admin-nav-open', [375]);
    await nav.getByRole('link', { name: 'Audit log' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    await expect(nav).toBeHidden();
    await expectNoSidewaysScroll(page);

    // Typing the address does not open it either.
    await page.goto('/admin/staff');
    await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});
