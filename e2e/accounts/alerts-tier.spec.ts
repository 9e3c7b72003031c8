import { ACCOUNT_TEXTS, ALERTS_TEXTS, TIER_TEXTS, type TradingTerms } from '@florin/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders } from '../fixtures.js';
import { fund, makeCustomerLive, tradeElsewhere } from '../dashboard/dashboard-actions.js';

const LOGIN_MAIL = 'New sign-in to your Florin account';

async function openTab(page: Page, name: string): Promise<void> {
  await page.goto('/user/accounts');
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

test.describe('the Alerts and Tier tabs of the Account page', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a customer switches the login alert off, it stays off after a reload, the next sign-in sends no login mail, and switching it on brings the mail back', async ({
    signedInPage: page,
    customer,
    complianceApi,
    api,
    signIn,
    mailbox,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await openTab(page, ACCOUNT_TEXTS.alertsTab);

    const login = page.getByRole('switch', { name: ALERTS_TEXTS.login });
    await expect(login).toBeChecked();
    for (const name of [ALERTS_TEXTS.logout, ALERTS_TEXTS.marketing, ALERTS_TEXTS.trading]) {
      await expect(page.getByRole('switch', { name })).not.toBeChecked();
    }
    await expect(
      page.getByRole('list', { name: ALERTS_TEXTS.compulsoryTitle }).getByRole('listitem'),
    ).toHaveText([...ALERTS_TEXTS.compulsory]);
    await saveScreenshots('accounts-alerts');

    // Off: saved at once, with the spec's toast; the other three are sent unchanged.
    const saved = page.waitForRequest(
      (request) => request.method() === 'PUT' && request.url().endsWith('/notifications'),
    );
    await page.getByRole('switch', { name: ALERTS_TEXTS.login }).click();
    expect((await saved).postDataJSON()).toEqual({
      login_notifications: false,
      loginout_notifications: false,
      marketing_notifications: false,
      trade_notifications: false,
      settings: 1,
    });
    await expect(page.getByText(ALERTS_TEXTS.updated)).toBeVisible();
    await expect(login).not.toBeChecked();

    await page.reload();
    await page.getByRole('tab', { name: ACCOUNT_TEXTS.alertsTab }).click();
    await expect(page.getByRole('switch', { name: ALERTS_TEXTS.login })).not.toBeChecked();

    // The next sign-in, from another client, sends no login mail.
    const quiet = new Date();
    await signIn(api, customer);
    const mails = await mailbox.list();
    expect(
      mails.filter(
        (mail) =>
          mail.to === customer.email &&
          mail.subject.includes(LOGIN_MAIL) &&
          Date.parse(mail.created_at) >= quiet.getTime() - 1_000,
      ),
    ).toEqual([]);

    // On again: the next sign-in is mailed.
    await page.getByRole('switch', { name: ALERTS_TEXTS.login }).click();
    await expect(page.getByRole('switch', { name: ALERTS_TEXTS.login })).toBeChecked();
    await expect(page.getByText(ALERTS_TEXTS.updated)).toBeVisible();
    const loud = new Date();
    await signIn(api, customer);
    await mailbox.waitForMail(customer.email, LOGIN_MAIL, { since: loud });

    // A refused save puts the switch back and says why (spec 002 §8: the status text and the messages).
    await page.route('**/api/v1/users/*/notifications', (route) =>
      route.fulfill({
        status: 422,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'VALIDATION_FAILED',
          message: 'The given data was invalid.',
          errors: { marketing_notifications: ['Marketing notifications cannot be changed now.'] },
        }),
      }),
    );
    const marketing = page.getByRole('switch', { name: ALERTS_TEXTS.marketing });
    await marketing.click();
    await expect(page.getByText('Unprocessable Content')).toBeVisible();
    await expect(page.getByText('Marketing notifications cannot be changed now.')).toBeVisible();
    await expect(marketing).not.toBeChecked();
    await expect(marketing).toBeEnabled();
    await page.unrouteAll();

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('switch', { name: ALERTS_TEXTS.trading })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(consoleErrors).toEqual([]);
  });

  test('a customer who traded sees their tier, their year-to-date volume and the fee column of their account', async ({
    signedInPage: page,
    customer,
    complianceApi,
    superadminApi,
    api,
    saveScreenshots,
    consoleErrors,
  }) => {
    const userId = await makeCustomerLive(page, complianceApi);
    await fund(api, customer.email, 'GBP', '2000');
    await tradeElsewhere(page, 'buy', '0.01');
    const terms = ((await (await page.request.get('/api/v1/trading/terms')).json()) as { data: TradingTerms })
      .data;
    expect(Number(terms.volume_gbp)).toBeGreaterThan(0);
    const volume = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(
      Number(terms.volume_gbp),
    );

    await openTab(page, ACCOUNT_TEXTS.tierTab);
    await expect(page.getByTestId('tier-volume')).toHaveText(volume);
    await expect(page.getByTestId('tier-current')).toHaveText('Tier 1');
    const slider = page.getByRole('slider', { name: TIER_TEXTS.sliderLabel });
    await expect(slider).toHaveAttribute('aria-valuenow', '1');
    await expect(slider).toHaveAttribute('aria-valuetext', 'Tier 1');
    const table = page.getByRole('table');
    await expect(table.locator('caption')).toHaveText(TIER_TEXTS.instantColumn);
    await expect(table.getByRole('row')).toHaveText([
      /Tier.*Volume.*Fee/,
      /Tier 1.*Your tier.*£0 to £50,000.*1\.39%/,
      /Tier 2.*£50,001 to £100,000.*1\.15%/,
      /Tier 3.*£100,001 to £250,000.*0\.90%/,
      /Tier 4.*£250,001 to £1,000,000.*0\.65%/,
      /Custom.*above.*custom/,
    ]);
    await expect(table.locator('tr[aria-current="true"]')).toHaveText(/Tier 1/);
    await saveScreenshots('accounts-tier');

    // A trading account reads the other column of the same schedule.
    const moved = await page.request.post('/dev/users/platform', {
      data: { email: customer.email, platform: 2 },
      headers: await csrfHeaders(page.request),
    });
    expect(moved.ok(), await moved.text()).toBe(true);
    await openTab(page, ACCOUNT_TEXTS.tierTab);
    await expect(page.getByRole('table').locator('caption')).toHaveText(TIER_TEXTS.tradingColumn);
    await expect(page.locator('tr[aria-current="true"]')).toHaveText(/Tier 1.*0\.75%/);
    await expect(page.getByRole('row', { name: /Tier 4/ })).toHaveText(/0\.35%/);

    // Staff give the customer a Custom plan: the slider and the table mark Custom, with its fee.
    const planned = await superadminApi.put(`/api/admin/trading/fee-plans/${userId}`, {
      data: { custom_fee_percent: '0.2', reason: 'Agreed with the customer on the phone' },
      headers: await csrfHeaders(superadminApi),
    });
    expect(planned.ok(), await planned.text()).toBe(true);
    await openTab(page, ACCOUNT_TEXTS.tierTab);
    await expect(page.getByText(TIER_TEXTS.customPlan)).toBeVisible();
    await expect(page.getByTestId('tier-current')).toHaveText(TIER_TEXTS.custom);
    await expect(page.locator('tr[aria-current="true"]')).toHaveText(/Custom.*above.*0\.2%/);
    await expect(page.getByRole('slider', { name: TIER_TEXTS.sliderLabel })).toHaveAttribute(
      'aria-valuenow',
      '5',
    );
    await saveScreenshots('accounts-tier-custom', [1280]);
    expect(consoleErrors).toEqual([]);
  });
});
