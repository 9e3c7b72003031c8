import { fileURLToPath } from 'node:url';
import { CLOSURE_TEXTS, ERROR_CODES } from '@florin/contracts';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders, solveCaptcha } from '../fixtures.js';
import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { closeToasts } from '../kyc/wizard-page.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

test.describe('the end of an account', () => {
  test('compliance gives a customer notice of termination, the customer sees it, cannot close while holding money, and closes the emptied account for good', async ({
    signedInPage: page,
    customer,
    complianceApi,
    newDevice,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    test.setTimeout(180_000);
    const userId = await makeCustomerLive(page, complianceApi);

    await test.step('compliance terminates the account with notice', async () => {
      const { page: office } = await newDevice();
      await signInStaff(office, await staffMember('compliance'));
      await office.goto(`/admin/customers/${userId}`);
      await office.getByRole('button', { name: 'Terminate account' }).click();
      const dialog = office.getByRole('dialog', { name: CLOSURE_TEXTS.terminateHeading });
      await dialog.getByRole('textbox').fill('Our risk appetite no longer covers this account.');
      await dialog.getByRole('button', { name: 'Give notice' }).click();
      await expect(office.getByRole('alert').filter({ hasText: CLOSURE_TEXTS.terminated })).toBeVisible();
      await expect(office.getByText(/^Withdraw-only from /)).toBeVisible();
      await expect(office.getByRole('button', { name: 'Terminate account' })).toHaveCount(0);
      await closeToasts(office);
      await office.screenshot({
        path: `${SCREENSHOT_DIR}admin-customer-terminated-1280.png`,
        fullPage: true,
      });
    });

    await test.step('the customer is told, in the shell and by e-mail', async () => {
      await page.goto('/user/accounts');
      const notice = page.getByRole('alert').filter({ hasText: 'Notice of termination' });
      await expect(notice).toContainText('We have given notice to end your account on');
      await expect(notice).toContainText('you can only withdraw your money and coins, until');
      await saveScreenshots('account-termination-notice');
    });

    await test.step('an account that still holds money cannot be closed', async () => {
      await fund(page.request, customer.email, 'GBP', '5.00');
      await page.getByRole('button', { name: CLOSURE_TEXTS.closeConfirm }).click();
      const dialog = page.getByRole('dialog', { name: CLOSURE_TEXTS.closeHeading });
      await dialog.getByRole('button', { name: CLOSURE_TEXTS.closeConfirm }).click();
      await expect(dialog.getByText('Enter your password.')).toBeVisible();
      await dialog.getByRole('textbox', { name: 'Password' }).fill(customer.password);
      await dialog.getByRole('button', { name: CLOSURE_TEXTS.closeConfirm }).click();
      await expect(dialog.getByRole('alert')).toContainText(CLOSURE_TEXTS.closeNotEmpty);
      // At 375 px the Account tabs become an accordion that mounts the tab afresh, dialog closed: one width here.
      await saveScreenshots('account-close-refused', [1280]);
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await expect(dialog).toBeHidden();
    });

    await test.step('emptied, the account closes; the login screen says so and refuses to sign in to it', async () => {
      // The money leaves as an adjustment back to the house (a bank withdrawal waits for finance to pay it).
      const back = await page.request.post('/dev/ledger/fund', {
        data: {
          email: customer.email,
          asset: 'GBP',
          amount: '5.00',
          key: `e2e-close-${Date.now()}`,
          direction: 'out',
        },
        headers: await csrfHeaders(page.request),
      });
      expect(back.ok(), await back.text()).toBe(true);
      await closeToasts(page);
      await page.getByRole('button', { name: CLOSURE_TEXTS.closeConfirm }).click();
      const dialog = page.getByRole('dialog', { name: CLOSURE_TEXTS.closeHeading });
      await dialog.getByRole('textbox', { name: 'Password' }).fill(customer.password);
      await dialog.getByRole('button', { name: CLOSURE_TEXTS.closeConfirm }).click();
      await expect(page).toHaveURL(/\/login\?account_closed=success$/);
      await expect(page.getByRole('status').filter({ hasText: CLOSURE_TEXTS.closed })).toBeVisible();
      await saveScreenshots('account-closed-login');
      const login = await page.request.post('/api/v1/login', {
        data: {
          username: customer.email,
          password: customer.password,
          altcha: await solveCaptcha(page.request),
        },
        headers: await csrfHeaders(page.request),
      });
      expect(login.status()).toBe(403);
      expect(((await login.json()) as { message: string }).message).toBe(ERROR_CODES.ACCOUNT_CLOSED.message);
    });
    expect(consoleErrors).toEqual([]);
  });
});
