import { currentUser } from '../kyc/customer-actions.js';
import { makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { putOnHold } from '../kyc/staff-actions.js';
import {
  expect,
  HOUSE_GBP,
  saveScreenshotsOf,
  setGbpDepositDetails,
  statementCsv,
  test,
  uniqueTransactionId,
} from './fiat-fixtures.js';

test.describe('fiat deposits by bank transfer', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a live customer registers their bank account and sees where to send money with their reference; finance imports a statement with their transfer and an unmatched line, twice, and the balance rises once', async ({
    signedInPage: page,
    customer,
    complianceApi,
    financeApi,
    staffMember,
    signInStaff,
    newDevice,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await setGbpDepositDetails(financeApi);
    const { user_identification: reference } = await currentUser(page.request);

    // From the dashboard's GBP row: the deposit tab opens on GBP.
    await page.goto('/user');
    await page.getByRole('link', { name: 'Deposit GBP' }).click();
    await expect(page).toHaveURL(/\/user\/withdraw-deposit\?deposit$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Deposit / Withdraw' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Deposit' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('combobox', { name: 'Asset' })).toHaveValue('GBP');

    const details = page.getByRole('region', { name: 'Deposit GBP by bank transfer' });
    await expect(details.getByLabel('Account Name', { exact: true })).toHaveText(HOUSE_GBP.account_name);
    await expect(details.getByLabel('Account Number', { exact: true })).toHaveText(HOUSE_GBP.account_number);
    await expect(details.getByLabel('Sort Code', { exact: true })).toHaveText(HOUSE_GBP.sort_code);
    await expect(details.getByLabel('Bank', { exact: true })).toHaveText(HOUSE_GBP.bank_name);
    await expect(details.getByLabel('Reference', { exact: true })).toHaveText(reference);
    await expect(details.getByRole('button', { name: 'Copy Reference' })).toBeVisible();
    await expect(details).toContainText('Deposits must come from a bank account in your own name.');

    // The bank account form: formats are checked before anything is sent.
    const bankForm = page.getByRole('form', { name: 'Your GBP bank account' });
    await expect(bankForm).toContainText('You need to register your Bank Account');
    await bankForm
      .getByLabel('Bank Name', { exact: true })
      .fill(`${customer.firstName} ${customer.lastName}`);
    await bankForm.getByLabel('Account Number or BIC Code').fill('1234');
    await bankForm.getByLabel('Sort Code or IBAN').fill('12-34');
    await bankForm.getByRole('button', { name: 'Add Account' }).click();
    await expect(bankForm.getByText('The account number must be 8 digits.')).toBeVisible();
    await expect(bankForm.getByText('The sort code must be 6 digits, e.g. 12-34-56.')).toBeVisible();
    await saveScreenshots('wallets-bank-form-errors');

    await bankForm.getByLabel('Account Number or BIC Code').fill('12345678');
    await bankForm.getByLabel('Sort Code or IBAN').fill('12-34-56');
    await bankForm.getByRole('button', { name: 'Add Account' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Bank Account Added.' })).toBeVisible();
    await expect(bankForm.getByRole('button', { name: 'Update Account' })).toBeVisible();
    await expect(bankForm.getByText('Not verified yet', { exact: true })).toBeVisible();
    await saveScreenshots('wallets-deposit-gbp');

    // Withdraw: GBP is listed now, but the account is neither verified nor 24 hours old.
    await page.getByRole('tab', { name: 'Withdraw' }).click();
    await expect(page).toHaveURL(/\?withdraw$/);
    const withdraw = page.getByRole('form', { name: 'Withdraw GBP' });
    await expect(withdraw.getByLabel('Bank account name', { exact: true })).toHaveText(
      `${customer.firstName} ${customer.lastName}`,
    );
    await expect(withdraw).toContainText('Your bank account is not verified yet.');
    await expect(withdraw.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
    await expect(page.getByTestId('withdraw-available')).toHaveText('£0.00');

    // Finance imports the day's statement: the customer's transfer and one nobody's reference names.
    const ownTransfer = uniqueTransactionId('own');
    const strangerTransfer = uniqueTransactionId('stranger');
    const csv = statementCsv([
      {
        date: '2026-11-23',
        amount: '250.00',
        reference: reference,
        payer: `${customer.firstName.toUpperCase()} ${customer.lastName.toUpperCase()}`,
        transactionId: ownTransfer,
        // From the account the customer registered above: the money verifies it (decision 132).
        sortCode: '12-34-56',
        accountNumber: '12345678',
      },
      {
        date: '2026-11-23',
        amount: '42.10',
        reference: 'INVOICE 7781',
        payer: 'Q. Stranger',
        transactionId: strangerTransfer,
      },
    ]);
    const finance = await staffMember('finance');
    const { page: staffPage } = await newDevice();
    await signInStaff(staffPage, finance);
    await staffPage.getByRole('link', { name: 'Bank transfers' }).first().click();
    await expect(staffPage.getByRole('heading', { level: 1, name: 'Bank transfers' })).toBeVisible();
    const importForm = staffPage.getByRole('form', { name: 'Import a bank statement' });
    const file = { name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) };
    await importForm.locator('input[type="file"]').setInputFiles(file);
    await importForm.getByRole('button', { name: 'Import statement' }).click();
    const result = importForm.getByRole('status', { name: 'Import result' });
    await expect(result.getByText('1 credited')).toBeVisible();
    await expect(result.getByText('1 in suspense')).toBeVisible();
    const suspense = staffPage.getByRole('list', { name: 'Transfers in suspense' });
    const strangerEntry = suspense.getByRole('listitem', { name: '42.10 GBP from Q. Stranger' });
    await expect(strangerEntry).toContainText('No customer has this reference');
    await saveScreenshotsOf(staffPage, 'admin-bank-transfers-imported');

    // The customer's screen follows over the stream: credited once.
    await expect(page.getByTestId('withdraw-available')).toHaveText('£250.00', { timeout: 15_000 });
    const activity = page.getByRole('list', { name: 'GBP activity' });
    await expect(activity.getByRole('listitem')).toHaveCount(1);
    await expect(activity.getByRole('listitem').first()).toContainText('+250.00 GBP');

    // The same file again credits nothing.
    await importForm.locator('input[type="file"]').setInputFiles(file);
    await importForm.getByRole('button', { name: 'Import statement' }).click();
    await expect(result.getByText('2 already imported')).toBeVisible();
    await expect(result.getByText('0 credited')).toBeVisible();

    // The stranger's money goes back.
    await strangerEntry.getByRole('button', { name: 'Return' }).click();
    const returnDialog = staffPage.getByRole('dialog', { name: 'Return the transfer' });
    await returnDialog.getByLabel('Reason').fill('No customer of ours: sent back to the payer’s bank.');
    await returnDialog.getByRole('button', { name: 'Mark as returned' }).click();
    await expect(strangerEntry).toHaveCount(0);

    // A deposit in the customer's name from the registered bank verified the account.
    await page.reload();
    await expect(page.getByTestId('withdraw-available')).toHaveText('£250.00');
    await expect(activity.getByRole('listitem')).toHaveCount(1);
    await expect(withdraw).not.toContainText('Your bank account is not verified yet.');
    await expect(withdraw).toContainText('Your bank details changed recently');
    await expect(withdraw.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
    await saveScreenshots('wallets-withdraw-waiting');

    await page.goto('/user');
    await expect(page.getByRole('table', { name: 'Assets' }).getByTestId('balance-GBP')).toHaveText(
      '250.00 GBP',
    );
    expect(consoleErrors).toEqual([]);
  });

  test('a customer on hold is told why they cannot deposit, and is not given where to send money', async ({
    signedInPage: page,
    complianceApi,
    financeApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    const id = await makeCustomerLive(page, complianceApi);
    await setGbpDepositDetails(financeApi);
    await putOnHold(complianceApi, id, 'Checking a payment.');
    const { user_identification: reference } = await currentUser(page.request);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/bank-account/deposit')) asked.push(request.url());
    });

    await page.goto('/user/withdraw-deposit?deposit');
    await expect(page.getByRole('alert').filter({ hasText: 'Your account is not live!' })).toBeVisible();
    await expect(
      page.getByText('Our bank details and your payment reference show here once your account is live.'),
    ).toBeVisible();
    await expect(page.getByText(HOUSE_GBP.account_number)).toHaveCount(0);
    await expect(page.getByText(reference)).toHaveCount(0);
    expect(asked).toEqual([]);
    await saveScreenshots('wallets-deposit-on-hold');
    expect(consoleErrors).toEqual([]);
  });
});
