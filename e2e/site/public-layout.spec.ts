import { expect, test } from '../fixtures.js';

const RISK_WARNING =
  "Don't invest unless you're prepared to lose all the money you invest. This is a high-risk investment " +
  'and you should not expect to be protected if something goes wrong. Take 2 mins to learn more.';

const KEY_RISKS = [
  '1. You could lose all the money you invest',
  '2. You should not expect to be protected if something goes wrong',
  '3. You may not be able to sell your investment when you want to',
  '4. Cryptoasset investments can be complex',
  "5. Don't put all your eggs in one basket",
];

const LEGAL_LINKS = [
  ['Terms', '/terms'],
  ['Privacy', '/privacy'],
  ['GDPR', '/GDPR'],
  ['Cookies', '/cookie'],
  ['Fees', '/fees'],
  ['Jurisdictions', '/Locations'],
] as const;

test.describe('the public site', () => {
  test('a visitor sees the risk warning and can read the risk summary', async ({
    page,
    consoleErrors,
    saveScreenshots,
  }) => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1, name: 'Florin' })).toBeVisible();
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Florin' })).toHaveAttribute('href', '/home');
    await expect(header.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    await expect(header.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    await expect(main.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');

    const warning = page.getByRole('region', { name: 'Risk warning' });
    await expect(warning).toHaveText(RISK_WARNING);
    await saveScreenshots('home');

    await warning.getByRole('link', { name: 'Take 2 mins to learn more' }).click();
    await expect(page).toHaveURL(/\/risk-summary$/);
    await expect(page).toHaveTitle('Risk summary · Florin');
    await expect(page.getByRole('heading', { level: 1, name: 'Risk summary' })).toBeVisible();
    await expect(main.getByText('Estimated reading time: 2 min')).toBeVisible();
    await expect(
      main.getByText(
        'Due to the potential for losses, the Financial Conduct Authority (FCA) considers this investment to be high risk.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'What are the key risks?' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3 })).toHaveText(KEY_RISKS);
    await expect(main).toContainText(
      "If you are interested in learning more about how to protect yourself, visit the FCA's website.",
    );
    await expect(main.getByRole('link', { name: "visit the FCA's website" })).toHaveAttribute(
      'href',
      /^https:\/\/www\.fca\.org\.uk\//,
    );
    // The warning stays on every public page, the risk summary included.
    await expect(warning).toHaveText(RISK_WARNING);
    await saveScreenshots('risk-summary');

    expect(consoleErrors).toEqual([]);
  });

  test('the footer links to every legal page', async ({ page, consoleErrors }) => {
    await page.goto('/home');
    const footer = page.getByRole('contentinfo');
    const legal = footer.getByRole('navigation', { name: 'Legal' });
    await expect(legal.getByRole('link')).toHaveText(LEGAL_LINKS.map(([name]) => name));
    for (const [name, href] of LEGAL_LINKS) {
      await expect(legal.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(footer.getByText(`© ${new Date().getFullYear()} Florin Ltd`)).toBeVisible();
    await expect(
      footer.getByText('Florin Ltd is registered in England and Wales, company number 00000000.'),
    ).toBeVisible();

    expect(consoleErrors).toEqual([]);
  });

  test('an unknown address shows the 404 page with a way home', async ({
    page,
    api,
    consoleErrors,
    saveScreenshots,
  }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Risk warning' })).toHaveText(RISK_WARNING);
    await saveScreenshots('not-found');

    await page.getByRole('main').getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Florin' })).toBeVisible();
    expect(consoleErrors).toEqual([]);

    // The API never answers with the web app: an unknown API address is a JSON 404.
    const response = await api.get('/api/unknown');
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  test('the public pages fit a 375 px phone screen without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    for (const address of ['/home', '/risk-summary', '/no-such-page']) {
      await page.goto(address);
      await expect(page.getByRole('contentinfo')).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${address} scrolls sideways`).toBe(0);
      await expect(page.getByRole('banner').getByRole('link', { name: 'Register' })).toBeInViewport();
    }
  });
});
