import { UNATTENDED_HEADER } from '@florin/contracts';
import type { Page, Request } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';

/** The next time the house's position refreshes itself (every 10 seconds while its tab is open). */
function nextInventoryRequest(page: Page): Promise<Request> {
  return page.waitForRequest(
    (request) =>
      request.method() === 'GET' && new URL(request.url()).pathname === '/api/admin/trading/inventory',
  );
}

test.describe('the back office: an unattended screen', () => {
  test('a page refreshing itself a minute after anyone touched it says so, so it does not keep the staff session open', async ({
    page,
    staffMember,
    signInStaff,
    consoleErrors,
  }) => {
    // The browser's own clock, so a minute passes at once; the server's stays real.
    await page.clock.install();
    await signInStaff(page, await staffMember('finance'));
    // The tab's first load is not a refresh: it is awaited before the refreshes are watched.
    const firstLoad = nextInventoryRequest(page);
    await page.goto('/admin/trading-settings?tab=position');
    await (await firstLoad).response();
    await expect(page.getByRole('heading', { level: 1, name: 'Trading settings' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'House position', selected: true })).toBeVisible();

    // Someone just opened it: its refreshes count as their activity.
    const attended = nextInventoryRequest(page);
    await page.clock.fastForward(10_000);
    expect((await attended).headers()[UNATTENDED_HEADER]).toBeUndefined();

    // Nobody has touched it for over a minute: the refresh is marked unattended.
    const unattended = nextInventoryRequest(page);
    await page.clock.fastForward('01:05');
    expect((await unattended).headers()[UNATTENDED_HEADER]).toBe('1');

    // A key pressed: the member is back, and so are their refreshes.
    await page.getByRole('tab', { name: 'House position' }).press('Tab');
    const back = nextInventoryRequest(page);
    await page.clock.fastForward(10_000);
    expect((await back).headers()[UNATTENDED_HEADER]).toBeUndefined();
    expect(consoleErrors).toEqual([]);
  });
});
