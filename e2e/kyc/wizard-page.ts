import { expect, type Page } from '@playwright/test';

/** How the verification stories read the wizard's page. */

export function toast(page: Page, title: string) {
  return page.getByRole('alert').filter({ hasText: title });
}

/** Screenshots show the step, not a toast left over from a check before it. */
export async function closeToasts(page: Page): Promise<void> {
  const toasts = page.locator('.mantine-Notification-root');
  while ((await toasts.count()) > 0) {
    // A toast may close by itself meanwhile (3 seconds): then there is nothing left to click.
    await toasts
      .first()
      .locator('button')
      .click({ timeout: 1_000 })
      .catch(() => undefined);
  }
}

export function stepHeading(page: Page, title: string) {
  return page.getByRole('heading', { level: 2, name: title });
}

export async function expectProgress(page: Page, percent: number): Promise<void> {
  await expect(page.getByRole('progressbar', { name: 'Verification progress' })).toHaveAttribute(
    'aria-valuenow',
    String(percent),
  );
}
