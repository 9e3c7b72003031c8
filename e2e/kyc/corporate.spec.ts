import { KYC_TEXTS } from '@florin/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { currentUser, submitCompanyWithDocuments } from './customer-actions.js';
import { pdfFile, pngFile } from './files.js';
import { closeToasts, expectProgress, stepHeading, toast } from './wizard-page.js';
import { approveAllDocuments, makeLive } from './staff-actions.js';

type Person = {
  firstName: string;
  lastName: string;
  shareHolding: string;
  isOwner: boolean;
  isDirector: boolean;
};

async function fillInformation(page: Page, person: Person) {
  const modal = page.getByRole('dialog');
  if (person.isOwner) await modal.getByLabel('Owner').check();
  if (person.isDirector) await modal.getByLabel('Director', { exact: true }).check();
  await modal.getByLabel('First Name').fill(person.firstName);
  await modal.getByLabel('Last Name').fill(person.lastName);
  await modal.getByLabel('Shareholding %').fill(person.shareHolding);
  await modal.getByLabel('Phone Number').fill('+44 20 7946 0000');
  await modal.getByLabel('Address', { exact: true }).fill('1 Finsbury Avenue');
  await modal.getByLabel('City').fill('London');
  await modal.getByLabel('Post Code').fill('EC2M 2PP');
  const birthdate = modal.getByLabel('Date of Birth');
  await birthdate.fill('03/09/1978');
  // Tab, not Escape: Escape would close the modal itself.
  await birthdate.press('Tab');
  await expect(birthdate).toHaveValue('03/09/1978');
}

