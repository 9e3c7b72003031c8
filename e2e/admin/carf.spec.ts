import fs from 'node:fs';
import { CARF_CSV_COLUMNS, CARF_TEXTS } from '@florin/contracts';
import { expect, test } from '../admin-fixtures.js';
import { parseCsv } from '../dashboard/dashboard-actions.js';

test.describe('the back office: HMRC cryptoasset reporting', () => {
  // Staff sign-in waits for a fresh 30-second code.
  test.describe.configure({ timeout: 120_000 });

  test('a finance officer opens Reports, chooses the calendar year and downloads the CARF file', async ({
    page,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await signInStaff(page, await staffMember('finance'));
    // /admin first takes finance to the customer search; the navigation is used once it has.
    await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Reports' })
      .click();
    await expect(page).toHaveURL(/\/admin\/reports$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    const section = page.getByRole('region', { name: CARF_TEXTS.carfHeading });
    await expect(section.getByText(CARF_TEXTS.carfIntro)).toBeVisible();
    await expect(section.getByText(CARF_TEXTS.carfAudit)).toBeVisible();

    const year = String(new Date().getUTCFullYear());
    const select = section.getByRole('combobox', { name: CARF_TEXTS.yearLabel });
    await select.selectOption(year);
    await expect(select).toHaveValue(year);
    const link = section.getByRole('link', { name: CARF_TEXTS.exportCarf });
    await expect(link).toHaveAttribute('href', `/api/admin/reports/carf?year=${year}`);
    await saveScreenshots('admin-reports');

    const download = page.waitForEvent('download');
    await link.click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`florin-carf-${year}.csv`);
    const [header] = parseCsv(fs.readFileSync(await file.path(), 'utf8'));
    expect(header).toEqual([...CARF_CSV_COLUMNS]);

    expect(consoleErrors).toEqual([]);
  });

  test('support does not see the Reports screen', async ({ page, staffMember, signInStaff }) => {
    await signInStaff(page, await staffMember('support'));
    const nav = page.getByRole('navigation', { name: 'Back office' });
    await expect(nav.getByRole('link', { name: 'Customers' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Reports' })).toHaveCount(0);
    await page.goto('/admin/reports');
    await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
  });
});
