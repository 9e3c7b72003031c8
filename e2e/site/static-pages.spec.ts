import { trimZeros } from '@florin/domain';
import type { Locator, Page } from '@playwright/test';
import { screenAmount } from '../dashboard/dashboard-actions.js';
import { expect, test, waitForHydration } from '../fixtures.js';
import {
  JURISDICTIONS,
  STATIC_PAGES,
  type AssetFees,
  type Fees,
  type PublicCoins,
} from './static-pages.data.js';

/**
 * The page's own formats, worked out independently from the decimal strings
 * (never through a JS number): `£5.00`, `0.0005 BTC`, `200,000 XRP`, `£50,001`.
 */
// As en-GB writes them: a bare $ would be ambiguous to a UK reader.
const FIAT_SYMBOLS: Record<string, string> = { GBP: '£', EUR: '€', USD: 'US$' };
function fiat(value: string, currency: string): string {
  expect(value, `${value} has more than 2 decimals`).toMatch(/^\d+(\.\d{0,2}0*)?$/);
  return `${FIAT_SYMBOLS[currency] ?? currency}${screenAmount(value, 2)}`;
}
function coin(value: string, asset: string): string {
  const trimmed = trimZeros(value);
  return `${screenAmount(trimmed, trimmed.split('.')[1]?.length ?? 0)} ${asset}`;
}
function amountOf(fees: AssetFees, value: string): string {
  return fees.kind === 'fiat' ? fiat(value, fees.asset) : coin(value, fees.asset);
}
function wholePounds(value: string): string {
  return fiat(value, 'GBP').replace(/\.00$/, '');
}

/** The row of a table whose row header is exactly `header`. */
function rowOf(table: Locator, header: string): Locator {
  return table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name: header, exact: true }) });
}

/**
 * Opens a page and waits for React to take it over: the page arrives drawn, but its scripts load after the
 * first paint, which on a machine busy with other work can take longer than an assertion's usual 5 s.
 */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await waitForHydration(page);
}

async function scrollTo(page: Page, y: number): Promise<void> {
  await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
}

/** The main content's heading levels, in document order. */
async function headingLevels(page: Page): Promise<number[]> {
  return page
    .getByRole('main')
    .locator('h1, h2, h3, h4, h5, h6')
    .evaluateAll((headings) => headings.map((heading) => Number(heading.tagName.slice(1))));
}