test.describe('identity verification of a Corporate customer', () => {
  test.describe.configure({ timeout: 150_000 });

  test('declares the company, its documents and two directors with theirs, then the source of wealth and the account type; approved and live, gets the full navigation', async ({
    signedInPage: page,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await page.getByRole('button', { name: 'Start Account Verification' }).click();
    await page.getByRole('button', { name: /^Corporate/ }).click();

    // Step 3: company details.
    await expect(stepHeading(page, 'Corporate Details')).toBeVisible();
    await expectProgress(page, 25);
    await page.getByRole('button', { name: 'Next' }).click();
    const missing = toast(page, KYC_TEXTS.informationMissingTitle);
    await expect(missing).toContainText(KYC_TEXTS.nameRequired);
    await expect(missing).toContainText(KYC_TEXTS.addressRequired);
    await page.getByLabel('Company Name').fill('Lantern Analytics Ltd');
    await page.getByLabel('Company Number').fill(`0${String(Date.now()).slice(-7)}`);
    await page.getByLabel('Registered Address').fill('20 Farringdon Road');
    await page.getByLabel('City').fill('London');
    await page.getByLabel('Post Code').fill('EC1M 3HE');
    await closeToasts(page);
    await saveScreenshots('kyc-corporate-3-details');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 4: the three company documents; Next once all three are in.
    await expect(stepHeading(page, 'Corporate KYC Documents')).toBeVisible();
    await expectProgress(page, 37.5);
    await page
      .getByLabel('Certificate of Incorporation', { exact: true })
      .setInputFiles(pdfFile('coi.pdf', 'Certificate'));
    await page
      .getByLabel('Articles of Association', { exact: true })
      .setInputFiles(pdfFile('aoa.pdf', 'Articles'));
    await expect(page.getByText('2 of 3 uploaded.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0);
    await page
      .getByLabel('Corporate Proof of Address', { exact: true })
      .setInputFiles(pngFile('bank.png', 170));
    await expect(page.getByText('3 of 3 uploaded.')).toBeVisible();
    await closeToasts(page);
    await saveScreenshots('kyc-corporate-4-documents');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 5: directors and owners.
    await expect(stepHeading(page, 'Directors and Owners')).toBeVisible();
    await expectProgress(page, 65);
    await expect(page.getByText(KYC_TEXTS.ownersStatement)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Add New' }).click();
    const modal = page.getByRole('dialog');
    await expect(modal.getByRole('tab', { name: 'Documents' })).toBeDisabled();
    await modal.getByLabel('First Name').fill('Nobody');
    await modal.getByRole('button', { name: 'Add' }).click();
    await expect(toast(page, KYC_TEXTS.missingSelectionTitle)).toContainText(KYC_TEXTS.missingSelection);

    // The owner with 30%: a passport and a proof of address.
    await fillInformation(page, {
      firstName: 'Grace',
      lastName: 'Hopper',
      shareHolding: '30',
      isOwner: true,
      isDirector: false,
    });
    await closeToasts(page);
    await saveScreenshots('kyc-corporate-5-director-information');
    await modal.getByRole('button', { name: 'Add' }).click();
    await expect(modal.getByRole('tab', { name: 'Documents' })).toHaveAttribute('aria-selected', 'true');
    await modal
      .getByLabel('Passport photo page', { exact: true })
      .setInputFiles(pngFile('grace-passport.png', 190));
    await expect(modal.getByText('Identity: done')).toBeVisible();
    await modal
      .getByLabel('Director proof of address', { exact: true })
      .setInputFiles(pdfFile('grace-bill.pdf'));
    const success = page.getByRole('dialog', { name: 'Documents uploaded' });
    await expect(success).toContainText('Grace Hopper');
    await closeToasts(page);
    await saveScreenshots('kyc-corporate-5-director-done');
    await success.getByRole('button', { name: 'OK' }).click();

    // The modal starts again on an empty Information tab: the director only, with a driver licence.
    const information = page.getByRole('dialog', { name: 'Add director or owner' });
    await expect(information.getByRole('tab', { name: 'Information' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(information.getByLabel('First Name')).toHaveValue('');
    await fillInformation(page, {
      firstName: 'Alan',
      lastName: 'Turing',
      shareHolding: '0',
      isOwner: false,
      isDirector: true,
    });
    await information.getByRole('button', { name: 'Add' }).click();
    const alan = page.getByRole('dialog', { name: 'Alan Turing' });
    await alan
      .locator('label')
      .filter({ hasText: /^Driver License$/ })
      .click();
    await alan
      .getByLabel('Driver License front', { exact: true })
      .setInputFiles(pngFile('alan-front.png', 200));
    await alan
      .getByLabel('Driver License back', { exact: true })
      .setInputFiles(pngFile('alan-back.png', 110));
    await expect(alan.getByText('Identity: done')).toBeVisible();
    await closeToasts(page);
    await saveScreenshots('kyc-corporate-5-director-documents');
    await alan
      .getByLabel('Director proof of address', { exact: true })
      .setInputFiles(pngFile('alan-bill.png', 160));
    await page
      .getByRole('dialog', { name: 'Documents uploaded' })
      .getByRole('button', { name: 'OK' })
      .click();
    await page
      .getByRole('dialog', { name: 'Add director or owner' })
      .getByRole('button', { name: 'Close' })
      .click();

    const table = page.getByRole('table', { name: 'Directors and owners' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row', { name: /Grace Hopper/ })).toContainText('30.00');
    await expect(page.getByRole('button', { name: 'Next' })).toBeVisible();

    // A third person without documents hides Next; deleting them asks first and brings it back.
    await page.getByRole('button', { name: 'Add New' }).click();
    await fillInformation(page, {
      firstName: 'Mistaken',
      lastName: 'Entry',
      shareHolding: '5',
      isOwner: true,
      isDirector: false,
    });
    await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
    await page.getByRole('dialog', { name: 'Mistaken Entry' }).getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Delete Mistaken Entry' }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await expect(confirm).toContainText(KYC_TEXTS.deleteDirectorConfirm);
    await closeToasts(page);
    await saveScreenshots('kyc-corporate-5-delete');
    await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(table.getByRole('row')).toHaveCount(3);
    await closeToasts(page);
    await saveScreenshots('kyc-corporate-5-directors');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 6: the wealth screen, then the account type.
    await expect(stepHeading(page, 'Source of Wealth')).toBeVisible();
    await expectProgress(page, 85);
    await page.getByRole('button', { name: 'Next' }).click();
    await page
      .getByRole('radiogroup', { name: /crypto-assets are high risk/ })
      .getByRole('radio', { name: 'Yes' })
      .check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expectProgress(page, 95);
    await page.getByRole('button', { name: /^Instant/ }).click();
    const complete = page.getByRole('dialog', { name: KYC_TEXTS.verificationCompleteTitle });
    await complete.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('tab', { name: 'Get Started' })).toBeDisabled();

    // Staff approve the company's and both directors' documents and make the account live.
    const { id: userId } = await currentUser(page.request);
    await approveAllDocuments(staff, userId);
    await makeLive(staff, userId);
    await page.reload();
    const navigation = page.getByRole('banner').getByRole('navigation');
    await expect(navigation.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Getting Started' })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('a holder of more than 25% must be ticked Owner, and owners alone do not pass the step until someone is a director', async ({
    signedInPage: page,
    saveScreenshots,
    consoleErrors,
  }) => {
    await submitCompanyWithDocuments(page.request);
    await page.reload();
    await expect(stepHeading(page, 'Directors and Owners')).toBeVisible();
    await expectProgress(page, 65);

    // 30% as a director only: refused under the shareholding, with the usual toast.
    await page.getByRole('button', { name: 'Add New' }).click();
    const modal = page.getByRole('dialog', { name: 'Add director or owner' });
    await fillInformation(page, {
      firstName: 'Ada',
      lastName: 'Byron',
      shareHolding: '30',
      isOwner: false,
      isDirector: true,
    });
    await modal.getByRole('button', { name: 'Add' }).click();
    await expect(modal.getByText(KYC_TEXTS.ownerRequired)).toBeVisible();
    await expect(toast(page, KYC_TEXTS.directorFailedTitle)).toContainText(KYC_TEXTS.ownerRequired);
    // One width: turning the page could remount the director form.
    await saveScreenshots('kyc-corporate-owner-required', [1280]);
    await expect(modal.getByRole('tab', { name: 'Documents' })).toBeDisabled();

    // Declared an owner only instead, with both documents.
    await modal.getByLabel('Director', { exact: true }).uncheck();
    await modal.getByLabel('Owner').check();
    await modal.getByRole('button', { name: 'Add' }).click();
    const ada = page.getByRole('dialog', { name: 'Ada Byron' });
    await expect(ada.getByRole('tab', { name: 'Documents' })).toHaveAttribute('aria-selected', 'true');
    await ada
      .getByLabel('Passport photo page', { exact: true })
      .setInputFiles(pngFile('ada-passport.png', 190));
    await expect(ada.getByText('Identity: done')).toBeVisible();
    await ada.getByLabel('Director proof of address', { exact: true }).setInputFiles(pdfFile('ada-bill.pdf'));
    await page
      .getByRole('dialog', { name: 'Documents uploaded' })
      .getByRole('button', { name: 'OK' })
      .click();
    await modal.getByRole('button', { name: 'Close' }).click();

    // Everyone has their documents, but nobody runs the company: the step says why it cannot go on.
    const table = page.getByRole('table', { name: 'Directors and owners' });
    await expect(table.getByRole('row', { name: /Ada Byron/ })).toContainText('30.00');
    await expect(page.getByText(KYC_TEXTS.directorRequired)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0);
    await saveScreenshots('kyc-corporate-director-required');

    // Ticking Director for her too lets the company go on.
    await page.getByRole('button', { name: 'Edit Ada Byron' }).click();
    const edit = page.getByRole('dialog', { name: 'Ada Byron' });
    await edit.getByLabel('Director', { exact: true }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(KYC_TEXTS.directorRequired)).toHaveCount(0);
    await edit.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('button', { name: 'Next' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});
