import { COMPLIANCE_TEXTS } from '@florin/contracts';
import { expect, test } from '../admin-fixtures.js';
import { enableTwoFactor } from '../fixtures.js';
import { currentUser } from '../kyc/customer-actions.js';
import { closeToasts } from '../kyc/wizard-page.js';

test.describe('the back office: customers', () => {
  test.describe.configure({ timeout: 120_000 });

  test('support finds a customer by reference, resets their 2FA after checking who they are, and signs them out everywhere', async ({
    page,
    customer,
    signIn,
    newDevice,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    const { page: customerPage } = await newDevice();
    await signIn(customerPage.request, customer);
    await enableTwoFactor(customerPage.request);
    const { id: userId, user_identification: reference } = await currentUser(customerPage.request);
    const name = `${customer.firstName} ${customer.lastName}`;

    await signInStaff(page, await staffMember('support'));
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Customers' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
    await page.getByLabel('Search customers').fill(reference.toLowerCase());
    await page.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('table', { name: 'Customers' });
    await expect(results.getByRole('row')).toHaveCount(2);
    await expect(results).toContainText(customer.email);
    await saveScreenshots('admin-customers-search');

    await results.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/customers/${userId}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText('Authenticator (2FA)').locator('..')).toContainText('On');
    await saveScreenshots('admin-customer-profile');

    await page.getByRole('tab', { name: 'Sessions' }).click();
    await expect(page.getByRole('table', { name: 'Active sessions' }).getByRole('row')).toHaveCount(2);
    await page.getByRole('tab', { name: 'Balances' }).click();
    await expect(page.getByText('No money has moved for this customer yet.')).toBeVisible();
    await page.getByRole('tab', { name: 'Verification' }).click();
    await expect(page.getByText('Identity documents')).toBeVisible();
    await saveScreenshots('admin-customer-verification');

    // Reset 2FA: the reason (how they were identified) is required.
    await page.getByRole('button', { name: 'Reset 2FA' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset two-factor authentication' });
    await reset.getByRole('button', { name: 'Reset 2FA' }).click();
    await expect(reset.getByText(COMPLIANCE_TEXTS.reasonRequired)).toBeVisible();
    await reset
      .getByLabel('How you confirmed who is asking')
      .fill('Video call, passport matched; lost phone.');
    await reset.getByRole('button', { name: 'Reset 2FA' }).click();
    await expect(reset).toBeHidden();
    await expect(page.getByRole('button', { name: 'Reset 2FA' })).toHaveCount(0);
    await expect(page.getByText('Withdrawals paused')).toBeVisible();
    await page.getByRole('tab', { name: 'Profile' }).click();
    await expect(page.getByText('Authenticator (2FA)').locator('..')).toContainText('Off');
    await closeToasts(page);
    await saveScreenshots('admin-customer-2fa-reset');

    // The reset ended the customer's session.
    await customerPage.goto('/user/settings');
    await expect(customerPage).toHaveURL(/\/login/);

    // Signed in again (without 2FA now), then signed out by support.
    await signIn(customerPage.request, customer);
    await customerPage.goto('/user/settings');
    await expect(customerPage).toHaveURL(/\/user\/settings/);
    await page.getByRole('button', { name: 'Force sign-out' }).click();
    const signOut = page.getByRole('dialog', { name: 'Force sign-out' });
    await signOut.getByLabel('Reason').fill('Customer reports a stolen laptop.');
    await signOut.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(signOut).toBeHidden();
    await page.getByRole('tab', { name: 'Sessions' }).click();
    await expect(page.getByText('No session is open.')).toBeVisible();
    await customerPage.reload();
    await expect(customerPage).toHaveURL(/\/login/);
    expect(consoleErrors).toEqual([]);
  });

  test('finance reads a customer but has no actions', async ({
    page,
    customer,
    signIn,
    newDevice,
    staffMember,
    signInStaff,
    consoleErrors,
  }) => {
    const { page: customerPage } = await newDevice();
    await signIn(customerPage.request, customer);
    const { id: userId } = await currentUser(customerPage.request);

    await signInStaff(page, await staffMember('finance'));
    await page.goto(`/admin/customers/${userId}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `${customer.firstName} ${customer.lastName}` }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Force sign-out' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit name or date of birth' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByText('No ledger entries yet.')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});
