import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';
import {
  expect,
  passBankDetailsWait,
  saveScreenshotsOf,
  setGbpDepositDetails,
  test,
} from './fiat-fixtures.js';

const UNVERIFIED = 'Your bank account is not verified yet.';

test.describe('staff verify a bank account', () => {
  test.describe.configure({ timeout: 180_000 });

  test('finance opens the customer in the back office and verifies their bank account with a reason; the customer’s Withdraw tab no longer says the account is unverified', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    financeApi,
    staffMember,
    signInStaff,
    newDevice,
    saveScreenshots,
    consoleErrors,
  }) => {
    const userId = await makeCustomerLive(page, complianceApi);
    await setGbpDepositDetails(financeApi);
    await fund(api, customer.email, 'GBP', '200.00');
    const name = `${customer.firstName} ${customer.lastName}`;

    // The customer registers their bank account: until it is verified the Withdraw tab says so.
    await page.goto('/user/withdraw-deposit?deposit');
    const bankForm = page.getByRole('form', { name: 'Your GBP bank account' });
    await bankForm.getByLabel('Bank Name', { exact: true }).fill(name);
    await bankForm.getByLabel('Account Number or BIC Code').fill('55779911');
    await bankForm.getByLabel('Sort Code or IBAN').fill('60-16-13');
    await bankForm.getByRole('button', { name: 'Add Account' }).click();
    await expect(bankForm.getByRole('button', { name: 'Update Account' })).toBeVisible();
    await page.getByRole('tab', { name: 'Withdraw' }).click();
    const withdraw = page.getByRole('form', { name: 'Withdraw GBP' });
    await expect(withdraw).toContainText(UNVERIFIED);
    await expect(withdraw.getByRole('button', { name: 'Withdraw' })).toBeDisabled();

    // Finance finds the customer and opens their bank accounts.
    const { page: staffPage } = await newDevice();
    await signInStaff(staffPage, await staffMember('finance'));
    await staffPage
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Customers' })
      .click();
    await staffPage.getByLabel('Search customers').fill(customer.email);
    await staffPage.getByRole('button', { name: 'Search' }).click();
    // Earlier runs left other customers of the same name: the row with this e-mail is the one.
    await staffPage
      .getByRole('table', { name: 'Customers' })
      .getByRole('row')
      .filter({ hasText: customer.email })
      .getByRole('link', { name })
      .click();
    await expect(staffPage).toHaveURL(new RegExp(`/admin/customers/${userId}$`));
    await staffPage.getByRole('tab', { name: 'Bank accounts' }).click();

    const account = staffPage
      .getByRole('list', { name: 'Bank accounts' })
      .getByRole('listitem', { name: 'GBP bank account' });
    await expect(account).toContainText(`GBP · ${name}`);
    await expect(account.getByText('Not verified', { exact: true })).toBeVisible();
    await expect(account.getByText('Verification', { exact: true }).locator('..')).toContainText('Not yet');
    await expect(account).toContainText('60-16-13');
    await expect(account).toContainText('•••• 9911');
    await expect(account).not.toContainText('55779911');
    await expect(account.getByText('Withdrawals allowed from').locator('..')).toContainText('once verified');
    await saveScreenshotsOf(staffPage, 'admin-customer-bank-accounts');

    // The reason is required; then the account is verified by staff and the list follows.
    await account.getByRole('button', { name: 'Verify' }).click();
    const dialog = staffPage.getByRole('dialog', { name: 'Verify bank account' });
    await expect(dialog).toContainText(name);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(dialog.getByText('Please give the reason.')).toBeVisible();
    await saveScreenshotsOf(staffPage, 'admin-customer-bank-verify');
    await dialog
      .getByLabel('How you checked the account is theirs')
      .fill('Bank statement seen: the account is in the customer’s name.');
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(
      staffPage.getByRole('alert').filter({ hasText: 'The bank account is verified.' }),
    ).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(account.getByText('Verified', { exact: true })).toBeVisible();
    await expect(account.getByText('Verification', { exact: true }).locator('..')).toContainText(
      'By staff, by hand',
    );
    await expect(account.getByRole('button', { name: 'Verify' })).toHaveCount(0);
    await saveScreenshotsOf(staffPage, 'admin-customer-bank-verified');

    // The server agrees: verified, and by staff.
    const again = await financeApi.get(`/api/admin/fiat/customers/${userId}/bank-accounts`);
    const listed = ((await again.json()) as { data: { verified: boolean; verified_by: string | null }[] })
      .data;
    expect(listed).toEqual([expect.objectContaining({ verified: true, verified_by: 'staff' })]);

    // The customer's Withdraw tab no longer says the account is unverified; only the 24-hour wait remains.
    await page.reload();
    await expect(withdraw).toContainText('Your bank details changed recently');
    await expect(withdraw).not.toContainText(UNVERIFIED);
    await passBankDetailsWait(api, customer.email);
    await page.reload();
    await expect(page.getByTestId('withdraw-available')).toHaveText('£200.00');
    await expect(withdraw.getByRole('button', { name: 'Withdraw' })).toBeEnabled();
    await expect(withdraw).not.toContainText(UNVERIFIED);
    await expect(withdraw).not.toContainText('Your bank details changed recently');
    await saveScreenshots('wallets-withdraw-verified');

    // Finance's list shows no wait any more.
    await staffPage.reload();
    await expect(account.getByText('Withdrawals allowed from').locator('..')).toContainText('Now');
    expect(consoleErrors).toEqual([]);
  });
});
