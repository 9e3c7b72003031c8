import { AUTH_TEXTS } from '@florin/contracts';
import { enableTwoFactor, expect, submitLoginForm, test, wrongTotp } from '../fixtures.js';

test.describe('signing in', () => {
  // The captcha's proof of work runs in the page; on a busy machine it takes well over a second.
  test.describe.configure({ timeout: 60_000 });

  test('a wrong password says Login Failed!, and the captcha must be solved again', async ({
    page,
    customer,
    consoleErrors,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forget Password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    await expect(page.getByRole('link', { name: 'Register Now!' })).toHaveAttribute('href', '/register');
    await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();

    await submitLoginForm(page, customer.email, 'Not-The-Password-1');
    const toast = page.getByRole('alert').filter({ hasText: AUTH_TEXTS.loginFailedTitle });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText(AUTH_TEXTS.invalidCredentials);
    // The spent captcha payload is gone until the widget solves a new one.
    await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();

    await submitLoginForm(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/user$/);
    expect(consoleErrors).toEqual([]);
  });

  test('a customer with 2FA who types a wrong code sees Wrong Passcode., then signs in with a recovery code', async ({
    page,
    api,
    customer,
    signIn,
    saveScreenshots,
    consoleErrors,
  }) => {
    await signIn(api, customer);
    const { secret, recoveryCodes } = await enableTwoFactor(api);

    await page.goto('/login');
    await submitLoginForm(page, customer.email, customer.password);
    const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
    await expect(dialog).toBeVisible();
    await saveScreenshots('login-2fa-modal');
    await dialog
      .getByRole('textbox', { name: 'Authentication code, digit 1 of 6' })
      .pressSequentially(wrongTotp(secret));
    // Spec 000 section 8: the status text as the title.
    const toast = page.getByRole('alert').filter({ hasText: AUTH_TEXTS.wrongPasscode });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Unprocessable Content');
    await expect(dialog.getByRole('textbox', { name: 'Authentication code, digit 1 of 6' })).toHaveValue('');

    await dialog.getByRole('button', { name: 'Use a recovery code' }).click();
    await dialog.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/user$/);
    expect(consoleErrors).toEqual([]);
  });

  test('the login screen shows the result banners the e-mailed links land with', async ({
    page,
    consoleErrors,
  }) => {
    const banners = [
      ['user_verified=success', AUTH_TEXTS.verifySuccessBanner],
      ['email_change=success', AUTH_TEXTS.emailChangedBanner],
      ['user_verified=error', AUTH_TEXTS.verifyErrorBanner],
      ['email_change=error', AUTH_TEXTS.emailTokenInvalidBanner],
    ] as const;
    for (const [query, text] of banners) {
      await page.goto(`/login?${query}`);
      await expect(page.getByText(text)).toBeVisible();
    }
    expect(consoleErrors).toEqual([]);
  });

  test('old addresses and signed-in pages send an anonymous visitor to the login screen', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/getfifo-upgrade');
    await expect(page).toHaveURL(/\/login$/);
    for (const address of ['/user', '/user/settings', '/walletWhitelist']) {
      await page.goto(address);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    }
    expect(consoleErrors).toEqual([]);
  });
});
