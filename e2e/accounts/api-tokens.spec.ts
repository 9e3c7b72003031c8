import {
  ACCOUNT_TEXTS,
  API_TOKEN_PERMISSION_HINTS,
  API_TOKEN_TEXTS,
  BalancesSchema,
  TRADING_TEXTS,
  type Quote,
} from '@florin/contracts';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { closeToasts } from '../kyc/wizard-page.js';

/** What a customer's program sends: the token as a bearer credential, and no cookie. */
function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

async function openApiTab(page: Page): Promise<void> {
  await page.goto('/user/accounts');
  await page.getByRole('tab', { name: ACCOUNT_TEXTS.apiTab, exact: true }).click();
  await expect(page.getByRole('heading', { name: API_TOKEN_TEXTS.tableTitle })).toBeVisible();
}

/** The dialog that shows a new token once: its token, read off the screen, and the dialog closed. */
async function readRevealedToken(page: Page, screenshot?: () => Promise<void>): Promise<string> {
  const reveal = page.getByRole('dialog', { name: API_TOKEN_TEXTS.generated });
  await expect(reveal).toBeVisible();
  await expect(reveal.getByText(API_TOKEN_TEXTS.shownOnce)).toBeVisible();
  await expect(reveal.getByText(API_TOKEN_TEXTS.shownOnceDetail)).toBeVisible();
  await expect(reveal.getByRole('button', { name: API_TOKEN_TEXTS.copy })).toBeVisible();
  const token = await reveal.getByLabel(API_TOKEN_TEXTS.tokenLabel).inputValue();
  expect(token).toMatch(/^flr_[A-Za-z0-9_-]{40}$/);
  if (screenshot) {
    await screenshot();
    // Through a turn to 375 px and back (the tabs become an accordion and the tab is drawn afresh), the
    // token shown only once is still there.
    await expect(reveal.getByLabel(API_TOKEN_TEXTS.tokenLabel)).toHaveValue(token);
  }
  await reveal.getByRole('button', { name: API_TOKEN_TEXTS.done }).click();
  await expect(reveal).toBeHidden();
  // Shown once: nowhere on the page any more.
  await expect(page.getByText(token)).toHaveCount(0);
  return token;
}

/** Generate Another: the permission (and allowlist) chosen in its dialog. */
async function generateAnother(page: Page, permission: string, ips?: string): Promise<void> {
  await page.getByRole('button', { name: API_TOKEN_TEXTS.generateAnother }).click();
  const dialog = page.getByRole('dialog', { name: API_TOKEN_TEXTS.anotherTitle });
  await dialog.getByRole('combobox', { name: API_TOKEN_TEXTS.permissionLabel }).click();
  await page.getByRole('option', { name: permission, exact: true }).click();
  if (ips !== undefined) await dialog.getByLabel(API_TOKEN_TEXTS.ipLabel).fill(ips);
  await dialog.getByRole('button', { name: API_TOKEN_TEXTS.generate }).click();
}

/** The table's row of the token whose masked prefix is `flr_ab12…`. */
function rowOf(page: Page, token: string): Locator {
  return page
    .getByRole('table', { name: API_TOKEN_TEXTS.tableTitle })
    .getByRole('row')
    .filter({ hasText: `${token.slice(0, 8)}…` });
}

async function balanceOf(request: APIRequestContext, token: string) {
  const response = await request.get('/api/v1/balance?percentage=true', { headers: bearer(token) });
  expect(response.status(), await response.text()).toBe(200);
  return BalancesSchema.parse(await response.json()).data[0].balances;
}

