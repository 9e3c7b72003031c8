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

/** The seven questions of the Source of Wealth and Experience form, each answered. */
export async function answerWealthQuestions(page: Page): Promise<void> {
  await page
    .getByLabel('How much do you plan to invest at first?')
    .selectOption({ label: '£5,000 – £15,000' });
  await page.getByLabel('What is your annual income?').selectOption({ label: '£50,000 – £100,000' });
  await page.getByLabel('What is your net worth?').selectOption({ label: '£250,000 – £1,000,000' });
  await page.getByLabel('What is your investment portfolio worth?').selectOption({ label: 'Under £10,000' });
  await page
    .getByLabel('Where does most of your wealth come from?')
    .selectOption({ label: 'Employment income' });
  await page.getByLabel('How long have you been investing?').selectOption({ label: '1 – 3 years' });
  await page.getByLabel('How many investment trades do you make?').selectOption({ label: '1 – 5 a month' });
}
