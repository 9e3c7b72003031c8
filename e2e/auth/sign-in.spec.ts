import { AUTH_TEXTS } from '@florin/contracts';
import { test } from '../admin-fixtures.js';
import {
  csrfHeaders,
  enableTwoFactor,
  expect,
  holdRequests,
  submitLoginForm,
  wrongTotp,
} from '../fixtures.js';
import { currentUser } from '../kyc/customer-actions.js';
import { switchOnEmailCodes } from '../wallets/fiat-fixtures.js';

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

  test('a customer on e-mailed codes finishes signing in with the code that sign-in mailed them', async ({
    page,
    api,
    customer,
    signIn,
    complianceApi,
    mailbox,
    saveScreenshots,
    consoleErrors,
  }) => {
    // Support switches a customer who cannot use an authenticator app to e-mailed codes.
    await signIn(api, customer);
    await switchOnEmailCodes(complianceApi, (await currentUser(api)).id);

    await page.goto('/login');
    const since = new Date();
    await submitLoginForm(page, customer.email, customer.password);
    const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
    await expect(dialog).toContainText('We have e-mailed you a 6-digit code.');
    // A code from the mail is all there is: no recovery codes without an authenticator.
    await expect(dialog.getByRole('button', { name: 'Use a recovery code' })).toHaveCount(0);
    await saveScreenshots('login-emailed-code-modal');
    const mail = await mailbox.waitForMail(customer.email, 'Your sign-in code', { since });
    const code = /\bis (\d{6})\. It works once/.exec(mail.text)?.[1] ?? '';

    const release = await holdRequests(page, '**/api/v1/login-2fa');
    await dialog.getByRole('textbox', { name: 'E-mailed code, digit 1 of 6' }).pressSequentially(code);
    await expect(dialog.getByRole('status')).toHaveText('Checking the code…');
    release();
    await expect(page).toHaveURL(/\/user$/);
    expect(consoleErrors).toEqual([]);
  });

  test('a screen left open learns within a minute that its session ended, says so, and sign-in returns to it', async ({
    signedInPage: page,
    customer,
    saveScreenshots,
    consoleErrors,
  }) => {
    // The browser's own clock, so a minute passes at once; the server's stays real.
    await page.clock.install();
    await page.goto('/user/settings?tab=ip');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    // The session ends elsewhere (here: signed out through the API, as another tab would).
    const out = await page.request.post('/api/v1/logout', { headers: await csrfHeaders(page.request) });
    expect(out.ok(), await out.text()).toBe(true);

    // Nobody touches the page: its minute's check of the user finds the session gone.
    await page.clock.fastForward('01:05');
    await expect(page).toHaveURL(/\/login$/);
    await expect(
      page.getByRole('status').filter({ hasText: 'Your session has ended. Please sign in again.' }),
    ).toBeVisible();
    await saveScreenshots('login-session-ended');
    await submitLoginForm(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/user\/settings\?tab=ip$/);
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

  test('the form arrives drawn before its scripts, and what the visitor typed meanwhile signs them in', async ({
    page,
    customer,
    consoleErrors,
  }) => {
    // No scripts at all (a page of its own, as the refused scripts are console errors): the form is there to read
    // and fill, and Enter does not send it to the address bar, as Login waits for the scripts.
    const drawn = await page.context().newPage();
    await drawn.setViewportSize({ width: 375, height: 812 });
    await drawn.route('**/assets/*.js', (route) => route.abort());
    await drawn.goto('/login?user_verified=success');
    await expect(drawn).toHaveTitle('Log in · Florin');
    await expect(drawn.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    await expect(drawn.getByRole('region', { name: 'Risk warning' })).toBeVisible();
    await expect(drawn.getByRole('button', { name: 'Login' })).toBeDisabled();
    await expect(drawn.getByRole('status')).toHaveText('Loading the security check…');
    await drawn.getByLabel('User Name').fill(customer.email);
    await drawn.getByLabel('User Name').press('Enter');
    expect(new URL(drawn.url()).search).toBe('?user_verified=success');
    // The banner depends on the address, not on the page the build drew: it comes with the scripts.
    await expect(drawn.getByText(AUTH_TEXTS.verifySuccessBanner)).toHaveCount(0);
    // The site's root is the same login page, drawn the same way.
    await drawn.goto('/');
    await expect(drawn.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    await drawn.close();

    // With the scripts held back, the visitor starts typing; React adopts the drawn form without emptying it,
    // the captcha appears in the place kept for it (nothing below it moves), and the banner shows.
    await page.setViewportSize({ width: 375, height: 812 });
    const releaseScripts = await holdRequests(page, '**/assets/*.js');
    await page.goto('/login?user_verified=success', { waitUntil: 'commit' });
    const heading = page.getByRole('heading', { level: 1, name: 'Log in' });
    await heading.evaluate((element) => {
      (window as unknown as { drawnHeading: Element }).drawnHeading = element;
    });
    const login = page.getByRole('button', { name: 'Login' });
    const userName = page.getByLabel('User Name');
    const top = async (locator: typeof login) =>
      locator.evaluate((element) => element.getBoundingClientRect().top);
    const loginBelowUserName = (await top(login)) - (await top(userName));
    await userName.fill(customer.email);
    releaseScripts();
    await expect(page.getByText(AUTH_TEXTS.verifySuccessBanner)).toBeVisible();
    expect(
      await heading.evaluate(
        (element) => element === (window as unknown as { drawnHeading: Element }).drawnHeading,
      ),
    ).toBe(true);
    await expect(userName).toHaveValue(customer.email);
    await page.getByLabel('Password', { exact: true }).fill(customer.password);
    await expect(login).toBeEnabled({ timeout: 30_000 });
    await expect(page.getByText('Loading the security check…')).toHaveCount(0);
    expect((await top(login)) - (await top(userName))).toBe(loginBelowUserName);
    await login.click();
    await expect(page).toHaveURL(/\/user$/);
    expect(consoleErrors).toEqual([]);
  });

  test('a visitor who filled the form before the captcha arrived signs in without touching it again', async ({
    page,
    customer,
    consoleErrors,
  }) => {
    // The widget starts solving when the form gets the focus; here the focus came before the widget did.
    const releaseCaptcha = await holdRequests(page, '**/assets/altcha-*.js');
    await page.goto('/login');
    await expect(page.getByRole('status')).toHaveText('Loading the security check…');
    await page.getByLabel('User Name').fill(customer.email);
    await page.getByLabel('Password', { exact: true }).fill(customer.password);
    releaseCaptcha();
    await expect(page.getByText('Loading the security check…')).toHaveCount(0);
    const login = page.getByRole('button', { name: 'Login' });
    await expect(login).toBeEnabled({ timeout: 30_000 });
    await login.click();
    await expect(page).toHaveURL(/\/user$/);
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
