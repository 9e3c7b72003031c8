import { AUTH_TEXTS } from '@florin/contracts';
import type { Page, Route } from '@playwright/test';
import { expect, linkIn, submitLoginForm, test, uniqueEmail, wrongTotp } from '../fixtures.js';

function digits(page: Page) {
  return page.getByRole('textbox', { name: 'Authentication code, digit 1 of 6' });
}

test.describe('settings', () => {
  // The captcha's proof of work runs in the page; on a busy machine it takes well over a second.
  test.describe.configure({ timeout: 60_000 });

  test('a customer upgraded from the previous product is asked once to set up 2FA again', async ({
    page,
    customer,
    consoleErrors,
  }) => {
    // DECISIONS.md: nobody is upgraded today (`upgraded` stays 0); the answers are edited to show the path.
    const markUpgraded = async (route: Route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown> & { data: Record<string, unknown> };
      const json = {
        ...body,
        data: { ...body.data, upgraded: 1 },
        ...('upgraded' in body ? { upgraded: 1 } : {}),
      };
      await route.fulfill({ response, json });
    };
    await page.route('**/api/v1/login', markUpgraded);
    await page.route('**/api/v1/user', markUpgraded);

    await page.goto('/login');
    await submitLoginForm(page, customer.email, customer.password);

    await expect(page).toHaveURL(/\/user\/settings\?tab=2fa$/);
    const notice = page.getByRole('dialog', { name: 'Set up two-factor authentication again' });
    await expect(notice).toContainText('does not work here');
    await notice.getByRole('button', { name: 'Set up 2FA' }).click();
    await expect(notice).toBeHidden();
    await expect(page.getByRole('tab', { name: 'Two-Factor Authentication' })).toHaveAttribute(
      'aria-selected',
      'true',
    );

    // Shown once: the next visit opens Settings as usual.
    await page.goto('/user/settings?tab=password');
    await expect(page.getByLabel('Current Password')).toBeVisible();
    await expect(notice).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });

  test('a customer changes the e-mail address and confirms it through the link sent to the new one', async ({
    signedInPage: page,
    customer,
    mailbox,
    consoleErrors,
  }) => {
    await page.goto('/user/settings');
    await expect(page.getByRole('tab', { name: 'Password' })).toHaveAttribute('aria-selected', 'true');

    await test.step('a wrong current password is refused under the field', async () => {
      await page.getByLabel('Current Password').fill('Not-My-Password-0');
      await page.getByLabel('New Password', { exact: true }).fill('Another-Long-Password-7');
      await page.getByLabel('Confirm New Password').fill('Another-Long-Password-7');
      await page.getByRole('button', { name: 'Change Password' }).click();
      await expect(
        page.getByRole('alert').filter({ hasText: AUTH_TEXTS.currentPasswordWrong }),
      ).toBeVisible();
      await expect(page.getByLabel('Current Password')).toHaveAttribute('aria-invalid', 'true');
    });

    const newEmail = uniqueEmail('moved');
    await test.step('asks for the change and sees the confirmation banner', async () => {
      const emailForm = page.getByRole('form', { name: 'Change email' });
      await emailForm.getByLabel('New Email').fill(newEmail);
      await emailForm.getByLabel('Password', { exact: true }).fill(customer.password);
      await emailForm.getByRole('button', { name: 'Change Email' }).click();
      await expect(page.getByText(AUTH_TEXTS.emailChangeSent)).toBeVisible();

      const banner = page.getByRole('status').filter({ hasText: 'Confirm your new email address' });
      await expect(banner).toContainText(newEmail);
      await banner.getByRole('button', { name: 'Resend Email' }).click();
      await expect(page.getByText(AUTH_TEXTS.verificationSent)).toBeVisible();
    });

    await test.step('opens the link and lands on the login screen with the banner', async () => {
      const mail = await mailbox.waitForMail(newEmail, 'Confirm your new email address');
      await page.goto(linkIn(mail));
      await expect(page).toHaveURL(/\/login\?email_change=success$/);
      await expect(page.getByText(AUTH_TEXTS.emailChangedBanner)).toBeVisible();
    });

    await page.goto('/user/settings');
    const [local = '', domain = ''] = newEmail.split('@');
    const masked = `${local[0]}${'*'.repeat(local.length - 2)}${local.at(-1)}@${domain[0]}${'*'.repeat(domain.length - 2)}${domain.at(-1)}`;
    await expect(page.getByRole('banner').getByText(masked)).toBeVisible();
    await expect(page.getByText('Confirm your new email address')).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });

  test('a customer turns 2FA on after a wrong code, then off again with a recovery code', async ({
    signedInPage: page,
    totp,
    consoleErrors,
  }) => {
    await page.goto('/user/settings?tab=2fa');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = (await page.getByLabel('Secret key').inputValue()).replace(/\s+/g, '');
    await page.getByRole('button', { name: 'Next' }).click();

    await digits(page).pressSequentially(wrongTotp(secret));
    await expect(page.getByRole('alert').filter({ hasText: AUTH_TEXTS.wrongToggleCode })).toBeVisible();
    await expect(digits(page)).toHaveValue('');

    await digits(page).pressSequentially(totp(secret));
    await expect(page.getByText(AUTH_TEXTS.twoFactorToggled)).toBeVisible();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recoveryCode = (await codes.first().textContent()) ?? '';
    await page.getByRole('button', { name: 'I have saved them' }).click();

    await page.getByRole('button', { name: 'Disable 2FA' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable two-factor authentication' });
    await dialog.getByRole('button', { name: 'Use a recovery code' }).click();
    await dialog.getByLabel('Recovery code').fill(recoveryCode);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(dialog).toBeHidden();
    // The toast of turning it on may still show beside this one.
    await expect(page.getByText(AUTH_TEXTS.twoFactorToggled).first()).toBeVisible();
    await expect(
      page.getByRole('heading', { name: 'Protect your account with an authenticator app' }),
    ).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('the old /walletWhitelist address opens the Wallet Whitelisting tab; at 768 px the tabs are an accordion', async ({
    signedInPage: page,
    consoleErrors,
  }) => {
    await page.goto('/walletWhitelist');
    await expect(page).toHaveURL(/\/user\/settings\?tab=wallet$/);
    await expect(page.getByRole('tab', { name: 'Wallet Whitelisting' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByRole('tab', { name: 'IP Whitelisting' }).click();
    await expect(page).toHaveURL(/\/user\/settings\?tab=ip$/);

    // At 768 px and below the tabs are an accordion.
    await page.setViewportSize({ width: 768, height: 900 });
    await expect(page.getByRole('tab')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'IP Whitelisting', exact: true })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await page.getByRole('button', { name: 'Password', exact: true }).click();
    await expect(page.getByLabel('Current Password')).toBeVisible();
    await expect(page).toHaveURL(/\/user\/settings\?tab=password$/);
    expect(consoleErrors).toEqual([]);
  });
});
