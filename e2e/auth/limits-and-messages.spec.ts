import { AUTH_TEXTS } from '@florin/contracts';
import type { Page } from '@playwright/test';
import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders, uniqueEmail } from '../fixtures.js';

/**
 * Issue 41: what a customer reads when a limit or a check stops them is a
 * sentence they can act on, and stays on screen; every signed-in page has
 * the header's width.
 */

const UK_TIME = /\d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} (GMT|BST)/;
const REGISTRATIONS_PER_HOUR = 10;

async function fillRegistration(page: Page): Promise<void> {
  await page.getByLabel('First Name').fill('Grace');
  await page.getByLabel('Last Name').fill('Hopper');
  await page.getByLabel('Email').fill(uniqueEmail('limited'));
  await page.getByLabel('Password', { exact: true }).fill('Compiler-Cobol-1959');
  await page.getByLabel('Confirm Password').fill('Compiler-Cobol-1959');
  await page.getByRole('checkbox', { name: /I accept the Terms/ }).check();
}

test.describe('limits and messages a customer can act on', () => {
  test('a visitor who registers too often from one address is told so and when to try again, and the message stays', async ({
    page,
    saveScreenshots,
    consoleErrors,
  }) => {
    // Ten sign-ups from this address already, as a script would make them.
    for (let index = 0; index < REGISTRATIONS_PER_HOUR; index += 1) {
      const response = await page.request.post('/api/v1/user-register', {
        data: {
          first_name: 'Grace',
          last_name: 'Hopper',
          email: uniqueEmail(`earlier-${index}`),
          password: 'Compiler-Cobol-1959',
          password_confirmation: 'Compiler-Cobol-1959',
          accept_terms_and_privacy: true,
        },
        headers: await csrfHeaders(page.request),
      });
      expect(response.status()).toBe(201);
    }

    await page.goto('/register');
    await fillRegistration(page);
    await page.getByRole('button', { name: 'Register' }).click();

    const notice = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(new RegExp(`You can try again from ${UK_TIME.source}\\.`));
    await saveScreenshots('registration-limited');
    // Long after a 3-second toast would have gone, the form still says why nothing happened.
    await page.waitForTimeout(5_000);
    await expect(notice).toBeVisible();
    await expect(page.getByRole('button', { name: 'Register' })).toBeVisible();
    // The refusal is a 429 the browser logs itself; nothing else went wrong.
    expect(consoleErrors.filter((error) => !error.includes('429'))).toEqual([]);
  });

  test('a customer following a reset link cut short by their mail app is told to ask for a new one, in plain words', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/password-reset?9f2c4e1a');

    await expect(page.getByRole('alert').filter({ hasText: AUTH_TEXTS.resetTokenInvalid })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit' })).toBeDisabled();
    await expect(page.getByText(/Too small|expected string|>=/)).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('every signed-in page lines up with the header, at 375 and 1280 px', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    test.setTimeout(120_000);
    await makeCustomerLive(page, complianceApi);
    await fund(api, customer.email, 'ETH', '1');
    const pages = [
      ['dashboard', '/user'],
      ['wallets', '/user/wallets'],
      ['term-deposit', '/user/term-deposit'],
      ['trade', '/user/trade'],
      ['account', '/user/accounts'],
      ['settings', '/user/settings'],
    ] as const;
    for (const [name, path] of pages) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      const header = await page.getByRole('banner').getByRole('link').first().boundingBox();
      const heading = await page.getByRole('main').getByRole('heading', { level: 1 }).first().boundingBox();
      // The page's own heading starts where the header's logo does: one content width everywhere.
      expect(Math.abs((heading?.x ?? -100) - (header?.x ?? 0)), `${name} at 1280 px`).toBeLessThanOrEqual(2);
      await saveScreenshots(`signed-in-${name}`);
    }
    expect(consoleErrors).toEqual([]);
  });
});
