import { AUTH_TEXTS } from '@florin/contracts';
import type { Page } from '@playwright/test';
import {
  authenticator,
  expect,
  linkIn,
  submitLoginForm,
  test,
  uniqueEmail,
  type Authenticator,
} from '../fixtures.js';

async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Authentication code, digit 1 of 6' }).pressSequentially(code);
}

test.describe('a new customer', () => {
  test('registers, verifies the e-mail, secures the account with 2FA, changes and then resets the password', async ({
    page,
    mailbox,
    newDevice,
    signIn,
    consoleErrors,
  }) => {
    test.setTimeout(180_000);
    const email = uniqueEmail('lifecycle');
    const firstPassword = 'Granite-Orchard-Sings-71';
    const secondPassword = 'Copper-Meadow-Drifts-38';
    const thirdPassword = 'Velvet-Harbour-Wakes-55';

    await test.step('registers', async () => {
      await page.goto('/register');
      await page.getByLabel('First Name').fill('Grace');
      await page.getByLabel('Last Name').fill('Hopper');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(firstPassword);
      await page.getByLabel('Confirm Password').fill(firstPassword);
      await page.getByRole('checkbox', { name: /I accept the Terms & Conditions/ }).check();
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByText(AUTH_TEXTS.registered)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    });

    await test.step('opens the verification link from the mailbox', async () => {
      const mail = await mailbox.waitForMail(email, 'Verify your email address');
      await page.goto(linkIn(mail));
      await expect(page).toHaveURL(/\/login\?user_verified=success$/);
      await expect(page.getByText(AUTH_TEXTS.verifySuccessBanner)).toBeVisible();
    });

    await test.step('signs in through the captcha and lands on Getting Started', async () => {
      await submitLoginForm(page, email, firstPassword);
      await expect(page).toHaveURL(/\/user$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Getting Started' })).toBeVisible();
      await expect(page.getByRole('banner').getByText(/l\*+\d@f\*+t/)).toBeVisible();
    });

    // Another device, signed in before the password changes; the change must sign it out.
    const other = await newDevice();
    await signIn(other.context.request, { email, password: firstPassword, firstName: '', lastName: '' });
    await other.page.goto('/user/settings?tab=password');
    await expect(other.page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

    let app: Authenticator | undefined;
    let recoveryCodes: string[] = [];
    await test.step('turns on two-factor authentication with the secret shown on the page', async () => {
      await page.getByRole('link', { name: 'Set up two-factor authentication' }).click();
      await expect(page).toHaveURL(/\/user\/settings\?tab=2fa$/);
      await expect(page.getByRole('tab', { name: 'Two-Factor Authentication' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
      const secret = (await page.getByLabel('Secret key').inputValue()).replace(/\s+/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      app = authenticator(secret);
      await page.getByRole('button', { name: 'Next' }).click();
      await typeCode(page, await app.code());
      await expect(page.getByText(AUTH_TEXTS.twoFactorToggled)).toBeVisible();

      const dialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
      await expect(dialog).toBeVisible();
      recoveryCodes = await dialog
        .getByRole('list', { name: 'Recovery codes' })
        .getByRole('listitem')
        .allTextContents();
      expect(recoveryCodes).toHaveLength(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
      await dialog.getByRole('button', { name: 'I have saved them' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('heading', { name: 'Your account is secured' })).toBeVisible();
      await expect(page.getByText('10 recovery codes left.')).toBeVisible();
    });

    await test.step('signs out', async () => {
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await expect(page).toHaveURL(/\/login$/);
    });

    await test.step('signs in again with a code typed into the 2FA modal, which submits itself', async () => {
      await submitLoginForm(page, email, firstPassword);
      const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
      await expect(dialog).toBeVisible();
      // Each 30-second step is good once: the app gives a later step's code than the one that turned 2FA on.
      if (!app) throw new Error('2FA was not set up');
      await typeCode(page, await app.code());
      await expect(page).toHaveURL(/\/user$/);
    });

    await test.step('changes the password, which signs the other device out', async () => {
      await page.goto('/user/settings?tab=password');
      await page.getByLabel('Current Password').fill(firstPassword);
      await page.getByLabel('New Password', { exact: true }).fill(secondPassword);
      await page.getByLabel('Confirm New Password').fill(secondPassword);
      await page.getByRole('button', { name: 'Change Password' }).click();
      await expect(page.getByText(AUTH_TEXTS.passwordChanged)).toBeVisible();

      // The other device's next call is refused, and it is sent to the login screen.
      await other.page.getByLabel('Current Password').fill(firstPassword);
      await other.page.getByLabel('New Password', { exact: true }).fill(thirdPassword);
      await other.page.getByLabel('Confirm New Password').fill(thirdPassword);
      const refused = other.page.waitForResponse('**/api/v1/settings/change-password');
      await other.page.getByRole('button', { name: 'Change Password' }).click();
      expect((await refused).status()).toBe(401);
      await expect(other.page).toHaveURL(/\/login$/);
      await expect(other.page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    });

    await test.step('forgets the password and resets it through the mailed link', async () => {
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await page.getByRole('link', { name: 'Forget Password?' }).click();
      await expect(page).toHaveURL(/\/forgot-password$/);
      const since = new Date();
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Reset' }).click();
      await expect(page.getByText(AUTH_TEXTS.resetLinkSent)).toBeVisible();

      const link = linkIn(await mailbox.waitForMail(email, 'Reset your Florin password', { since }));
      expect(link).toMatch(/\/password-reset\?[\w-]+$/);
      await page.goto(link);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('New Password', { exact: true }).fill(thirdPassword);
      await page.getByLabel('Confirm Password').fill(thirdPassword);
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByText(AUTH_TEXTS.passwordReset)).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);

      // The link works once.
      await page.goto(link);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('New Password', { exact: true }).fill(thirdPassword);
      await page.getByLabel('Confirm Password').fill(thirdPassword);
      await page.getByRole('button', { name: 'Submit' }).click();
      const error = page.getByRole('alert').filter({ hasText: AUTH_TEXTS.resetTokenInvalid });
      await expect(error).toBeVisible();
      await expect(error).toContainText('Error');
    });

    await test.step('signs in with the new password and a recovery code', async () => {
      await page.goto('/login');
      await submitLoginForm(page, email, thirdPassword);
      const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
      await dialog.getByRole('button', { name: 'Use a recovery code' }).click();
      await dialog.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await expect(page).toHaveURL(/\/user$/);
      await page.goto('/user/settings?tab=2fa');
      await expect(page.getByText('9 recovery codes left.')).toBeVisible();
    });

    expect(consoleErrors).toEqual([]);
  });
});
