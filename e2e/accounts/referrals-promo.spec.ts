import { ACCOUNT_TEXTS, REFERRALS_TEXTS } from '@florin/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders } from '../fixtures.js';
import { makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { currentUser } from '../kyc/customer-actions.js';
import { switchOnEmailCodes } from '../wallets/fiat-fixtures.js';
import { makeCorporateCustomerLive } from './account-actions.js';

async function openTab(page: Page, name: string): Promise<void> {
  await page.goto('/user/accounts');
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** DD/MM/YYYY of a date in London, as the Promo table shows it. */
function dayMonthYear(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London' }).format(date);
}

test.describe('the Referrals and Promo tabs of the Account page', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a UK individual sees their referral link and a plain explanation instead of earnings, and a promo code gives them nothing', async ({
    signedInPage: page,
    complianceApi,
    superadminApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    const { referral_code } = await currentUser(page.request);
    // The first answers fail (the app retries a 5xx once): the tab says so and asks again on Try again.
    let failures = 0;
    await page.route('**/api/v1/user/referrals', (route) => {
      if (failures === 2) return route.continue();
      failures += 1;
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
    });
    await openTab(page, ACCOUNT_TEXTS.referralsTab);
    const failed = page.getByRole('alert').filter({ hasText: 'Your referrals could not be loaded.' });
    await expect(failed).toBeVisible();
    // At 1280 px only: at 375 px the tabs are an accordion, which mounts the tab again and so asks again.
    await saveScreenshots('accounts-referrals-load-failed', [1280]);
    await failed.getByRole('button', { name: 'Try again' }).click();

    await expect(page.getByLabel(REFERRALS_TEXTS.linkLabel)).toHaveValue(
      new RegExp(`/register\\?ref=${referral_code}$`),
    );
    await expect(page.getByRole('button', { name: REFERRALS_TEXTS.copy })).toBeVisible();
    await expect(page.getByText(REFERRALS_TEXTS.notEligible)).toBeVisible();
    await expect(page.getByText(REFERRALS_TEXTS.earnedUnpaid)).toHaveCount(0);
    await expect(page.getByRole('button', { name: REFERRALS_TEXTS.claim })).toHaveCount(0);
    await saveScreenshots('accounts-referrals-excluded');

    const code = `UK${Date.now().toString(36).toUpperCase()}`;
    const created = await superadminApi.post('/api/admin/promo-codes', {
      data: { code, discount_percent: '50', duration_days: 14 },
      headers: await csrfHeaders(superadminApi),
    });
    expect(created.status(), await created.text()).toBe(200);
    await openTab(page, ACCOUNT_TEXTS.promoTab);
    await page.getByLabel(REFERRALS_TEXTS.promoLabel).fill(code);
    await page.getByRole('button', { name: REFERRALS_TEXTS.promoAdd }).click();
    await expect(page.getByText(REFERRALS_TEXTS.promoNotEligible)).toBeVisible();
    await expect(page.getByText(REFERRALS_TEXTS.promoEmpty)).toBeVisible();
    // The refused answer above is the browser's own report of what the test did.
    expect(consoleErrors.filter((error) => !error.includes('/api/v1/user/referrals'))).toEqual([]);

    // A visitor following the link by code lands on the registration form with the code; an unknown one is a 404.
    const visitor = await page
      .context()
      .browser()
      ?.newContext({ baseURL: new URL(page.url()).origin });
    if (!visitor) throw new Error('no browser');
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(`/${referral_code}`);
    await expect(visitorPage).toHaveURL(new RegExp(`/register\\?ref=${referral_code}$`));
    await visitorPage.goto('/no-such-referral-here');
    await expect(visitorPage.getByRole('heading', { name: '404 Not Found' })).toBeVisible();
    await visitor.close();
  });

  test('a Corporate customer sees the earnings panel with Claim off at £0, gets a claim code by e-mail once staff switch e-mailed codes on, adds a promo code once and finds it in the table', async ({
    signedInPage: page,
    customer,
    complianceApi,
    superadminApi,
    mailbox,
    saveScreenshots,
  }) => {
    await makeCorporateCustomerLive(page, complianceApi);
    await openTab(page, ACCOUNT_TEXTS.referralsTab);
    for (const label of [
      REFERRALS_TEXTS.earned,
      REFERRALS_TEXTS.earnedUnpaid,
      REFERRALS_TEXTS.earnedPaid,
      REFERRALS_TEXTS.earnedWaiting,
    ]) {
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByText('£0.00')).toHaveCount(4);
    await expect(page.getByRole('button', { name: REFERRALS_TEXTS.claim })).toBeDisabled();
    await expect(page.getByText(REFERRALS_TEXTS.notEligible)).toHaveCount(0);
    // No second factor yet: no code to enter, nothing to send.
    await expect(page.getByRole('button', { name: 'Send 2FA' })).toHaveCount(0);
    await expect(page.getByLabel(REFERRALS_TEXTS.slugLabel)).toHaveCount(0);

    // Staff make them a partner: the custom slug form appears, and the saved slug makes a second link.
    const { id } = await currentUser(page.request);
    const partner = await superadminApi.put(`/api/admin/referrals/partners/${id}`, {
      data: { has_custom_referral: true },
      headers: await csrfHeaders(superadminApi),
    });
    expect(partner.status(), await partner.text()).toBe(200);
    // Compliance switches e-mailed codes on: the claim now asks for a code, which Send 2FA mails.
    await switchOnEmailCodes(complianceApi, id);
    await openTab(page, ACCOUNT_TEXTS.referralsTab);
    const slug = `partner-${id}`;
    await page.getByLabel(REFERRALS_TEXTS.slugLabel).fill('admin');
    await page.getByRole('button', { name: REFERRALS_TEXTS.save }).click();
    await expect(page.getByText(REFERRALS_TEXTS.slugReserved)).toBeVisible();
    await page.getByLabel(REFERRALS_TEXTS.slugLabel).fill(slug);
    await page.getByRole('button', { name: REFERRALS_TEXTS.save }).click();
    await expect(page.getByText(REFERRALS_TEXTS.slugSaved)).toBeVisible();
    await expect(page.getByLabel(REFERRALS_TEXTS.customTitle)).toHaveValue(new RegExp(`/${slug}$`));
    await saveScreenshots('accounts-referrals');

    await expect(page.getByText(REFERRALS_TEXTS.passcodeLabel, { exact: true })).toBeVisible();
    const since = new Date(Date.now() - 1_000);
    await page.getByRole('button', { name: 'Send 2FA' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: '2fa passcode sent please check email!' }),
    ).toBeVisible();
    const mail = await mailbox.waitForMail(customer.email, 'Your confirmation code', { since });
    expect(mail.text).toContain('a claim of your referral earnings');
    expect(mail.text).toMatch(/\b\d{6}\b/);

    const code = `SPRING${Date.now().toString(36).toUpperCase()}`;
    const created = await superadminApi.post('/api/admin/promo-codes', {
      data: { code, discount_percent: '25', duration_days: 30 },
      headers: await csrfHeaders(superadminApi),
    });
    expect(created.status(), await created.text()).toBe(200);

    await openTab(page, ACCOUNT_TEXTS.promoTab);
    const field = page.getByLabel(REFERRALS_TEXTS.promoLabel);
    await field.fill('NOT-A-REAL-CODE');
    await page.getByRole('button', { name: REFERRALS_TEXTS.promoAdd }).click();
    await expect(page.getByText(REFERRALS_TEXTS.promoInvalid)).toBeVisible();

    await field.fill(code.toLowerCase());
    await page.getByRole('button', { name: REFERRALS_TEXTS.promoAdd }).click();
    await expect(page.getByText(REFERRALS_TEXTS.promoAdded)).toBeVisible();
    const table = page.getByRole('table', { name: REFERRALS_TEXTS.promoTitle });
    const today = new Date();
    const ends = new Date(today.getTime() + 30 * 86_400_000);
    await expect(table.getByRole('row').nth(1)).toContainText(code);
    await expect(table.getByRole('row').nth(1)).toContainText(dayMonthYear(today));
    await expect(table.getByRole('row').nth(1)).toContainText(dayMonthYear(ends));

    // The same code again is refused with the spec's text.
    await field.fill(code);
    await page.getByRole('button', { name: REFERRALS_TEXTS.promoAdd }).click();
    await expect(page.getByText(REFERRALS_TEXTS.promoInvalid)).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(2);
    await saveScreenshots('accounts-promo');
  });
});

