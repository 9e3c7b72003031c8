import { KYC_TEXTS } from '@florin/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import {
  answerSourceOfWealth,
  chooseAccountType,
  currentUser,
  finishIndividualVerification,
  saveDetails,
  submitIndividualDocuments,
} from './customer-actions.js';
import { fund, makeCustomerLive, tradeElsewhere } from '../dashboard/dashboard-actions.js';
import { gifFile, pdfFile, pngFile } from './files.js';
import { answerWealthQuestions, closeToasts, expectProgress, stepHeading, toast } from './wizard-page.js';
import {
  approveAllDocuments,
  declineDocument,
  makeLive,
  putOnHold,
  resetSourceOfWealth,
} from './staff-actions.js';

async function chooseFile(page: Page, button: string, file: ReturnType<typeof pngFile>) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(file);
}

async function pickIdType(page: Page, label: string) {
  await page
    .getByRole('radiogroup', { name: 'Identity document type' })
    .locator('label')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .click();
}

test.describe('identity verification of an Individual customer', () => {
  test.describe.configure({ timeout: 120_000 });

  test('goes through every step, answers the reduced source-of-wealth form, chooses Instant and waits for review', async ({
    signedInPage: page,
    saveScreenshots,
    consoleErrors,
  }) => {
    await expect(page.getByRole('heading', { level: 1, name: 'Getting Started' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Get Started' })).toHaveAttribute('aria-selected', 'true');
    await expectProgress(page, 0);
    await closeToasts(page);
    await saveScreenshots('kyc-individual-1-intro');
    await page.getByRole('button', { name: 'Start Account Verification' }).click();

    await expect(stepHeading(page, 'Account Type')).toBeVisible();
    await expectProgress(page, 12.5);
    await closeToasts(page);
    await saveScreenshots('kyc-individual-2-account-type');
    await page.getByRole('button', { name: /^Individual/ }).click();

    // Step 3: the address step refuses what the server would, in the spec's words.
    await expect(stepHeading(page, 'Address and Contact Details')).toBeVisible();
    await expectProgress(page, 25);
    await expect(page.getByLabel('Country', { exact: true })).toHaveValue('GB');
    await expect(page.getByLabel('Country', { exact: true }).locator('option').first()).toHaveText(
      'United Kingdom',
    );
    await page.getByRole('button', { name: 'Next' }).click();
    const missing = toast(page, KYC_TEXTS.informationMissingTitle);
    await expect(missing).toContainText(KYC_TEXTS.addressRequired);
    await expect(missing).toContainText(KYC_TEXTS.cityRequired);
    await expect(missing).toContainText(KYC_TEXTS.zipRequired);
    await expect(missing).toContainText(KYC_TEXTS.phoneRequired);

    const birthdate = page.getByLabel('Date of Birth');
    await birthdate.fill('01/01/2999');
    await birthdate.press('Tab');
    await expect(page.getByText(KYC_TEXTS.birthdateFuture)).toBeVisible();
    await expect(birthdate).toHaveValue('');

    await page.getByLabel('Phone Number').fill('+44 7700 900123');
    await page.getByLabel('Address', { exact: true }).fill('10 Downing Street');
    await page.getByLabel('City').fill('London');
    await page.getByLabel('Post Code').fill('SW1A 2AA');
    await birthdate.fill('05/17/1990');
    await birthdate.press('Escape');
    await expect(birthdate).toHaveValue('05/17/1990');
    await page.getByLabel('Nationality').selectOption({ label: 'United Kingdom' });
    await expect(page.getByLabel('Tax Residence')).toHaveValue('GB');
    // The tax number is the National Insurance number for UK tax residents, a tax ID elsewhere.
    await page.getByLabel('Tax Residence').selectOption({ label: 'Ireland' });
    await expect(page.getByLabel('Tax ID')).toBeVisible();
    await page.getByLabel('Tax Residence').selectOption({ label: 'United Kingdom' });
    await page.getByLabel('National Insurance Number').fill('jg 10 37 52 a');
    await closeToasts(page);
    await saveScreenshots('kyc-individual-3-address');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 4: the ID document. A licence needs both sides; other file types are refused before sending.
    await expect(stepHeading(page, 'Identification Document')).toBeVisible();
    await expectProgress(page, 37.5);
    await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0);
    await page.getByLabel('Passport photo page', { exact: true }).setInputFiles(gifFile());
    await expect(page.getByText(KYC_TEXTS.fileFormat)).toBeVisible();
    await pickIdType(page, 'Driver License');
    await chooseFile(page, 'Front ID Upload', pngFile('licence-front.png', 210));
    await page.getByRole('button', { name: 'Upload Driver License' }).click();
    await expect(page.getByText(KYC_TEXTS.twoImages)).toBeVisible();
    await chooseFile(page, 'Back ID Upload', pngFile('licence-back.png', 120));
    await closeToasts(page);
    await saveScreenshots('kyc-individual-4-id-document');
    await page.getByRole('button', { name: 'Upload Driver License' }).click();
    // Both sides in: the licence says so, as the other document zones do.
    await expect(page.getByText('Uploaded', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next' })).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 5: the selfie with the ID.
    await expect(stepHeading(page, 'Identification Document With Selfie')).toBeVisible();
    await expectProgress(page, 50);
    await expect(page.getByText("a sheet of paper with today's date")).toBeVisible();
    await page
      .getByLabel('Selfie with your ID', { exact: true })
      .setInputFiles(pngFile('selfie.jpg.png', 140));
    await expect(page.getByText('Uploaded', { exact: true })).toBeVisible();
    await closeToasts(page);
    await saveScreenshots('kyc-individual-5-selfie');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 6: the proof of address, a PDF.
    await expect(stepHeading(page, 'Proof of Address')).toBeVisible();
    await expectProgress(page, 75);
    await expect(page.getByText('a council tax bill')).toBeVisible();
    await page.getByLabel('Proof of address', { exact: true }).setInputFiles(pdfFile('bill.PDF'));
    await expect(page.getByText('Uploaded', { exact: true })).toBeVisible();
    await closeToasts(page);
    await saveScreenshots('kyc-individual-6-proof-of-address');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 7: the £15,000 question, No by default, leads to the reduced form (step 9).
    await expect(stepHeading(page, 'Source of Wealth')).toBeVisible();
    await expectProgress(page, 85);
    const threshold = page.getByRole('radiogroup', {
      name: 'Do you expect to trade more than £15,000 a year?',
    });
    await expect(threshold.getByRole('radio', { name: 'No' })).toBeChecked();
    await closeToasts(page);
    await saveScreenshots('kyc-individual-7-wealth-question');
    await page.getByRole('button', { name: 'Next' }).click();

    await expect(stepHeading(page, 'Source of Wealth')).toBeVisible();
    await expectProgress(page, 87.5);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(toast(page, KYC_TEXTS.pleaseChooseTitle)).toContainText(KYC_TEXTS.pleaseChoose);
    const risk = page.getByRole('radiogroup', { name: /crypto-assets are high risk/ });
    await risk.getByRole('radio', { name: 'No' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    const sure = page.getByRole('dialog', { name: KYC_TEXTS.riskConfirmTitle });
    await expect(sure).toContainText(KYC_TEXTS.riskConfirm);
    await closeToasts(page);
    await saveScreenshots('kyc-individual-9-are-you-sure');
    await sure.getByRole('button', { name: 'No' }).click();
    await expect(sure).toBeHidden();
    await risk.getByRole('radio', { name: 'Yes' }).check();
    await closeToasts(page);
    await saveScreenshots('kyc-individual-9-reduced-wealth');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 10: Instant shows the completion dialog and reloads on close.
    await expect(stepHeading(page, 'Account Type')).toBeVisible();
    await expectProgress(page, 95);
    await page.getByRole('button', { name: 'Back' }).click();
    await expectProgress(page, 85);
    await expect(risk.getByRole('radio', { name: 'Yes' })).toBeChecked();
    await page.getByRole('button', { name: 'Next' }).click();
    await expectProgress(page, 95);
    await closeToasts(page);
    await saveScreenshots('kyc-individual-10-account-choice');
    await page.getByRole('button', { name: /^Instant/ }).click();
    const complete = page.getByRole('dialog', { name: KYC_TEXTS.verificationCompleteTitle });
    await expect(complete).toBeVisible();
    await closeToasts(page);
    await saveScreenshots('kyc-individual-complete');
    await complete.getByRole('button', { name: 'Close' }).click();

    // Everything awaits review: Get Started is closed, with the reason.
    await expect(page.getByRole('tab', { name: 'Get Started' })).toBeDisabled();
    await expect(page.getByRole('tab', { name: 'Dashboard' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('We are reviewing your documents')).toBeVisible();
    await closeToasts(page);
    await saveScreenshots('kyc-individual-awaiting-review');
    expect(consoleErrors).toEqual([]);
  });

  test('opens at the £15,000 question where the customer left off, answers the full form and chooses Trade', async ({
    signedInPage: page,
    saveScreenshots,
    consoleErrors,
  }) => {
    await submitIndividualDocuments(page.request);
    await page.reload();

    await expect(stepHeading(page, 'Source of Wealth')).toBeVisible();
    await expectProgress(page, 85);
    await page
      .getByRole('radiogroup', { name: 'Do you expect to trade more than £15,000 a year?' })
      .getByRole('radio', { name: 'Yes' })
      .check();
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 8: every question; a declaration's details appear only with a Yes.
    await expect(stepHeading(page, 'Source of Wealth and Experience')).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(toast(page, KYC_TEXTS.pleaseChooseTitle)).toContainText(KYC_TEXTS.pleaseChoose);

    await answerWealthQuestions(page);
    const declaration = (name: RegExp) => page.getByRole('radiogroup', { name });
    await declaration(/financial offence/)
      .getByRole('radio', { name: 'No' })
      .check();
    await declaration(/unspent criminal convictions/)
      .getByRole('radio', { name: 'No' })
      .check();
    await declaration(/County Court Judgment/)
      .getByRole('radio', { name: 'No' })
      .check();
    await expect(page.getByLabel('Please give the details')).toHaveCount(0);
    await declaration(/police caution/)
      .getByRole('radio', { name: 'Yes' })
      .check();
    const details = page.getByLabel('Please give the details');
    await expect(details).toHaveAttribute('rows', '4');
    await declaration(/crypto-assets are high risk/)
      .getByRole('radio', { name: 'Yes' })
      .check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(toast(page, KYC_TEXTS.incorrectInputTitle)).toContainText(KYC_TEXTS.detailsRequired);
    await details.fill('A caution for a parking dispute in 2009.');
    await closeToasts(page);
    await saveScreenshots('kyc-individual-8-full-wealth');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 10: Trade upgrades the account, then signs the customer out on close.
    await expect(stepHeading(page, 'Account Type')).toBeVisible();
    await expectProgress(page, 95);
    await page.getByRole('button', { name: /^Trade/ }).click();
    const complete = page.getByRole('dialog', { name: KYC_TEXTS.verificationCompleteTitle });
    await expect(complete).toContainText('signed out');
    await complete.getByRole('button', { name: 'Close' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('identity verification of an Individual customer, off the happy path', () => {
  test.describe.configure({ timeout: 120_000 });

  test('on a slow connection, Close of the Instant dialog shows it is working and fetches the account only once', async ({
    signedInPage: page,
    consoleErrors,
  }) => {
    await submitIndividualDocuments(page.request);
    await answerSourceOfWealth(page.request);
    await page.reload();
    await expect(stepHeading(page, 'Account Type')).toBeVisible();
    await expectProgress(page, 95);
    await page.getByRole('button', { name: /^Instant/ }).click();
    const complete = page.getByRole('dialog', { name: KYC_TEXTS.verificationCompleteTitle });
    await expect(complete).toBeVisible();

    // The account's fetch hangs until the story lets it through.
    let userFetches = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/user', async (route) => {
      userFetches += 1;
      await released;
      await route.continue();
    });
    const close = complete.getByRole('button', { name: 'Close' });
    await close.click();
    await expect(close).toHaveAttribute('data-loading', 'true');
    await expect(close).toBeDisabled();
    await expect.poll(() => userFetches).toBe(1);
    await expect(complete).toBeVisible();

    release();
    await expect(complete).toBeHidden();
    await expect(page.getByRole('tab', { name: 'Get Started' })).toBeDisabled();
    expect(userFetches).toBe(1);
    expect(consoleErrors).toEqual([]);
  });

  test('a declined proof of address shows the cause in capitals until it is uploaded again; approved and live, the customer gets the full navigation', async ({
    signedInPage: page,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await submitIndividualDocuments(page.request);
    await finishIndividualVerification(page.request);
    const { id: userId } = await currentUser(page.request);
    await declineDocument(staff, userId, 'proof_address', 'Bill is older than three months');
    await page.reload();

    await expect(page.getByRole('alert').filter({ hasText: 'Rejected' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Get Started' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: 'Proof of Address' })).toBeVisible();
    await expect(page.getByText('Cause of rejection')).toBeVisible();
    await expect(page.getByText('BILL IS OLDER THAN THREE MONTHS', { exact: true })).toBeVisible();
    await closeToasts(page);
    await saveScreenshots('kyc-rejected');
    await page
      .getByLabel('Upload Proof of Address again', { exact: true })
      .setInputFiles(pdfFile('new-bill.pdf'));

    // The last declined document is back: Getting Started returns, closed while staff review it.
    await expect(page.getByRole('tab', { name: 'Get Started' })).toBeDisabled();
    await expect(page.getByText('Cause of rejection')).toHaveCount(0);

    await approveAllDocuments(staff, userId);
    await makeLive(staff, userId);
    await page.reload();
    const navigation = page.getByRole('banner').getByRole('navigation');
    await expect(navigation.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Getting Started' })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('under a compliance hold, Contact Us takes the place of Get Started', async ({
    signedInPage: page,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    const { id: userId } = await currentUser(page.request);
    await putOnHold(staff, userId, 'Source of funds to be checked');
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Dashboard' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Get Started' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Contact Us', exact: true })).toHaveAttribute(
      'href',
      '/contact-us',
    );
    await closeToasts(page);
    await saveScreenshots('kyc-on-hold');
    expect(consoleErrors).toEqual([]);
  });

  test('an upload the server cannot take asks the customer to email the file to compliance, with their reference', async ({
    signedInPage: page,
    customer,
    consoleErrors,
    saveScreenshots,
  }) => {
    await chooseAccountTypeAndDetails(page);
    const { user_identification: reference } = await currentUser(page.request);
    await page.route('**/api/v1/user/id-proof', (route) =>
      route.fulfill({
        status: 500,
        json: { code: 'INTERNAL', message: 'Something went wrong. Please contact the admin.' },
      }),
    );
    await page.reload();
    await expect(stepHeading(page, 'Identification Document')).toBeVisible();
    await page.getByLabel('Passport photo page', { exact: true }).setInputFiles(pngFile('passport.png'));

    const failed = page.getByRole('dialog', { name: 'Upload failed' });
    await expect(failed.getByRole('link', { name: 'compliance@florin.local' })).toHaveAttribute(
      'href',
      `mailto:compliance@florin.local?subject=${encodeURIComponent(`${customer.firstName} ${customer.lastName} ${reference}`)}`,
    );
    await expect(failed).toContainText(`${customer.firstName} ${customer.lastName} ${reference}`);
    await saveScreenshots('kyc-upload-failed');
    await failed.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0);
    // The one console line is the browser's own report of the 500 this story provokes.
    expect(consoleErrors).toEqual([expect.stringMatching(/status of 500.*\/api\/v1\/user\/id-proof/)]);
  });

  test('after staff reset the source of wealth, the customer answers again before anything else', async ({
    signedInPage: page,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await submitIndividualDocuments(page.request);
    await finishIndividualVerification(page.request);
    const { id: userId } = await currentUser(page.request);
    await resetSourceOfWealth(staff, userId, 'Annual review of source of funds');
    await page.goto('/user/trade');

    await expect(page.getByRole('heading', { level: 1, name: 'Source of Wealth' })).toBeVisible();
    await expect(page.getByText('Please answer the source of wealth questions again')).toBeVisible();
    await page
      .getByRole('radiogroup', { name: /crypto-assets are high risk/ })
      .getByRole('radio', { name: 'Yes' })
      .check();
    await saveScreenshots('kyc-sow-reset');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Getting Started' })).toBeVisible();
    expect((await currentUser(page.request)).is_sow_reset).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  test('a live customer who answered No and has traded more than £15,000 this year tells us their source of wealth before buying again', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    await fund(api, customer.email, 'BTC', '0.3');
    // BTC is about £72,000 on the simulated market: this sale, from another tab, is well over £15,000.
    await tradeElsewhere(page, 'sell', '0.25');
    await page.goto('/user/trade');

    await expect(page.getByRole('heading', { level: 1, name: 'Source of Wealth' })).toBeVisible();
    await expect(page.getByText('Please tell us about your source of wealth')).toBeVisible();
    await expect(
      page.getByText('You have traded more than £15,000 this year.', { exact: false }),
    ).toBeVisible();
    // Yes is the only true answer: the question is not asked, the full form is.
    await expect(page.getByRole('radiogroup', { name: /Do you expect to trade more than/ })).toHaveCount(0);
    await answerWealthQuestions(page);
    for (const declaration of [
      /financial offence/,
      /unspent criminal convictions/,
      /police caution/,
      /County Court Judgment/,
    ])
      await page.getByRole('radiogroup', { name: declaration }).getByRole('radio', { name: 'No' }).check();
    await page
      .getByRole('radiogroup', { name: /crypto-assets are high risk/ })
      .getByRole('radio', { name: 'Yes' })
      .check();
    await saveScreenshots('kyc-sow-threshold');
    await page.getByRole('button', { name: 'Submit' }).click();

    await expect(page.getByRole('button', { name: 'Preview Order' })).toBeVisible();
    const user = await currentUser(page.request);
    expect(user).toMatchObject({
      is_sow_reset: 0,
      sow_over_threshold: null,
      kyc: { trades_over_threshold: 1 },
    });
    expect(consoleErrors).toEqual([]);
  });
});

/** Steps 2 and 3 through the API: an Individual customer with address details saved. */
async function chooseAccountTypeAndDetails(page: Page) {
  await chooseAccountType(page.request, 'Individual');
  await saveDetails(page.request);
}
