import { AUTH_TEXTS } from '@florin/contracts';
import { expect, linkIn, submitLoginForm, test, uniqueEmail } from '../fixtures.js';

test.describe('registration and e-mail verification', () => {
  // The captcha's proof of work runs in the page; on a busy machine it takes well over a second.
  test.describe.configure({ timeout: 60_000 });

  test('a visitor who mistypes the registration form is told what to fix', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/register');
    await page.getByLabel('First Name').fill('Alan');
    await page.getByLabel('Last Name').fill('Turing');
    await page.getByLabel('Email').fill(uniqueEmail('typo'));
    await page.getByLabel('Password', { exact: true }).fill('Enigma-Bombe-Hut-8');
    await page.getByLabel('Confirm Password').fill('Enigma-Bombe-Hut-9');
    await page.getByRole('button', { name: 'Register' }).click();

    await expect(page.getByText(AUTH_TEXTS.passwordMismatch)).toBeVisible();
    await expect(page.getByText(AUTH_TEXTS.acceptTerms)).toBeVisible();
    await expect(page.getByLabel('Confirm Password')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('checkbox', { name: /I accept the Terms/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await expect(page.getByRole('main').getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(consoleErrors).toEqual([]);
  });

  test('a too common password is refused by the server, with the field marked', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/register');
    await page.getByLabel('First Name').fill('Alan');
    await page.getByLabel('Last Name').fill('Turing');
    await page.getByLabel('Email').fill(uniqueEmail('common'));
    await page.getByLabel('Password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm Password').fill('password123');
    await page.getByRole('checkbox', { name: /I accept the Terms/ }).check();
    await page.getByRole('button', { name: 'Register' }).click();

    // Spec 002 section 8: the server's message as the toast's title, the field errors line by line.
    const toast = page.getByRole('alert').filter({ hasText: AUTH_TEXTS.passwordTooCommon });
    await expect(toast.first()).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    expect(consoleErrors).toEqual([]);
  });

  test('a customer who signs in before verifying is told so, gets the link again and verifies once', async ({
    page,
    signUp,
    mailbox,
    saveScreenshots,
    consoleErrors,
  }) => {
    const customer = await signUp({ verify: false });

    await page.goto('/login');
    await submitLoginForm(page, customer.email, customer.password);
    const notice = page.getByRole('alert').filter({ hasText: AUTH_TEXTS.emailNotVerifiedTitle });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(AUTH_TEXTS.emailNotVerified);

    const since = new Date();
    await notice.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(page.getByText(AUTH_TEXTS.verificationSent)).toBeVisible();
    const link = linkIn(await mailbox.waitForMail(customer.email, 'Verify your email address', { since }));

    // Florin out of reach: the link is not called invalid, and Try again verifies with it.
    await page.route('**/api/v1/user-verify/**', (route) => route.abort('connectionrefused'));
    await page.goto(link);
    await expect(page.getByRole('alert')).toContainText(
      'Your link still works: please try again in a moment.',
    );
    await saveScreenshots('verify-email-unreachable');
    await page.unroute('**/api/v1/user-verify/**');
    await page.getByRole('button', { name: 'Try again' }).click();
    // The toast first: it closes by itself after 3 seconds.
    await expect(page.getByRole('alert').filter({ hasText: 'Success' })).toBeVisible();
    await expect(page).toHaveURL(/\/login\?user_verified=success$/);
    await expect(page.getByRole('status').filter({ hasText: AUTH_TEXTS.verifySuccessBanner })).toBeVisible();

    // The same link again: the token is spent.
    await page.goto(link);
    // The toast with the server's words, and the banner of the login screen (the same sentence).
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid Token' })).toBeVisible();
    await expect(page).toHaveURL(/\/login\?user_verified=error$/);
    await expect(page.getByRole('status').filter({ hasText: AUTH_TEXTS.verifyErrorBanner })).toBeVisible();
    // The refused connection above is the browser's own report of what the test did.
    expect(consoleErrors.filter((error) => !error.includes('/api/v1/user-verify/'))).toEqual([]);
  });
});
