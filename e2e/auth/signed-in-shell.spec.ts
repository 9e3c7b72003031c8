import type { User } from '@florin/contracts';
import type { Page } from '@playwright/test';
import { expect, holdRequests, test } from '../fixtures.js';

const NAV = [
  ['Dashboard', '/user'],
  ['Trade', '/user/trade'],
  ['Wallets', '/user/wallets'],
  ['Account', '/user/accounts'],
  ['Settings', '/user/settings'],
  ['Term Deposits', '/user/term-deposit'],
] as const;

/**
 * The shell's looks in each account state, checked by editing the real
 * `GET /user` answer on its way to the page. The real way there (verification,
 * staff review, make live) is the story of e2e/kyc and e2e/admin/compliance.
 */
async function showUserAs(page: Page, changes: Partial<User>): Promise<void> {
  await page.route('**/api/v1/user', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: User };
    await route.fulfill({ response, json: { data: { ...body.data, ...changes } } });
  });
}

/** A verified customer's flags: with status 1, the navigation shows (spec 000 section 4). */
const EVERY_STEP_SUBMITTED = {
  is_kyc_submitted: 1,
  is_wealth_submitted: 1,
  is_photo_id_submitted: 1,
  is_proof_address_submitted: 1,
  is_selfie_submitted: 1,
} as const;

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
}

test.describe('the signed-in shell', () => {
  test('the login and registration screens fit a phone and a desktop', async ({
    page,
    saveScreenshots,
    consoleErrors,
  }) => {
    await page.goto('/login?user_verified=success');
    await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: "I'm not a robot" })).toBeVisible();
    await saveScreenshots('login');
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoSidewaysScroll(page);

    await page.goto('/register');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByText('The first name field is required.')).toBeVisible();
    await saveScreenshots('register');
    await expectNoSidewaysScroll(page);
    expect(consoleErrors).toEqual([]);
  });

  test('a customer who is not live yet sees Getting Started, the masked e-mail and the account menu', async ({
    signedInPage: page,
    customer,
    signIn,
    saveScreenshots,
    consoleErrors,
  }) => {
    await expect(page.getByRole('heading', { level: 1, name: 'Getting Started' })).toBeVisible();
    const header = page.getByRole('banner');
    // Not live: no navigation, and every /user page shows Getting Started, except Settings.
    await expect(header.getByRole('navigation')).toHaveCount(0);
    // The first sign-in has none before it to show.
    await expect(header.getByText('First sign-in', { exact: true })).toBeVisible();
    // Signed in again: the header shows when they last did.
    await signIn(page.request, customer);
    await page.goto('/user/trade');
    await expect(page.getByRole('heading', { level: 1, name: 'Getting Started' })).toBeVisible();
    await expect(
      header.getByText(/^Last login: \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} (GMT|BST)$/),
    ).toBeVisible();
    const [local = ''] = customer.email.split('@');
    await expect(header).toContainText(
      `${local[0]}${'*'.repeat(local.length - 2)}${local.at(-1)}@f*********t`,
    );
    await saveScreenshots('getting-started');

    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoSidewaysScroll(page);
    await header.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText('Ada Lovelace')).toBeVisible();
    await expect(menu.getByText(/^Last login:/)).toBeVisible();
    await expect(menu.getByRole('menuitem')).toHaveText(['Settings', 'Logout']);
    await saveScreenshots('account-menu', [375]);
    await menu.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/user\/settings$/);
    expect(consoleErrors).toEqual([]);
  });

  test('Settings looks right on a phone and a desktop: the password tab and the 2FA setup', async ({
    signedInPage: page,
    totp,
    saveScreenshots,
    consoleErrors,
  }) => {
    await page.goto('/user/settings?tab=password');
    await expect(page.getByLabel('Current Password')).toBeVisible();
    await saveScreenshots('settings-password');

    await page.goto('/user/settings?tab=2fa');
    await expect(
      page.getByRole('heading', { name: 'Protect your account with an authenticator app' }),
    ).toBeVisible();
    await saveScreenshots('settings-2fa-intro');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    // The setup survives the tabs turning into an accordion and back.
    await saveScreenshots('settings-2fa-qr');
    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = await page.getByLabel('Secret key').inputValue();
    await page.getByRole('button', { name: 'Next' }).click();
    await saveScreenshots('settings-2fa-code');

    await page
      .getByRole('textbox', { name: 'Authentication code, digit 1 of 6' })
      .pressSequentially(totp(secret));
    await expect(page.getByRole('dialog', { name: 'Save your recovery codes' })).toBeVisible();
    await saveScreenshots('settings-2fa-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect(page.getByRole('heading', { name: 'Your account is secured' })).toBeVisible();
    await saveScreenshots('settings-2fa-secured');
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoSidewaysScroll(page);
    expect(consoleErrors).toEqual([]);
  });

  test('a live customer gets the navigation, on a phone as a menu', async ({
    page,
    customer,
    signIn,
    saveScreenshots,
    consoleErrors,
  }) => {
    await showUserAs(page, { status: 1, ...EVERY_STEP_SUBMITTED });
    await signIn(page.request, customer);
    await page.goto('/user');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const nav = page.getByRole('banner').getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(NAV.map(([name]) => name));
    for (const [name, href] of NAV) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await saveScreenshots('dashboard-live');

    await page.setViewportSize({ width: 375, height: 812 });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem')).toHaveText(NAV.map(([name]) => name));
    await saveScreenshots('mobile-menu', [375]);
    await menu.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/user\/settings$/);
    await expectNoSidewaysScroll(page);
    expect(consoleErrors).toEqual([]);
  });

  test('an account on hold shows the compliance banner and no navigation', async ({
    page,
    customer,
    signIn,
    saveScreenshots,
    consoleErrors,
  }) => {
    await showUserAs(page, { status: 1, block_status: 2, ...EVERY_STEP_SUBMITTED });
    await signIn(page.request, customer);
    await page.goto('/user');
    const banner = page.getByRole('alert').filter({ hasText: 'Account on hold' });
    await expect(banner).toContainText(
      'Our compliance team has put your account on hold. Please contact support',
    );
    await expect(page.getByRole('banner').getByRole('navigation')).toHaveCount(0);
    await saveScreenshots('account-on-hold');
    expect(consoleErrors).toEqual([]);
  });

  test('while the user loads a full-page spinner shows', async ({ page, customer, signIn }) => {
    await signIn(page.request, customer);
    const release = await holdRequests(page, '**/api/v1/user');
    await page.goto('/user');
    await expect(page.getByRole('status', { name: 'Loading your account' })).toBeVisible();
    release();
    await expect(page.getByRole('heading', { level: 1, name: 'Getting Started' })).toBeVisible();
  });
});
