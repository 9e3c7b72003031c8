import { ACCOUNT_TEXTS } from '@florin/contracts';
import { expect, test } from '../admin-fixtures.js';
import { makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { INDIVIDUAL_DETAILS } from '../kyc/customer-actions.js';
import { pdfFile } from '../kyc/files.js';
import { closeToasts, stepHeading } from '../kyc/wizard-page.js';

test.describe('a live customer changes their address or phone', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a new phone is saved at once; a new address warns first, then asks for a new proof of address before the page comes back', async ({
    signedInPage: page,
    complianceApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await page.goto('/user/accounts');
    await expect(page.getByRole('heading', { level: 1, name: ACCOUNT_TEXTS.pageTitle })).toBeVisible();

    // The phone alone: no new proof needed, so no warning.
    await page.getByRole('button', { name: ACCOUNT_TEXTS.changeDetails }).click();
    const dialog = page.getByRole('dialog', { name: ACCOUNT_TEXTS.changeDetailsTitle });
    await expect(dialog.getByLabel('Address', { exact: true })).toHaveValue(INDIVIDUAL_DETAILS.address);
    await dialog.getByLabel('Phone Number').fill('+44 20 7946 0999');
    await expect(dialog.getByText(ACCOUNT_TEXTS.addressChangeWarning)).toHaveCount(0);
    await dialog.getByRole('button', { name: ACCOUNT_TEXTS.saveDetails }).click();
    await expect(page.getByRole('alert').filter({ hasText: ACCOUNT_TEXTS.detailsSaved })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel(ACCOUNT_TEXTS.phone, { exact: true })).toHaveValue('+44 20 7946 0999');
    await closeToasts(page);

    // A bad post code is refused in the form, with the wizard's text, and nothing is sent.
    await page.getByRole('button', { name: ACCOUNT_TEXTS.changeDetails }).click();
    await dialog.getByLabel('Address', { exact: true }).fill('7 New Street');
    await dialog.getByLabel('Post Code').fill('');
    await expect(dialog.getByText(ACCOUNT_TEXTS.addressChangeWarning)).toBeVisible();
    await dialog.getByRole('button', { name: ACCOUNT_TEXTS.saveDetails }).click();
    await expect(dialog.getByLabel('Post Code')).toHaveAttribute('aria-invalid', 'true');
    // Turning the phone (375 px and back: the tabs become an accordion) keeps what was typed.
    await saveScreenshots('account-change-address');
    await expect(dialog.getByLabel('Address', { exact: true })).toHaveValue('7 New Street');

    // A new address: saved, then the proof of address is asked for before anything else.
    await dialog.getByLabel('Post Code').fill('SW1A 2AA');
    await dialog.getByRole('button', { name: ACCOUNT_TEXTS.saveDetails }).click();
    await expect(stepHeading(page, 'Proof of Address')).toBeVisible();
    await saveScreenshots('account-change-address-proof', [1280]);
    await page.getByLabel('Proof of address', { exact: true }).setInputFiles(pdfFile('new-bill.pdf'));
    // Handed in, the proof waits for staff; the customer is back on their page with the new address.
    await expect(page.getByRole('heading', { level: 1, name: ACCOUNT_TEXTS.pageTitle })).toBeVisible();
    await expect(page.getByLabel(ACCOUNT_TEXTS.address, { exact: true })).toHaveValue('7 New Street');
    await expect(page.getByLabel(ACCOUNT_TEXTS.postcode, { exact: true })).toHaveValue('SW1A 2AA');
    expect(consoleErrors).toEqual([]);
  });
});