/** DD-MMM-YYYY in London, as the table shows the Created date. */
function createdToday(): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    day: '2-digit',
    month: 'short',
    year: 'numeric',
  }).formatToParts(new Date());
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('day')}-${part('month').slice(0, 3)}-${part('year')}`;
}

test.describe('API tokens on the Account page, and the API they open', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a live customer generates a READ token and reads their balance with it from a program, which may not trade; a TRADE token buys bitcoin through the API; a deleted token is struck through and refused', async ({
    signedInPage: page,
    customer,
    api,
    request,
    complianceApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await fund(api, customer.email, 'GBP', '1000.00');

    await openApiTab(page);
    await expect(page.getByText(API_TOKEN_TEXTS.empty)).toBeVisible();
    await expect(page.getByRole('button', { name: API_TOKEN_TEXTS.generateAnother })).toHaveCount(0);
    await saveScreenshots('accounts-api-empty');

    // The first token reads only. It is shown once, then listed by its first characters.
    await page.getByRole('button', { name: API_TOKEN_TEXTS.generateFirst }).click();
    const readToken = await readRevealedToken(page, () => saveScreenshots('accounts-api-token-shown'));
    const readRow = rowOf(page, readToken);
    await expect(readRow).toContainText('READ');
    await expect(readRow).toContainText(createdToday());
    await expect(readRow).toContainText(API_TOKEN_TEXTS.anyIp);
    await expect(page.getByRole('button', { name: API_TOKEN_TEXTS.generateFirst })).toHaveCount(0);

    // A program with the token, and no cookie, reads the balance, by header and by ?token=.
    const balances = await balanceOf(request, readToken);
    expect(balances.GBP?.amount).toMatch(/^1000\.0+$/);
    const byQuery = await request.get(`/api/v1/balance?token=${readToken}&percentage=true`);
    expect(byQuery.status(), await byQuery.text()).toBe(200);
    expect(BalancesSchema.parse(await byQuery.json()).data[0].balances.GBP?.amount).toBe(
      balances.GBP?.amount,
    );
    expect((await request.get('/api/v1/balance')).status()).toBe(401);

    // READ may not trade: the first step of a trade, the quote, is refused.
    const refused = await request.post('/api/v1/quotes', {
      headers: bearer(readToken),
      data: { side: 'buy', coin_id: 'btc', currency: 'gbp', quantity: '0.01' },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(API_TOKEN_TEXTS.notPermitted);

    // Generate Another, with TRADE: the program quotes and executes an instant buy.
    await generateAnother(page, 'TRADE');
    const tradeToken = await readRevealedToken(page);
    await expect(rowOf(page, tradeToken)).toContainText('TRADE');
    let quote: Quote | undefined;
    // The simulated market may still be starting: a quote needs a fresh price.
    await expect(async () => {
      const quoted = await request.post('/api/v1/quotes', {
        headers: bearer(tradeToken),
        data: { side: 'buy', coin_id: 'btc', currency: 'gbp', quantity: '0.01' },
      });
      expect(quoted.status(), await quoted.text()).toBe(200);
      quote = ((await quoted.json()) as { data: Quote }).data;
    }).toPass({ timeout: 20_000 });
    const executed = await request.post('/api/v1/order', {
      headers: bearer(tradeToken),
      form: { quote_id: quote!.id },
    });
    expect(executed.status(), await executed.text()).toBe(200);
    expect(((await executed.json()) as { message: string }).message).toBe(
      TRADING_TEXTS.transactionSuccessful,
    );
    const after = await balanceOf(request, tradeToken);
    expect(after.btc?.amount).toMatch(/^0\.010*$/);
    expect(Number(after.GBP?.amount)).toBeLessThan(1000);

    // Deleting asks first; the token is then struck through, stays listed, and stops working.
    await readRow
      .getByRole('button', { name: `${API_TOKEN_TEXTS.delete} ${readToken.slice(0, 8)}…` })
      .click();
    const confirm = page.getByRole('dialog', { name: API_TOKEN_TEXTS.deleteTitle });
    await expect(confirm).toContainText(API_TOKEN_TEXTS.deleteQuestion);
    await confirm.getByRole('button', { name: API_TOKEN_TEXTS.deleteKeep }).click();
    await expect(confirm).toBeHidden();
    await readRow.getByRole('button', { name: API_TOKEN_TEXTS.delete }).click();
    await confirm.getByRole('button', { name: API_TOKEN_TEXTS.deleteConfirm }).click();
    await expect(page.getByRole('alert').filter({ hasText: API_TOKEN_TEXTS.deleted })).toBeVisible();
    await expect(readRow).toContainText(API_TOKEN_TEXTS.deletedLabel);
    await expect(readRow.getByRole('button', { name: API_TOKEN_TEXTS.delete })).toHaveCount(0);
    await expect(readRow.getByTestId('api-token-prefix')).toHaveCSS('text-decoration-line', 'line-through');
    await expect(rowOf(page, tradeToken).getByTestId('api-token-prefix')).toHaveCSS(
      'text-decoration-line',
      'none',
    );
    const gone = await request.get('/api/v1/balance', { headers: bearer(readToken) });
    expect(gone.status()).toBe(401);
    expect(((await gone.json()) as { message: string }).message).toBe(API_TOKEN_TEXTS.tokenRefused);
    expect((await request.get(`/api/v1/balance?token=${readToken}`)).status()).toBe(401);
    // Closed as the customer would, rather than waited out: the screenshot shows the screen, not a toast.
    await closeToasts(page);
    await saveScreenshots('accounts-api-tokens');

    // At 375 px the table is a list of cards, the deleted one struck through too.
    await page.setViewportSize({ width: 375, height: 812 });
    const cards = page.getByRole('list', { name: API_TOKEN_TEXTS.tableTitle }).getByRole('listitem');
    await expect(cards).toHaveCount(2);
    const deletedCard = cards.filter({ hasText: `${readToken.slice(0, 8)}…` });
    await expect(deletedCard).toContainText(API_TOKEN_TEXTS.deletedLabel);
    await expect(deletedCard.getByTestId('api-token-prefix')).toHaveCSS(
      'text-decoration-line',
      'line-through',
    );
    await expect(
      cards
        .filter({ hasText: `${tradeToken.slice(0, 8)}…` })
        .getByRole('button', { name: API_TOKEN_TEXTS.delete }),
    ).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('on a phone, a customer chooses a permission and an IP allowlist for another token; it works only from that address', async ({
    signedInPage: page,
    request,
    complianceApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/user/accounts');
    await page.getByRole('button', { name: ACCOUNT_TEXTS.apiTab, exact: true }).click();
    await page.getByRole('button', { name: API_TOKEN_TEXTS.generateFirst }).click();
    await readRevealedToken(page);

    // The dialog's own checks, in the contract's words.
    await page.getByRole('button', { name: API_TOKEN_TEXTS.generateAnother }).click();
    const dialog = page.getByRole('dialog', { name: API_TOKEN_TEXTS.anotherTitle });
    await dialog.getByLabel(API_TOKEN_TEXTS.ipLabel).fill('not-an-address');
    await dialog.getByRole('button', { name: API_TOKEN_TEXTS.generate }).click();
    await expect(dialog.getByText(API_TOKEN_TEXTS.permissionRequired)).toBeVisible();
    await expect(dialog.getByText(API_TOKEN_TEXTS.ipInvalid)).toBeVisible();
    await dialog.getByRole('combobox', { name: API_TOKEN_TEXTS.permissionLabel }).click();
    await page.getByRole('option', { name: 'WITHDRAW SAVED ADDRESS', exact: true }).click();
    await expect(dialog.getByText(API_TOKEN_PERMISSION_HINTS[2])).toBeVisible();
    await dialog.getByLabel(API_TOKEN_TEXTS.ipLabel).fill('192.0.2.10\n198.51.100.0/24');
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshots('accounts-api-generate-another', [375]);
    await dialog.getByRole('button', { name: API_TOKEN_TEXTS.generate }).click();

    const token = await readRevealedToken(page, () => saveScreenshots('accounts-api-token-shown', [375]));
    const card = page
      .getByRole('list', { name: API_TOKEN_TEXTS.tableTitle })
      .getByRole('listitem')
      .filter({ hasText: `${token.slice(0, 8)}…` });
    await expect(card).toContainText('WITHDRAW SAVED ADDRESS');
    await expect(card).toContainText(`${API_TOKEN_TEXTS.allowedIps}: 192.0.2.10, 198.51.100.0/24`);
    await saveScreenshots('accounts-api-allowlist', [375]);

    // From this test's own address (10.x, not on the list): refused before anything else.
    const outside = await request.get('/api/v1/balance', { headers: bearer(token) });
    expect(outside.status()).toBe(403);
    expect(((await outside.json()) as { message: string }).message).toBe(API_TOKEN_TEXTS.ipNotAllowed);
    for (const address of ['192.0.2.10', '198.51.100.77']) {
      const inside = await request.get('/api/v1/balance', {
        headers: { ...bearer(token), 'x-forwarded-for': address },
      });
      expect(inside.status(), address).toBe(200);
    }
    expect(consoleErrors).toEqual([]);
  });
});