test.describe('the static pages', () => {
  // Screenshots at two widths and a live price feed: more than the default 30 s when the machine is busy.
  test.describe.configure({ timeout: 90_000 });

  for (const staticPage of STATIC_PAGES) {
    test(`a visitor opens ${staticPage.path} and sees its heading, text, title and description`, async ({
      page,
      browser,
      baseURL,
      consoleErrors,
    }) => {
      await open(page, staticPage.path);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1 })).toHaveText(staticPage.heading);
      await expect(main.getByText(staticPage.text).first()).toBeVisible();
      await expect(page).toHaveTitle(`${staticPage.heading} · Florin`);
      // The page's own description, in index.html's tag (PageMeta).
      const description = page.locator('head meta[name="description"]');
      await expect(description).toHaveAttribute('content', /^\w.{60,}\.$/);
      const pageDescription = await description.getAttribute('content');

      // Sent drawn (apps/web/src/prerender.tsx): a crawler, or a phone still waiting for the scripts, reads the
      // same heading, text, title and description without running any.
      const withoutScripts = await browser.newContext({ baseURL, javaScriptEnabled: false });
      const drawn = await withoutScripts.newPage();
      await drawn.goto(staticPage.path);
      await expect(drawn.getByRole('heading', { level: 1 })).toHaveText(staticPage.heading);
      if (!('fromApi' in staticPage)) await expect(drawn.getByText(staticPage.text).first()).toBeVisible();
      await expect(drawn).toHaveTitle(`${staticPage.heading} · Florin`);
      await expect(drawn.locator('head meta[name="description"]')).toHaveAttribute(
        'content',
        pageDescription ?? '',
      );
      await withoutScripts.close();

      await expect(main.getByRole('link', { name: 'Back', exact: true })).toBeVisible();
      // One h1, and no level skipped on the way down.
      const levels = await headingLevels(page);
      expect(levels.filter((level) => level === 1)).toHaveLength(1);
      const skips = levels.filter((level, index) => index > 0 && level - (levels[index - 1] ?? 0) > 1);
      expect(skips, 'skipped heading levels').toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  }

  test('the terms state the constants of the spec and define its terms', async ({
    page,
    consoleErrors,
    saveScreenshots,
  }) => {
    await open(page, '/terms');
    const main = page.getByRole('main');
    await expect(main.locator('dt')).toHaveText([
      'Funds',
      'Legal Tender',
      'Account',
      'Digital Asset',
      'E-Wallet',
      'E-Money',
      'E-Currency Transaction',
      'Business day',
    ]);
    for (const text of [
      'be at least 18 years old',
      'not use our services from a restricted location',
      'complete our identity verification',
      'An instruction we receive after 4:45 pm GMT on a business day, or on a day that is not a business day, counts as received on the next business day.',
      'A purchase instruction cannot be withdrawn once you have confirmed it.',
      'in any case within 1 month of the date of the transaction',
      'within 3 business days of your report',
      'You bear the first £250 of losses from transactions made with lost or stolen sign-in details.',
      'you have 60 days to move your assets out',
      "We may also terminate your Account for any other reason by giving you 1 month's notice.",
      'We may refuse to open an Account, and we may suspend or terminate your Account',
      'Our services are not regulated by the financial regulator',
      'is not covered by the compensation scheme',
    ]) {
      await expect(main).toContainText(text);
    }
    // DECISIONS.md: no sending to a person by e-mail, so no 30-day invitation.
    await expect(main).not.toContainText('30 days');
    await expect(main.getByRole('link', { name: 'permitted jurisdictions' })).toHaveAttribute(
      'href',
      '/Locations',
    );
    await saveScreenshots('static-terms');
    expect(consoleErrors).toEqual([]);
  });

  test('the privacy, GDPR and cookie pages give the retention, age, review and cookies of the spec', async ({
    page,
    consoleErrors,
    saveScreenshots,
  }) => {
    await open(page, '/privacy');
    const main = page.getByRole('main');
    for (const text of [
      'controller of the personal data described here, under the UK General Data Protection Regulation',
      'copies of your passport, national identity card or driving licence',
      'Lawful basis',
      'for 5 years after our relationship ends',
      'Children under 14 cannot consent to the processing of their personal data',
      "Information Commissioner's Office (ICO)",
      'We review this policy at least every 2 years',
    ]) {
      await expect(main).toContainText(text);
    }

    await open(page, '/GDPR');
    await expect(main.locator('dt')).toHaveText([
      'The right to be informed',
      'The right of access',
      'The right to rectification',
      'The right to erasure',
      'The right to restrict processing',
      'The right to data portability',
      'The right to object',
      'Rights about automated decisions',
      'The right to withdraw consent',
    ]);
    await expect(main).toContainText('We answer within 1 month.');

    await open(page, '/cookie');
    const cookies = main.getByRole('table');
    await expect(cookies.locator('tbody th code')).toHaveText([
      'access_token',
      'csrf_token',
      'staff_token',
      'cookie-consent',
      'florin_ref',
    ]);
    const cookieRow = (name: string) => cookies.getByRole('row').filter({ hasText: name });
    await expect(cookieRow('cookie-consent')).toContainText('Lasts: 150 days.');
    await expect(cookieRow('florin_ref')).toContainText(
      'Lasts: 14 days, and removed as soon as you register.',
    );
    await expect(cookieRow('florin_ref').getByRole('rowheader')).toContainText('Only with consent');
    await expect(cookieRow('access_token').getByRole('rowheader')).toContainText('Essential');
    await expect(main).toContainText('Nothing that is not essential is set before you choose Allow Cookies');
    await saveScreenshots('static-cookie');
    expect(consoleErrors).toEqual([]);
  });

  test('the Locations page lists exactly the permitted jurisdictions, in their groups', async ({
    page,
    consoleErrors,
    saveScreenshots,
  }) => {
    await open(page, '/Locations');
    const table = page.getByRole('main').getByRole('table');
    for (const [group, names] of Object.entries(JURISDICTIONS)) {
      await expect(table.getByTestId(`jurisdictions-${group}`).getByRole('rowheader')).toHaveText([...names]);
    }
    await expect(table.getByRole('rowheader')).toHaveCount(35);
    await expect(rowOf(table, 'United Kingdom')).toContainText('United Kingdom (primary)');
    await expect(rowOf(table, 'Norway')).toContainText('Non-EU');
    await saveScreenshots('static-locations');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('the fee and live price pages', () => {
  // Screenshots at two widths and a live price feed: more than the default 30 s when the machine is busy.
  test.describe.configure({ timeout: 90_000 });

  test('the fees page shows what the server charges: /api/v1/fees and /api/crypto/coins', async ({
    page,
    api,
    consoleErrors,
    saveScreenshots,
  }) => {
    const fees = (await (await api.get('/api/v1/fees')).json()) as Fees;
    const coins = (await (await api.get('/api/crypto/coins')).json()) as PublicCoins;
    expect(fees.assets.map((asset) => asset.asset)).toEqual(
      expect.arrayContaining(['GBP', 'BTC', 'LTC', 'ETH', 'BCH', 'XRP']),
    );

    await open(page, '/fees');
    const main = page.getByRole('main');
    const deposits = main.getByRole('table', { name: 'Deposits' });
    const withdrawals = main.getByRole('table', { name: 'Withdrawals' });
    // Two API calls first; a machine busy with other work can take a while.
    await expect(withdrawals).toBeVisible({ timeout: 15_000 });
    for (const asset of fees.assets) {
      await expect(rowOf(deposits, asset.asset).getByRole('cell')).toHaveText(['Free', 'None', 'None']);
      const withdrawal = rowOf(withdrawals, asset.asset).getByRole('cell');
      const fee =
        amountOf(asset, asset.withdraw_fee) +
        (asset.withdraw_fee_free_from ? `Free from ${amountOf(asset, asset.withdraw_fee_free_from)}` : '');
      await expect(withdrawal).toHaveText([
        fee,
        amountOf(asset, asset.withdraw_min),
        asset.withdraw_max === null ? 'None' : amountOf(asset, asset.withdraw_max),
      ]);
    }
    // Spec 002 §9's figures, as the seeded settings give them.
    await expect(rowOf(withdrawals, 'GBP')).toContainText('£5.00');
    await expect(rowOf(withdrawals, 'GBP')).toContainText('£25.00');
    await expect(rowOf(withdrawals, 'BTC')).toContainText('0.0005 BTC');
    await expect(rowOf(withdrawals, 'XRP')).toContainText('20 XRP');
    await expect(main.getByText('Fiat withdrawals take up to 3 business days.')).toBeVisible();

    const schedule = main.getByRole('table', { name: 'Fee schedule' });
    for (const tier of fees.trading) {
      await expect(rowOf(schedule, `Tier ${tier.tier}`).getByRole('cell')).toHaveText([
        `${wholePounds(tier.volume_from)} to ${wholePounds(tier.volume_to)}`,
        `${tier.instant_percent}%`,
        `${tier.trading_percent}%`,
      ]);
    }
    await expect(rowOf(schedule, 'Custom')).toContainText('Above £1,000,000');
    await expect(main).toContainText('trading account fees start at 0.35%');

    const pairs = main.getByRole('table', { name: 'Fees and limits per pair' });
    await expect(pairs.getByRole('rowheader')).toHaveText(
      Object.keys(coins).map((id) => `${id.toUpperCase()}/GBP`),
    );
    for (const [id, limits] of Object.entries(coins)) {
      const asset = id.toUpperCase();
      await expect(rowOf(pairs, `${asset}/GBP`).getByRole('cell')).toHaveText([
        limits.platform_fee === null ? 'The schedule above' : /./,
        coin(limits.amount_min, asset),
        limits.amount_max === null ? 'None' : coin(limits.amount_max, asset),
      ]);
    }
    await expect(main.getByText('Maximums per single trade exist to limit price slippage.')).toBeVisible();
    await saveScreenshots('static-fees');
    expect(consoleErrors).toEqual([]);
  });

  test('the fees page shows a spinner while it loads and an error it can retry', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A 5xx is retried once (app/query-client.ts): the first two answers fail, the first of them late.
    let failures = 0;
    await page.route('**/api/v1/fees', async (route) => {
      failures += 1;
      if (failures > 2) return route.continue();
      if (failures === 1) await held;
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":"UNAVAILABLE"}' });
    });
    await open(page, '/fees');
    const main = page.getByRole('main');
    await expect(main.getByRole('status', { name: 'Loading fees' })).toBeVisible();
    release();
    await expect(main.getByRole('alert')).toContainText('The fees could not be loaded');
    await main.getByRole('button', { name: 'Try again' }).click();
    await expect(main.getByRole('table', { name: 'Withdrawals' })).toBeVisible();
    await expect(main.getByRole('alert')).toHaveCount(0);
  });

  test('About us says what the trading account’s fees start at, from the schedule the server charges', async ({
    page,
  }) => {
    await open(page, '/about-us');
    const traders = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Traders' });
    await expect(traders).toContainText('with fees starting at 0.35%.');
    // Should finance lower the top tier's trading fee, the page says so: the figure is the fees API's.
    await page.route('**/api/v1/fees', async (route) => {
      const response = await route.fetch();
      const fees = (await response.json()) as Fees;
      const top = fees.trading.length - 1;
      fees.trading = fees.trading.map((tier, index) =>
        index === top ? { ...tier, trading_percent: '0.30' } : tier,
      );
      await route.fulfill({ response, json: fees });
    });
    await open(page, '/about-us');
    await expect(traders).toContainText('with fees starting at 0.30%.');
    // When the fees cannot be read, it points to the fees page rather than guess a figure.
    await page.unroute('**/api/v1/fees');
    await page.route('**/api/v1/fees', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":"UNAVAILABLE"}' }),
    );
    await open(page, '/about-us');
    await expect(traders).toContainText('with fees as shown on our fees page.');
  });

  test('the live prices page lists every active coin with moving GBP prices and a way to trade', async ({
    page,
    api,
    consoleErrors,
    saveScreenshots,
  }) => {
    const feed = (await (await api.get('/crypto/price-feed')).json()) as Record<
      string,
      { coin: { name: string } }
    >;
    await open(page, '/live-crypto-prices');
    const table = page.getByRole('main').getByRole('table', { name: 'Live prices in pounds sterling' });
    await expect(table.locator('tbody tr')).toHaveCount(Object.keys(feed).length, { timeout: 15_000 });
    for (const [id, item] of Object.entries(feed)) {
      const row = table.getByTestId(`price-row-${id}`);
      await expect(row.getByRole('rowheader')).toContainText(item.coin.name);
      await expect(row.getByRole('link', { name: `Trade ${item.coin.name}` })).toHaveAttribute(
        'href',
        `/user/trade?side=buy&coin=${id}`,
      );
    }
    // The stream's ticks fill the buy price and move the sell price.
    const btc = table.getByTestId('price-row-btc');
    await expect(btc.getByTestId('price-buy')).toHaveText(/^£[\d,]+\.\d{2}$/, { timeout: 10_000 });
    const first = await btc.getByTestId('price-sell').textContent();
    await expect(btc.getByTestId('price-sell')).not.toHaveText(first ?? '', { timeout: 15_000 });
    await expect(page.getByRole('main').getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/register',
    );
    await saveScreenshots('static-live-prices');
    // On a phone the Trade link sits under the coin's name, in view without scrolling sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(btc.getByRole('link', { name: 'Trade Bitcoin' })).toBeInViewport();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('moving around the static pages', () => {
  // Screenshots at two widths: more than the default 30 s when the machine is busy.
  test.describe.configure({ timeout: 90_000 });

  test('the back arrow returns to the page the visitor came from', async ({ page, consoleErrors }) => {
    await open(page, '/home');
    await page
      .getByRole('contentinfo')
      .getByRole('navigation', { name: 'Legal' })
      .getByRole('link', { name: 'Fees' })
      .click();
    await expect(page).toHaveURL(/\/fees$/);
    await page.getByRole('main').getByRole('link', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/\/home$/);

    await open(page, '/about-us');
    await page.getByRole('main').getByRole('link', { name: 'permitted jurisdictions' }).click();
    await expect(page).toHaveURL(/\/Locations$/);
    await page.getByRole('main').getByRole('link', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/\/about-us$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About us');
    expect(consoleErrors).toEqual([]);
  });

  test('the back arrow of a page opened directly leads home', async ({ page, consoleErrors }) => {
    await open(page, '/risk-summary');
    await page.getByRole('main').getByRole('link', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Florin' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('the scroll-to-top arrow appears after 300 px and brings the page back to the top', async ({
    page,
    consoleErrors,
    saveScreenshots,
  }) => {
    await open(page, '/privacy');
    const toTop = page.getByRole('button', { name: 'Scroll to top' });
    await expect(toTop).toHaveCount(0);
    await scrollTo(page, 250);
    await expect(toTop).toHaveCount(0);
    await scrollTo(page, 900);
    await expect(toTop).toBeVisible();
    await expect(toTop).toBeInViewport();
    await saveScreenshots('static-privacy');

    await toTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(toTop).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeFocused();

    // With the keyboard too.
    await scrollTo(page, 1200);
    await expect(toTop).toBeVisible();
    await toTop.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  test('the static pages fit a 375 px phone screen without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    for (const staticPage of STATIC_PAGES) {
      await open(page, staticPage.path);
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${staticPage.path} scrolls sideways`).toBe(0);
    }
  });
});

test.describe('the static pages before the cookie choice', () => {
  test.use({ cookieConsent: null });

  test('the scroll-to-top arrow sits above the cookie bar, not over its buttons', async ({ page }) => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await open(page, '/terms');
      const bar = page.getByRole('region', { name: 'Cookie consent' });
      await expect(bar).toBeVisible();
      await scrollTo(page, 1000);
      const toTop = page.getByRole('button', { name: 'Scroll to top' });
      await expect(toTop).toBeInViewport();
      const [arrow, barBox] = [await toTop.boundingBox(), await bar.boundingBox()];
      expect(arrow && barBox && arrow.y + arrow.height <= barBox.y, `at ${width} px`).toBe(true);
    }
  });
});
