import type { APIRequestContext, Locator } from '@playwright/test';
import { csrfHeaders } from '../fixtures.js';
import { expect, test } from '../admin-fixtures.js';
import { makeCustomerLive } from './dashboard-actions.js';

type AdminMotd = { id: string; message: string; starts_at: string; ends_at: string };

async function createMotd(
  staff: APIRequestContext,
  message: string,
  startsAt: Date,
  endsAt: Date,
): Promise<AdminMotd> {
  const response = await staff.post('/api/admin/motd', {
    data: { message, starts_at: startsAt.toISOString(), ends_at: endsAt.toISOString() },
    headers: await csrfHeaders(staff),
  });
  if (!response.ok())
    throw new Error(`POST /api/admin/motd answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as AdminMotd;
}

async function deleteMotd(staff: APIRequestContext, id: string): Promise<void> {
  await staff.delete(`/api/admin/motd/${id}`, { headers: await csrfHeaders(staff) });
}

/** The toast's progress bar value, in percent of the 60 seconds left. */
async function timeLeft(bar: Locator): Promise<number> {
  return Number(await bar.getAttribute('aria-valuenow'));
}

test.describe('the message of the day', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a signed-in customer sees the message top right, under the header, for 60 seconds, paused while they hover it, and not again in the same session', async ({
    signedInPage: page,
    complianceApi: staff,
    superadminApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    const message = `Scheduled maintenance tonight from 23:00 to 23:30 (${Date.now().toString(36)}).`;
    // Live for a few minutes only, and withdrawn at the end: every signed-in customer of the run sees it meanwhile.
    const motd = await createMotd(
      superadminApi,
      message,
      new Date(Date.now() - 60_000),
      new Date(Date.now() + 5 * 60_000),
    );
    try {
      // The product's 60 seconds, run on the test's clock instead of waited for.
      await page.clock.install();
      await page.goto('/user');
      const toast = page.getByRole('status', { name: 'Message of the day' });
      await expect(toast).toContainText(message);
      // Top right, under the header: its menus and Logout stay in reach (at 375 px the toast is as wide as the page).
      const box = await toast.boundingBox();
      const header = await page.getByRole('banner').boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeGreaterThan((page.viewportSize()?.width ?? 0) - 40);
      expect(box?.y).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
      expect(box?.y).toBeLessThan(100);
      const bar = toast.getByRole('progressbar', { name: 'Time left' });
      await saveScreenshots('dashboard-motd-toast');

      await page.clock.runFor(20_000);
      await expect.poll(() => timeLeft(bar)).toBeLessThan(70);
      expect(await timeLeft(bar)).toBeGreaterThan(50);

      await toast.hover();
      const whileHovered = await timeLeft(bar);
      await page.clock.runFor(90_000);
      await expect(toast).toBeVisible();
      expect(await timeLeft(bar)).toBeCloseTo(whileHovered, 0);

      await page.mouse.move(10, 700);
      await page.clock.runFor(30_000);
      await expect(toast).toBeVisible();
      await expect.poll(() => timeLeft(bar)).toBeLessThan(20);
      await page.clock.runFor(15_000);
      await expect(toast).toHaveCount(0);

      // Once per session: a reload does not bring it back.
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      await page.clock.runFor(2_000);
      await expect(toast).toHaveCount(0);
    } finally {
      await deleteMotd(superadminApi, motd.id);
    }
    expect(consoleErrors).toEqual([]);
  });

  test('support schedules a message in the back office, sees it listed, and deletes it', async ({
    page,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    const support = await staffMember('support');
    await signInStaff(page, support);
    await page.getByRole('link', { name: 'Message of the day' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Message of the day' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/motd$/);

    // Scheduled for next year, so no customer of this run sees it.
    const message = `Our offices close for the holiday (${Date.now().toString(36)}).`;
    await page.getByRole('textbox', { name: 'Message' }).fill(message);
    await page.getByLabel('Start (UK time)').fill('2027-12-24T09:00');
    await page.getByLabel('End (UK time)').fill('2027-12-23T09:00');
    await page.getByRole('button', { name: 'Schedule message' }).click();
    await expect(page.getByText('The end must be after the start.')).toBeVisible();

    await page.getByLabel('End (UK time)').fill('2027-12-27T17:30');
    await page.getByRole('button', { name: 'Schedule message' }).click();
    await expect(page.getByText('Message scheduled')).toBeVisible();
    const list = page.getByRole('table', { name: 'Messages of the day' });
    const row = list.getByRole('row').filter({ hasText: message });
    await expect(row).toContainText('24 December 2027, 09:00 GMT');
    await expect(row).toContainText('27 December 2027, 17:30 GMT');
    await expect(row).toContainText('Scheduled');
    await expect(row).toContainText(support.email);
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    await saveScreenshots('admin-motd');

    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete message' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(list.getByText(message)).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
