import { COMPLIANCE_TEXTS } from '@florin/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import {
  currentUser,
  finishIndividualVerification,
  submitIndividualDocuments,
} from '../kyc/customer-actions.js';
import { pngFile } from '../kyc/files.js';
import { closeToasts } from '../kyc/wizard-page.js';

/** The customer's full navigation once live (spec 000 section 2). */
const FULL_NAVIGATION = ['Dashboard', 'Trade', 'Wallets', 'Account', 'Settings', 'Term Deposits'];

async function expectNoSidewaysScroll(page: Page) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    // Polled: the shell's media queries re-render it a moment after the resize.
    await expect
      .poll(
        () =>
          page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        { message: `sideways scroll at ${width} px` },
      )
      .toBe(0);
  }
}

function documentCard(page: Page, name: string) {
  return page.getByRole('article', { name, exact: true });
}

test.describe('the back office: compliance', () => {
  // Two people at work: staff sign-in waits for fresh 30-second codes, the customer uploads.
  test.describe.configure({ timeout: 120_000 });

  test('a compliance officer declines a proof of address with a note; the customer reads it in capitals and uploads again; the officer approves everything and makes the account live', async ({
    page,
    customer,
    signIn,
    newDevice,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    // The customer finishes the wizard through the API (the KYC stories walk it in the UI).
    const { page: customerPage } = await newDevice();
    await signIn(customerPage.request, customer);
    await submitIndividualDocuments(customerPage.request);
    await finishIndividualVerification(customerPage.request);
    const { id: userId, user_identification: reference } = await currentUser(customerPage.request);
    const name = `${customer.firstName} ${customer.lastName}`;

    const officer = await staffMember('compliance');
    await signInStaff(page, officer);
    await expect(page).toHaveURL(/\/admin\/compliance$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Compliance queue' })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: reference });
    await expect(row).toContainText('3 pending');
    await saveScreenshots('admin-compliance-queue');

    await row.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/compliance/${userId}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('alert', { name: 'Not ready to go live' })).toContainText(
      COMPLIANCE_TEXTS.documentsPending,
    );
    await expect(page.getByRole('button', { name: 'Make live' })).toBeDisabled();
    const passport = documentCard(page, 'Passport');
    await expect(passport.getByRole('img', { name: 'Passport' })).toBeVisible();
    await expect(page.getByText('221B Baker Street, London, NW1 6XE')).toBeVisible();
    await saveScreenshots('admin-compliance-case');

    // Declining needs a note: the customer reads it as the cause.
    const proofOfAddress = documentCard(page, 'Proof of Address');
    await proofOfAddress.getByRole('button', { name: 'Decline' }).click();
    const modal = page.getByRole('dialog', { name: 'Decline Proof of Address' });
    await modal.getByRole('button', { name: 'Decline document' }).click();
    await expect(modal.getByText(COMPLIANCE_TEXTS.declineNoteRequired)).toBeVisible();
    await modal.getByLabel('Note to the customer').fill('Bill is older than three months');
    await saveScreenshots('admin-compliance-decline', [375]);
    await modal.getByRole('button', { name: 'Decline document' }).click();
    await expect(modal).toBeHidden();
    await expect(proofOfAddress.getByText('Declined', { exact: true })).toBeVisible();
    await expect(proofOfAddress.getByText('Bill is older than three months')).toBeVisible();

    // The customer's Rejected view, with the cause in upper case; they upload a new bill.
    await customerPage.goto('/user');
    await expect(customerPage.getByRole('alert').filter({ hasText: 'Rejected' })).toBeVisible();
    await expect(customerPage.getByText('BILL IS OLDER THAN THREE MONTHS', { exact: true })).toBeVisible();
    await customerPage
      .getByLabel('Upload Proof of Address again', { exact: true })
      .setInputFiles(pngFile('new-bill.png', 90));
    await expect(customerPage.getByText('Cause of rejection')).toHaveCount(0);

    // The new upload replaces the declined one; the officer approves every document and makes the account live.
    await page.reload();
    await expect(proofOfAddress.getByText('Awaiting review', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Earlier uploads' })).toBeVisible();
    for (const document of ['Passport', 'Identification Document With Selfie', 'Proof of Address']) {
      await documentCard(page, document)
        .getByRole('button', { name: `Approve ${document}` })
        .click();
      await expect(documentCard(page, document).getByText('Approved', { exact: true })).toBeVisible();
    }
    await closeToasts(page);
    await page.getByRole('button', { name: 'Make live' }).click();
    const confirm = page.getByRole('dialog', { name: 'Make the account live' });
    await confirm.getByRole('button', { name: 'Make live' }).click();
    await expect(page.getByRole('alert', { name: 'Live', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Make live' })).toHaveCount(0);
    await closeToasts(page);
    await saveScreenshots('admin-compliance-case-live');
    await expectNoSidewaysScroll(page);

    // Everything decided: the customer has left the queue.
    await page.getByRole('link', { name: '← Compliance queue' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Compliance queue' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: reference })).toHaveCount(0);

    // Live: the customer sees the whole navigation.
    await customerPage.goto('/user');
    const navigation = customerPage.getByRole('banner').getByRole('navigation');
    for (const label of FULL_NAVIGATION) {
      await expect(navigation.getByRole('link', { name: label })).toBeVisible();
    }
    expect(consoleErrors).toEqual([]);
  });

  test('an officer puts an account on hold with a reason and lifts it again', async ({
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
    await submitIndividualDocuments(customerPage.request);
    const { id: userId } = await currentUser(customerPage.request);

    await signInStaff(page, await staffMember('compliance'));
    await page.goto(`/admin/compliance/${userId}`);
    await page.getByRole('button', { name: 'Put on hold' }).click();
    const hold = page.getByRole('dialog', { name: 'Put the account on hold' });
    await hold.getByLabel('Reason').fill('Adverse media match, checking.');
    await hold.getByRole('button', { name: 'Put on hold' }).click();
    await expect(page.getByRole('alert', { name: 'On hold', exact: true })).toContainText(
      'Adverse media match, checking.',
    );

    await customerPage.goto('/user');
    await expect(customerPage.getByRole('link', { name: 'Contact Us', exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Lift hold' }).click();
    const lift = page.getByRole('dialog', { name: 'Lift the hold' });
    await lift.getByLabel('Reason').fill('Cleared: not the same person.');
    await lift.getByRole('button', { name: 'Lift hold' }).click();
    await expect(page.getByRole('button', { name: 'Put on hold' })).toBeVisible();
    await expect(page.getByRole('alert', { name: 'On hold', exact: true })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
