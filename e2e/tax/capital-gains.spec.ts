import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { formatAmount, parseAmount } from '@florin/domain';
import { expect, test } from '../admin-fixtures.js';
import { fund, makeCustomerLive, screenAmount } from '../dashboard/dashboard-actions.js';
import { csrfHeaders } from '../fixtures.js';

/**
 * The capital gains report (issue 13): a customer who bought twice and sold
 * once today reads the sale matched with the day's purchases (HMRC's same-day
 * rule), what stays in their pool, and downloads the CSV. The rules
 * themselves are proven against HMRC's examples in packages/domain and
 * against a two-year history in apps/server/src/modules/tax.
 */

async function marketOrder(request: APIRequestContext, side: 'buy' | 'sell', quantity: string) {
  const response = await request.post(`/api/v1/crypto/${side}`, {
    data: { coin_id: 'btc', crypto_amount: quantity },
    headers: { ...(await csrfHeaders(request)), 'idempotency-key': `tax-e2e-${crypto.randomUUID()}` },
  });
  if (!response.ok()) throw new Error(`${side} answered ${response.status()}: ${await response.text()}`);
  const { data } = (await response.json()) as { data: { total_cost_w_fee: string } };
  return parseAmount(data.total_cost_w_fee, 'GBP');
}

const pounds = (pence: bigint) => `£${screenAmount(formatAmount(pence, 'GBP'), 2)}`;

test.describe('the capital gains report', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a customer who sold on the day they bought sees the sale matched with that day’s purchases, their pool, and downloads the CSV', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    const platform = await api.post('/dev/users/platform', {
      data: { email: customer.email, platform: 2 },
      headers: await csrfHeaders(api),
    });
    expect(platform.ok()).toBe(true);
    await fund(api, customer.email, 'GBP', '10000.00');
    const firstCost = await marketOrder(page.request, 'buy', '0.02');
    const secondCost = await marketOrder(page.request, 'buy', '0.01');
    const proceeds = await marketOrder(page.request, 'sell', '0.024');
    // The same day's 0.03 BTC are one purchase: 0.024 of them carry 4/5 of its cost, to the nearest penny.
    const bought = firstCost + secondCost;
    const cost = (2n * bought * 4n + 5n) / 10n;
    const gain = proceeds - cost;

    await page.reload();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Tax report' }).click();
    await expect(page).toHaveURL(/\/user\/tax$/);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: 'Capital gains report' })).toBeVisible();
    await expect(main.getByRole('combobox', { name: 'Tax year' })).toHaveValue('2026–27');
    await expect(main.getByText('6 Apr 2026 to 5 Apr 2027')).toBeVisible();
    await expect(main.getByText('What you hold now, and its cost.')).toBeVisible();

    const sale = main.getByRole('region', { name: /: sold 0\.024 BTC$/ });
    await expect(sale).toContainText(`Proceeds ${pounds(proceeds)} · Allowable cost ${pounds(cost)}`);
    await expect(sale.getByText(gain < 0n ? `Loss ${pounds(-gain)}` : `Gain ${pounds(gain)}`)).toBeVisible();
    await expect(sale.getByRole('table', { name: 'How it was matched' }).getByRole('row')).toHaveText([
      'Matched withQuantityCost',
      `Same day0.024 BTC${pounds(cost)}`,
    ]);
    await expect(main.getByRole('table', { name: 'Section 104 pools' }).getByRole('row')).toHaveText([
      'CoinQuantityPooled cost',
      `BTC0.006 BTC${pounds(bought - cost)}`,
    ]);
    await expect(main).toContainText('is not tax advice');

    const downloading = page.waitForEvent('download');
    await main.getByRole('link', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Florin capital gains 2026-27.csv');
    const csv = await readFile(await download.path(), 'utf8');
    const [header, row, ...rest] = csv.trim().split('\r\n');
    expect(header).toMatch(/^Date,Asset,Quantity disposed,Proceeds \(GBP\)/);
    expect(row).toContain(',BTC,0.02400000,');
    expect(row).toContain(',Same day,0.02400000,');
    expect(rest).toEqual([]);

    await page.setViewportSize({ width: 375, height: 800 });
    await expect
      .poll(() =>
        page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      )
      .toBe(0);
    await saveScreenshots('tax-capital-gains');
    expect(consoleErrors).toEqual([]);
  });

  test('a customer with no sales this tax year is told so, with the totals at nothing', async ({
    signedInPage: page,
    complianceApi: staff,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    await page.goto('/user/tax');
    const main = page.getByRole('main');
    await expect(main.getByText('You sold no crypto on Florin in this tax year.')).toBeVisible();
    await expect(main.getByRole('table', { name: 'Section 104 pools' })).toHaveCount(0);
    await expect(main.getByText('Net gain or loss')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});
