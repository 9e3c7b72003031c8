import { ADMIN_TRADING_TEXTS, type AdminCoin, type AdminCurrency } from '@florin/contracts';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders } from '../fixtures.js';
import { currentUser } from '../kyc/customer-actions.js';

/**
 * The trading back office (issue 9): finance caps BTC's fee and pauses its
 * sells (a customer's trading terms change at once), gives a customer a
 * Custom fee plan with a reason, and looks at the house's position. BTC is
 * put back as it was: the e2e server is shared with the trading stories.
 */

function toast(page: Page, text: string) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text });
}

type Terms = {
  data: {
    coins: { coin_id: string; fee_percent: string; can_sell: boolean }[];
  };
};

async function btcTerms(request: APIRequestContext) {
  const response = await request.get('/api/v1/trading/terms');
  expect(response.ok()).toBe(true);
  const terms = (await response.json()) as Terms;
  return { btc: terms.data.coins.find((coin) => coin.coin_id === 'btc') };
}

/** Puts BTC back as it was, through the API, whatever happened on screen (from the revision it has now). */
async function restoreCoin(request: APIRequestContext, coin: AdminCoin) {
  const { coin_id: coinId, asset: _asset, name: _name, revision: _old, ...settings } = coin;
  const coins = (await (await request.get('/api/admin/trading/coins')).json()) as { data: AdminCoin[] };
  const response = await request.put(`/api/admin/trading/coins/${coinId}`, {
    data: { ...settings, revision: coins.data.find((row) => row.coin_id === coinId)?.revision },
    headers: await csrfHeaders(request),
  });
  expect(response.ok(), await response.text()).toBe(true);
}

async function adminCurrency(request: APIRequestContext, code: string): Promise<AdminCurrency> {
  const currencies = (await (await request.get('/api/admin/trading/currencies')).json()) as {
    data: AdminCurrency[];
  };
  const found = currencies.data.find((row) => row.code === code);
  if (!found) throw new Error(`no currency ${code}`);
  return found;
}

