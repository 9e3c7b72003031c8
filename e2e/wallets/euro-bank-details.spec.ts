import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { expect, saveScreenshotsOf, test } from './fiat-fixtures.js';

const HOUSE_EUR = { company: 'Florin Ltd', iban: 'GB33BUKB20201555555555', bic: 'BUKBGB22' } as const;

test.describe('euro deposit details', () => {
  test.describe.configure({ timeout: 180_000 });

  test('finance sets the euro deposit details in the back office; a customer holding euros sees them and registers their own account by IBAN and BIC, a mistyped IBAN refused', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    staffMember,
    signInStaff,
    newDevice,
    saveScreenshots,
    consoleErrors,
  }) => {
    const finance = await staffMember('finance');
    const { page: staffPage } = await newDevice();
    await signInStaff(staffPage, finance);
    await staffPage.getByRole('link', { name: 'Deposit details' }).first().click();
    const eur = staffPage.getByRole('form', { name: 'EUR' });
    await eur.getByLabel('Company name').fill(HOUSE_EUR.company);
    await eur.getByLabel('IBAN').fill(HOUSE_EUR.iban);
    await eur.getByLabel('BIC').fill(HOUSE_EUR.bic);
    await eur.getByRole('button', { name: 'Save EUR details' }).click();
    await expect(staffPage.getByRole('alert').filter({ hasText: 'Deposit details saved.' })).toBeVisible();
    await saveScreenshotsOf(staffPage, 'admin-deposit-details');

    await makeCustomerLive(page, complianceApi);
    await fund(api, customer.email, 'EUR', '10.00');
    // Withdrawing euros without a euro account: one warning, whose button opens the euro account's form.
    await page.goto('/user/withdraw-deposit?withdraw');
    await page.getByRole('combobox', { name: 'Asset' }).click();
    await page.getByRole('option', { name: 'EUR' }).click();
    const warning = page.getByRole('alert').filter({ hasText: 'Register Bank Details!' });
    await expect(warning).toHaveCount(1);
    await warning.getByRole('button', { name: 'Register a bank account' }).click();
    await expect(page).toHaveURL(/\?deposit$/);
    await expect(page.getByRole('combobox', { name: 'Asset' })).toHaveValue('EUR');
    const details = page.getByRole('region', { name: 'Deposit EUR by bank transfer' });
    await expect(details.getByLabel('Company Name', { exact: true })).toHaveText(HOUSE_EUR.company);
    await expect(details.getByLabel('IBAN', { exact: true })).toHaveText(HOUSE_EUR.iban);
    await expect(details.getByLabel('BIC', { exact: true })).toHaveText(HOUSE_EUR.bic);

    const bankForm = page.getByRole('form', { name: 'Your EUR bank account' });
    await bankForm
      .getByLabel('Bank Name', { exact: true })
      .fill(`${customer.firstName} ${customer.lastName}`);
    await bankForm.getByLabel('Account Number or BIC Code').fill('DEUT');
    await bankForm.getByLabel('Sort Code or IBAN').fill('DE89 3704 0044 0532 0130 01');
    await bankForm.getByRole('button', { name: 'Add Account' }).click();
    await expect(bankForm.getByText('This IBAN is not valid: please check it.')).toBeVisible();
    await expect(
      bankForm.getByText('Enter the BIC: 8 or 11 letters and digits, e.g. DEUTDEFF.'),
    ).toBeVisible();
    await saveScreenshots('wallets-deposit-eur-errors');

    await bankForm.getByLabel('Account Number or BIC Code').fill('DEUTDEFF');
    await bankForm.getByLabel('Sort Code or IBAN').fill('DE89 3704 0044 0532 0130 00');
    await bankForm.getByRole('button', { name: 'Add Account' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Bank Account Added.' })).toBeVisible();
    await expect(bankForm.getByLabel('Sort Code or IBAN')).toHaveValue('DE89370400440532013000');

    // Withdraw keeps EUR chosen: the account is there, but new.
    await page.getByRole('tab', { name: 'Withdraw' }).click();
    await expect(page.getByRole('combobox', { name: 'Asset' })).toHaveValue('EUR');
    const withdraw = page.getByRole('form', { name: 'Withdraw EUR' });
    await expect(withdraw).toContainText('Account ending 3000');
    await expect(withdraw.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
    // A euro account is a bank account: no warning to register one (spec 001 section 2).
    await expect(page.getByRole('alert').filter({ hasText: 'Register Bank Details!' })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