test.describe('referrals and promo codes in the back office', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a superadmin sees the incentives policy and creates a promo code; finance opens the claims queue', async ({
    page,
    staffMember,
    signInStaff,
    saveScreenshots,
  }) => {
    const superadmin = await staffMember('superadmin');
    await signInStaff(page, superadmin);
    await page.goto('/admin/referrals');
    await expect(page.getByRole('heading', { name: 'Referrals and promo codes' })).toBeVisible();
    await expect(
      page.getByRole('radio', {
        name: 'Corporate customers and customers resident outside the UK (default)',
      }),
    ).toBeChecked();

    const code = `ADMIN${Date.now().toString(36).toUpperCase()}`;
    await page.getByLabel('Code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Create code' }).click();
    await expect(page.getByText('Promo code created.')).toBeVisible();
    const row = page.getByRole('table', { name: 'Promo codes' }).getByRole('row', { name: new RegExp(code) });
    await expect(row).toContainText('25%');
    await expect(row).toContainText('Active');
    await saveScreenshots('admin-referrals-promo');

    const finance = await staffMember('finance');
    const context = await page
      .context()
      .browser()
      ?.newContext({ baseURL: new URL(page.url()).origin });
    if (!context) throw new Error('no browser');
    const financePage = await context.newPage();
    await signInStaff(financePage, finance);
    await financePage.goto('/admin/referral-claims');
    await expect(financePage.getByRole('heading', { name: 'Referral claims' })).toBeVisible();
    // Finance cannot open the superadmin's incentives screen.
    await financePage.goto('/admin/referrals');
    await expect(financePage.getByRole('heading', { name: 'Referrals and promo codes' })).toHaveCount(0);
    await context.close();
  });
});