/** Saves a currency's withdrawal settings through the API, from the revision it has now. */
async function saveCurrency(
  request: APIRequestContext,
  code: string,
  values: Pick<AdminCurrency, 'withdraw_min' | 'withdraw_fee' | 'withdraw_fee_free_from'>,
) {
  const response = await request.put(`/api/admin/trading/currencies/${code}`, {
    data: {
      withdraw_min: values.withdraw_min,
      withdraw_fee: values.withdraw_fee,
      withdraw_fee_free_from: values.withdraw_fee_free_from,
      revision: (await adminCurrency(request, code)).revision,
    },
    headers: await csrfHeaders(request),
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** The schedule a new database starts with; the e2e server is shared, so a test that changes it puts it back. */
const DEFAULT_SCHEDULE = {
  instant_percents: ['1.39', '1.15', '0.90', '0.65'],
  trading_percents: ['0.75', '0.60', '0.45', '0.35'],
};

async function restoreSchedule(request: APIRequestContext) {
  const plans = (await (await request.get('/api/admin/trading/fee-plans')).json()) as {
    data: { schedule_revision: string };
  };
  const response = await request.put('/api/admin/trading/fee-schedule', {
    data: {
      ...DEFAULT_SCHEDULE,
      reason: 'Put back after the end-to-end test',
      revision: plans.data.schedule_revision,
    },
    headers: await csrfHeaders(request),
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test.describe('the back office: trading settings', () => {
  test.describe.configure({ timeout: 180_000 });

  test('finance edits the fee schedule: a refused fee says why, a saved one shows at once', async ({
    page,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await signInStaff(page, await staffMember('finance'));
    await page.goto('/admin/trading-settings');
    await page.getByRole('tab', { name: 'Fee plans' }).click();
    const schedule = page.getByRole('form', { name: 'Fee schedule' });
    const table = schedule.getByRole('table', { name: 'Fee schedule' });
    await expect(table.getByRole('row', { name: /Tier 3 .* 0\.90 % 0\.45 %/ })).toBeVisible();
    try {
      await schedule.getByRole('button', { name: 'Edit schedule' }).click();
      const tierThreeInstant = schedule.getByRole('textbox', { name: 'Tier 3 instant fee' });
      await expect(tierThreeInstant).toHaveValue('0.90');
      // Tier 3 dearer than Tier 2, and no reason: each said beside its field, nothing saved.
      await tierThreeInstant.fill('1.20');
      await schedule.getByRole('button', { name: 'Save schedule' }).click();
      await expect(schedule.getByText(ADMIN_TRADING_TEXTS.reason)).toBeVisible();
      await schedule.getByRole('textbox', { name: 'Reason for the change' }).fill('Tier 3 promotion ends');
      await schedule.getByRole('button', { name: 'Save schedule' }).click();
      await expect(schedule.getByText(ADMIN_TRADING_TEXTS.scheduleAboveLowerTier)).toBeVisible();
      await saveScreenshots('admin-trading-fee-schedule-refused');

      // Only customers in Tier 3 (£100,001 to £250,000 this year) pay it: no other story's customer does.
      await tierThreeInstant.fill('0.85');
      await schedule.getByRole('button', { name: 'Save schedule' }).click();
      await expect(toast(page, ADMIN_TRADING_TEXTS.scheduleSaved)).toBeVisible();
      await expect(table.getByRole('row', { name: /Tier 3 .* 0\.85 % 0\.45 %/ })).toBeVisible();
      await expect(schedule.getByRole('button', { name: 'Edit schedule' })).toBeVisible();
      const fees = await page.request.get('/api/v1/fees');
      const published = (await fees.json()) as { trading: { tier: number; instant_percent: string }[] };
      expect(published.trading.find((row) => row.tier === 3)?.instant_percent).toBe('0.85');
      await saveScreenshots('admin-trading-fee-schedule');

      // A second edit at once starts from the saved schedule, not from the revision the page first read.
      await schedule.getByRole('button', { name: 'Edit schedule' }).click();
      await expect(tierThreeInstant).toHaveValue('0.85');
      await tierThreeInstant.fill('0.90');
      await schedule.getByRole('textbox', { name: 'Reason for the change' }).fill('Tier 3 promotion over');
      await schedule.getByRole('button', { name: 'Save schedule' }).click();
      await expect(toast(page, ADMIN_TRADING_TEXTS.scheduleSaved).last()).toBeVisible();
      await expect(table.getByRole('row', { name: /Tier 3 .* 0\.90 % 0\.45 %/ })).toBeVisible();
      await expect(toast(page, ADMIN_TRADING_TEXTS.changedMeanwhile)).toHaveCount(0);
      expect(consoleErrors).toEqual([]);
    } finally {
      await restoreSchedule(page.request);
    }
  });

  test('finance caps BTC’s fee and disables its sells, gives a customer a Custom fee plan, and sees the house’s position', async ({
    page,
    api,
    signUp,
    signIn,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    const customer = await signUp();
    await signIn(api, customer);
    const { id: customerId } = await currentUser(api);
    const before = await btcTerms(api);
    expect(before.btc).toMatchObject({ can_sell: true });
    expect(before.btc?.fee_percent).not.toBe('0.25');

    await signInStaff(page, await staffMember('finance'));
    const coinsAnswer = await page.request.get('/api/admin/trading/coins');
    const original = ((await coinsAnswer.json()) as { data: AdminCoin[] }).data.find(
      (coin) => coin.coin_id === 'btc',
    )!;
    try {
      await page
        .getByRole('navigation', { name: 'Back office' })
        .getByRole('link', { name: 'Trading settings' })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: 'Trading settings' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Coins', selected: true })).toBeVisible();

      await page.getByRole('button', { name: 'BTC Bitcoin' }).click();
      const btc = page.getByRole('form', { name: 'BTC settings' });
      const platformFee = btc.getByRole('textbox', { name: 'Platform fee' });
      await expect(platformFee).toHaveValue('');
      await expect(btc.getByRole('textbox', { name: 'Ask spread' })).toHaveValue(original.ask_spread);

      // A refused value says why and saves nothing.
      await platformFee.fill('150');
      await btc.getByRole('button', { name: 'Save BTC settings' }).click();
      await expect(btc.getByText(ADMIN_TRADING_TEXTS.optionalPercent)).toBeVisible();
      expect((await btcTerms(api)).btc?.fee_percent).toBe(before.btc?.fee_percent);

      await platformFee.fill('0.25');
      await btc.getByRole('switch', { name: 'Disable sell' }).click();
      await expect(btc.getByRole('switch', { name: 'Disable sell' })).toBeChecked();
      await btc.getByRole('button', { name: 'Save BTC settings' }).click();
      await expect(toast(page, ADMIN_TRADING_TEXTS.coinSaved)).toBeVisible();
      const btcHeader = page.getByRole('button', { name: 'BTC Bitcoin' });
      await expect(btcHeader).toContainText('Sell off');
      await expect(btcHeader).toContainText('Fee cap 0.25 %');
      // The customer's next quote: the capped fee, and no selling.
      expect(await btcTerms(api)).toMatchObject({ btc: { fee_percent: '0.25', can_sell: false } });
      await saveScreenshots('admin-trading-coins');

      await page.getByRole('tab', { name: 'Currencies' }).click();
      await expect(page.getByRole('form', { name: 'GBP · British Pound' })).toBeVisible();
      await expect(
        page
          .getByRole('form', { name: 'GBP · British Pound' })
          .getByRole('textbox', { name: 'Minimum withdrawal' }),
      ).toHaveValue(/^\d+\.\d{2}$/);
      await saveScreenshots('admin-trading-currencies');

      // Someone else saves USD while the form is open: this form's save is refused and shows their values.
      const usdForm = page.getByRole('form', { name: 'USD · US Dollar' });
      const usd = await adminCurrency(page.request, 'USD');
      await expect(usdForm.getByRole('textbox', { name: 'Minimum withdrawal' })).toHaveValue(
        usd.withdraw_min,
      );
      try {
        await saveCurrency(page.request, 'USD', { ...usd, withdraw_min: '26.00' });
        await usdForm.getByRole('textbox', { name: 'Withdrawal fee' }).fill('4.00');
        await usdForm.getByRole('button', { name: 'Save USD settings' }).click();
        await expect(toast(page, ADMIN_TRADING_TEXTS.changedMeanwhile)).toBeVisible();
        await expect(usdForm.getByRole('textbox', { name: 'Minimum withdrawal' })).toHaveValue('26.00');
        await expect(usdForm.getByRole('textbox', { name: 'Withdrawal fee' })).toHaveValue(usd.withdraw_fee);
        await saveScreenshots('admin-trading-currency-conflict');
        expect(await adminCurrency(page.request, 'USD')).toMatchObject({ withdraw_fee: usd.withdraw_fee });
      } finally {
        await saveCurrency(page.request, 'USD', usd);
      }

      await page.getByRole('tab', { name: 'Fee plans' }).click();
      const schedule = page.getByRole('table', { name: 'Fee schedule' });
      await expect(schedule.getByRole('row', { name: /Tier 1 .* 1\.39 % 0\.75 %/ })).toBeVisible();
      const plan = page.getByRole('form', { name: 'Set a Custom plan' });
      await plan.getByRole('textbox', { name: 'Customer id' }).fill(String(customerId));
      await plan.getByRole('textbox', { name: 'Custom fee' }).fill('0.2');
      await plan.getByRole('button', { name: 'Save fee plan' }).click();
      await expect(plan.getByText(ADMIN_TRADING_TEXTS.reason)).toBeVisible();
      await plan.getByRole('textbox', { name: 'Reason' }).fill('Partner account: agreed rate');
      await plan.getByRole('button', { name: 'Save fee plan' }).click();
      await expect(toast(page, ADMIN_TRADING_TEXTS.customPlanSet)).toBeVisible();
      const customers = page.getByRole('table', { name: 'Customers on a Custom plan' });
      await expect(customers.getByRole('row').filter({ hasText: customer.email })).toContainText('0.2 %');
      // Below BTC's 0.25 % cap: the customer now pays their own 0.2 % on it.
      expect((await btcTerms(api)).btc?.fee_percent).toBe('0.2');
      await saveScreenshots('admin-trading-fee-plans');

      await page.getByRole('tab', { name: 'House position' }).click();
      const position = page.getByRole('table', { name: 'House position' });
      await expect(position.getByRole('row', { name: /^BTC / })).toBeVisible();
      await expect(position.getByRole('row', { name: /^GBP / })).toContainText('£1.00');
      await expect(position.getByRole('row', { name: /^Total/ })).toContainText('£');
      await saveScreenshots('admin-trading-position');

      // Back as it was, on screen.
      await page.getByRole('tab', { name: 'Coins' }).click();
      await page.getByRole('button', { name: 'BTC Bitcoin' }).click();
      await btc.getByRole('textbox', { name: 'Platform fee' }).fill('');
      await btc.getByRole('switch', { name: 'Disable sell' }).click();
      await btc.getByRole('button', { name: 'Save BTC settings' }).click();
      await expect(page.getByRole('button', { name: 'BTC Bitcoin' })).not.toContainText('Sell off');
      await expect(page.getByRole('button', { name: 'BTC Bitcoin' })).not.toContainText('Fee cap');
      expect((await btcTerms(api)).btc).toMatchObject({ can_sell: true });
      expect(consoleErrors).toEqual([]);
    } finally {
      await restoreCoin(page.request, original);
    }
  });
});
