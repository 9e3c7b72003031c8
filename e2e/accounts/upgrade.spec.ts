import { ACCOUNT_TEXTS, UPGRADE_TEXTS } from '@florin/contracts';
import { expect, test } from '../admin-fixtures.js';
import { submitLoginForm } from '../fixtures.js';
import { INDIVIDUAL_DETAILS } from '../kyc/customer-actions.js';
import { makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { putOnHold } from '../kyc/staff-actions.js';
import { COMPANY, makeCorporateCustomerLive } from './account-actions.js';

test.describe('the Account page and the upgrade to trade', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a live instant customer sees their details, upgrades to trade, must log out, and finds the trading screen after signing in again; staff see the upgrade', async ({
    signedInPage: page,
    customer,
    complianceApi,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);

    // The account menu leads to the Account page.
    await page.goto('/user');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Account' }).click();
    await expect(page).toHaveURL(/\/user\/accounts$/);
    await expect(page.getByRole('heading', { level: 1, name: ACCOUNT_TEXTS.pageTitle })).toBeVisible();

    await expect(page.getByRole('tab', { name: ACCOUNT_TEXTS.detailsTab })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    // Every tab of spec 002 §2.2 is there, in order, and none is disabled.
    const tabNames = [
      ACCOUNT_TEXTS.detailsTab,
      ACCOUNT_TEXTS.referralsTab,
      ACCOUNT_TEXTS.promoTab,
      ACCOUNT_TEXTS.alertsTab,
      ACCOUNT_TEXTS.apiTab,
      ACCOUNT_TEXTS.tierTab,
      ACCOUNT_TEXTS.autoTradeTab,
    ];
    await expect(page.getByRole('tab')).toHaveText(tabNames);
    for (const name of tabNames) {
      await expect(page.getByRole('tab', { name, exact: true })).toBeEnabled();
    }
    const details: [string, string][] = [
      [ACCOUNT_TEXTS.firstName, customer.firstName],
      [ACCOUNT_TEXTS.lastName, customer.lastName],
      [ACCOUNT_TEXTS.address, INDIVIDUAL_DETAILS.address],
      [ACCOUNT_TEXTS.city, INDIVIDUAL_DETAILS.city],
      [ACCOUNT_TEXTS.postcode, INDIVIDUAL_DETAILS.zip],
      [ACCOUNT_TEXTS.country, 'United Kingdom'],
      [ACCOUNT_TEXTS.phone, INDIVIDUAL_DETAILS.phone],
      [ACCOUNT_TEXTS.birthday, '12 April 1985'],
      [ACCOUNT_TEXTS.email, customer.email],
    ];
    for (const [label, value] of details) {
      const field = page.getByLabel(label, { exact: true });
      await expect(field).toHaveValue(value);
      await expect(field).toHaveAttribute('readonly', '');
    }
    await expect(page.getByLabel(ACCOUNT_TEXTS.companyAddress)).toHaveCount(0);
    await saveScreenshots('accounts-details');
    // At 375 px the tabs are an accordion, Account Details open.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('button', { name: ACCOUNT_TEXTS.detailsTab })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await expect(page.getByLabel(ACCOUNT_TEXTS.email, { exact: true })).toHaveValue(customer.email);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The features, then the upgrade.
    await page.getByRole('button', { name: UPGRADE_TEXTS.upgradeButton }).click();
    const offer = page.getByRole('dialog', { name: UPGRADE_TEXTS.modalTitle });
    await expect(offer).toBeVisible();
    const features = offer.getByRole('list', { name: 'Trading account features' }).getByRole('listitem');
    // The spec's list, with the fee the schedule starts at (a new database's: 0.35%).
    const expected: string[] = [...UPGRADE_TEXTS.features];
    expected.splice(UPGRADE_TEXTS.feesFeatureAt, 0, 'Fees starting at 0.35%');
    await expect(features).toHaveText(expected);
    await saveScreenshots('accounts-upgrade-offer');
    await offer.getByRole('button', { name: UPGRADE_TEXTS.confirm }).click();

    const complete = page.getByRole('dialog', { name: UPGRADE_TEXTS.completeTitle });
    await expect(complete).toBeVisible();
    await expect(complete.getByText(UPGRADE_TEXTS.completeText)).toBeVisible();
    // It cannot be dismissed: its one button logs out; Escape and a click outside leave it open.
    await expect(complete.getByRole('button')).toHaveText([UPGRADE_TEXTS.logOut]);
    await page.keyboard.press('Escape');
    await page.mouse.click(10, 10);
    await expect(complete).toBeVisible();
    await saveScreenshots('accounts-upgrade-complete');
    await complete.getByRole('button', { name: UPGRADE_TEXTS.logOut }).click();
    await expect(page).toHaveURL(/\/login$/);

    await submitLoginForm(page, customer.email, customer.password);
    await expect(page).toHaveURL(/\/user$/);
    await page.goto('/user/trade');
    await expect(page.getByRole('heading', { level: 1, name: 'Trade' })).toBeVisible();
    await page.goto('/user/accounts');
    await expect(page.getByText(ACCOUNT_TEXTS.tradingAccount)).toBeVisible();
    await expect(page.getByRole('button', { name: UPGRADE_TEXTS.upgradeButton })).toHaveCount(0);

    // Support finds the upgrade in the back office.
    const support = await staffMember('support');
    await signInStaff(page, support);
    await page.getByRole('link', { name: 'Upgrades' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Upgrades' })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: customer.email });
    await expect(row).toContainText('Instant → Trading');
    await expect(row).toContainText('No webhook');
    await expect(
      row.getByRole('link', { name: `${customer.firstName} ${customer.lastName}` }),
    ).toHaveAttribute('href', /\/admin\/customers\/\d+$/);
    // The webhook is a superadmin's.
    await expect(page.getByRole('heading', { name: 'Chat webhook' })).toHaveCount(0);
    await saveScreenshots('admin-upgrades');
    expect(consoleErrors).toEqual([]);
  });

  test('a Corporate customer sees the company address in place of their own, and no birthday', async ({
    signedInPage: page,
    complianceApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCorporateCustomerLive(page, complianceApi);
    await page.goto('/user/accounts');
    const details: [string, string][] = [
      [ACCOUNT_TEXTS.companyAddress, COMPANY.address],
      [ACCOUNT_TEXTS.companyCity, COMPANY.city],
      [ACCOUNT_TEXTS.companyZip, COMPANY.zip],
      [ACCOUNT_TEXTS.companyCountry, 'United Kingdom'],
      [ACCOUNT_TEXTS.phone, INDIVIDUAL_DETAILS.phone],
    ];
    for (const [label, value] of details) {
      await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
    }
    for (const label of [ACCOUNT_TEXTS.address, ACCOUNT_TEXTS.postcode, ACCOUNT_TEXTS.birthday]) {
      await expect(page.getByLabel(label, { exact: true })).toHaveCount(0);
    }
    await expect(page.getByRole('button', { name: UPGRADE_TEXTS.upgradeButton })).toBeVisible();
    await saveScreenshots('accounts-corporate');
    expect(consoleErrors).toEqual([]);
  });

  test('a customer on hold is told the upgrade failed under Information Missing, and stays an instant customer', async ({
    signedInPage: page,
    complianceApi,
    consoleErrors,
  }) => {
    const id = await makeCustomerLive(page, complianceApi);
    await putOnHold(complianceApi, id, 'Checking a payment.');
    await page.goto('/user/accounts');
    await page.getByRole('button', { name: UPGRADE_TEXTS.upgradeButton }).click();
    const offer = page.getByRole('dialog', { name: UPGRADE_TEXTS.modalTitle });
    await offer.getByRole('button', { name: UPGRADE_TEXTS.confirm }).click();
    const toast = page.getByRole('alert').filter({ hasText: UPGRADE_TEXTS.errorTitle });
    await expect(toast).toContainText('Your account is not live!');
    // The offer stays, and may be closed.
    await offer.getByRole('button', { name: UPGRADE_TEXTS.cancel }).click();
    await expect(offer).toHaveCount(0);
    await page.goto('/user/trade');
    await expect(page.getByRole('heading', { level: 1, name: 'Instant Trade' })).toBeVisible();
    expect(consoleErrors.filter((error) => !error.includes('403'))).toEqual([]);
  });

  test('a superadmin points upgrades at a chat webhook, and removes it again', async ({
    page,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await signInStaff(page, await staffMember('superadmin'));
    await page.goto('/admin/upgrades');
    const form = page.getByRole('form', { name: 'Chat webhook' });
    const url = form.getByLabel('Webhook URL');
    const save = form.getByRole('button', { name: 'Save webhook' });
    await url.fill('chat.example.com');
    await save.click();
    await expect(form.getByText(UPGRADE_TEXTS.webhookInvalid)).toBeVisible();

    await url.fill('https://chat.example.com/hooks/florin');
    await save.click();
    await expect(page.getByText(UPGRADE_TEXTS.webhookSaved)).toBeVisible();
    await page.reload();
    await expect(url).toHaveValue('https://chat.example.com/hooks/florin');
    await saveScreenshots('admin-upgrades-webhook');

    await form.getByRole('button', { name: 'Remove webhook' }).click();
    await expect(page.getByText(UPGRADE_TEXTS.webhookCleared)).toBeVisible();
    await expect(url).toHaveValue('');
    await expect(form.getByRole('button', { name: 'Remove webhook' })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
