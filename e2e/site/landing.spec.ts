import type { BrowserContext, Page } from '@playwright/test';
import { currentUser } from '../kyc/customer-actions.js';
import { DEFAULT_PASSWORD, expect, holdRequests, test, uniqueEmail } from '../fixtures.js';

const TICK_WAIT = { timeout: 15_000 };
const DAY_SECONDS = 86_400;

async function cookieNamed(context: BrowserContext, name: string) {
  return (await context.cookies()).find((cookie) => cookie.name === name);
}

/** Days from now until a cookie expires, rounded: 150 for the consent, 14 for the referral code. */
function daysLeft(expires: number): number {
  return Math.round((expires - Date.now() / 1000) / DAY_SECONDS);
}

async function scrollTo(page: Page, y: number): Promise<void> {
  await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
}

// A first visit: no answer to the cookie bar yet.
test.use({ cookieConsent: null });
test.describe.configure({ timeout: 90_000 });

test.describe('the landing page', () => {
  test('a visitor reads the landing page with moving prices, and the header stays in view once they scroll past 60 px', async ({
    page,
    saveScreenshots,
    consoleErrors,
  }) => {
    await page.goto('/home');
    await expect(page).toHaveTitle('Buy, sell and store crypto in pounds · Florin');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /UK crypto wallet/);
    await expect(page.getByRole('heading', { level: 1, name: 'Florin' })).toBeVisible();
    for (const heading of ['How it works', 'Why Florin', 'Florin news']) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    }
    await expect(page.getByRole('main').getByRole('listitem')).toContainText([
      'Create your account',
      'Verify your identity',
      'Add pounds and trade',
    ]);
    const siteNav = page.getByRole('banner').getByRole('navigation', { name: 'Site' });
    await expect(siteNav.getByRole('link')).toHaveText([
      'Live prices',
      'Learn crypto',
      'For business',
      'Contact',
    ]);

    const bitcoin = page.getByRole('region', { name: 'Live prices' }).getByTestId('strip-price-BTC');
    await expect(bitcoin).toHaveText(/^£\d{1,3}(,\d{3})*\.\d{2}$/);
    const before = await bitcoin.textContent();
    await expect(bitcoin).not.toHaveText(before ?? '', TICK_WAIT);

    // Spec 002 §9: the header becomes fixed after 60 px of scroll, the risk warning with it.
    const top = page.getByTestId('public-top');
    await expect(top).not.toHaveAttribute('data-fixed');
    await scrollTo(page, 40);
    await expect(top).not.toHaveAttribute('data-fixed');
    await scrollTo(page, 900);
    await expect(top).toHaveAttribute('data-fixed', 'true');
    await expect(top).toHaveCSS('position', 'fixed');
    expect((await top.boundingBox())?.y).toBe(0);
    await expect(page.getByRole('region', { name: 'Risk warning' })).toBeInViewport();
    await scrollTo(page, 0);
    await expect(top).not.toHaveAttribute('data-fixed');

    await saveScreenshots('landing');
    expect(consoleErrors).toEqual([]);
  });

  test('the page arrives drawn and styled before its scripts run, and the scripts take over that same page', async ({
    page,
    consoleErrors,
  }) => {
    // No scripts at all (a page of its own, as the refused scripts are console errors): what a phone shows
    // while they are still on their way.
    const drawn = await page.context().newPage();
    await drawn.setViewportSize({ width: 375, height: 812 });
    await drawn.route('**/assets/*.js', (route) => route.abort());
    await drawn.goto('/home');
    await expect(drawn).toHaveTitle('Buy, sell and store crypto in pounds · Florin');
    await expect(drawn.getByRole('heading', { level: 1, name: 'Florin' })).toBeVisible();
    await expect(drawn.getByRole('heading', { level: 2, name: 'How it works' })).toBeVisible();
    await expect(drawn.getByRole('region', { name: 'Risk warning' })).toBeVisible();
    // Styled by the stylesheet: the skip link is off screen until it has the focus.
    await expect(drawn.getByRole('link', { name: 'Skip to content' })).not.toBeInViewport();
    await expect(drawn.getByRole('region', { name: 'Live prices' }).getByRole('status')).toHaveText(
      'Loading prices…',
    );
    // Controls that need the scripts wait for them; the cookie bar, which depends on the visitor, is not drawn.
    await expect(drawn.getByRole('button', { name: 'Open navigation' })).toBeDisabled();
    await expect(drawn.getByRole('button', { name: 'Subscribe' })).toBeDisabled();
    await expect(drawn.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
    await drawn.close();

    // With the scripts, held back until the drawn page has been looked at (and scrolled), React adopts that page
    // rather than drawing another, and leaves the scroll where the visitor took it.
    await page.setViewportSize({ width: 375, height: 812 });
    const releaseScripts = await holdRequests(page, '**/assets/*.js');
    await page.goto('/home', { waitUntil: 'commit' });
    const hero = page.getByRole('heading', { level: 1, name: 'Florin' });
    const subscribe = page.getByRole('button', { name: 'Subscribe' });
    await expect(subscribe).toBeDisabled();
    await hero.evaluate((element) => {
      (window as unknown as { drawnHero: Element }).drawnHero = element;
    });
    await scrollTo(page, 500);
    const howItWorks = page.getByRole('heading', { level: 2, name: 'How it works' });
    const drawnAt = await howItWorks.evaluate((element) => element.getBoundingClientRect().top);
    releaseScripts();
    await expect(subscribe).toBeEnabled();
    expect(
      await hero.evaluate((element) => element === (window as unknown as { drawnHero: Element }).drawnHero),
    ).toBe(true);
    await expect(page.getByTestId('public-top')).toHaveAttribute('data-fixed', 'true');
    expect(await howItWorks.evaluate((element) => element.getBoundingClientRect().top)).toBe(drawnAt);
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Live prices' }).getByTestId('strip-price-BTC')).toHaveText(
      /^£[\d,]+\.\d{2}$/,
    );
    expect(consoleErrors).toEqual([]);
  });

  test('on a phone the site pages sit behind the menu button and the page does not scroll sideways', async ({
    page,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/home');
    const header = page.getByRole('banner');
    await expect(header.getByRole('navigation', { name: 'Site' })).toBeHidden();
    await header.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('menuitem', { name: 'Learn crypto' }).click();
    await expect(page).toHaveURL(/\/LearnCrypto$/);
    await page.goto('/home');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('the cookie consent bar', () => {
  test('a visitor who declines cookies is not asked again, and no referral code is kept for them', async ({
    page,
    signUp,
    signIn,
    saveScreenshots,
    consoleErrors,
  }) => {
    const referrer = await signUp();
    await signIn(page.request, referrer);
    const { referral_code } = await currentUser(page.request);
    await page.context().clearCookies();

    await page.goto('/home');
    const bar = page.getByRole('region', { name: 'Cookie consent' });
    await expect(bar).toBeVisible();
    await expect(bar.getByRole('link', { name: 'Cookie Policy' })).toHaveAttribute('href', '/cookie');
    await saveScreenshots('cookie-bar');
    await bar.getByRole('button', { name: 'No Thanks.' }).click();
    await expect(bar).toBeHidden();

    const consent = await cookieNamed(page.context(), 'cookie-consent');
    expect(consent?.value).toBe('deny');
    expect(daysLeft(consent?.expires ?? 0)).toBe(150);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Florin' })).toBeVisible();
    await page.goto('/login');
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);

    // The choice can be taken back from the cookie policy: the bar asks again.
    await page.goto('/cookie');
    await expect(page.getByText('You chose “No Thanks.”. To change your mind, choose again.')).toBeVisible();
    await saveScreenshots('cookie-policy-choice');
    await page.getByRole('button', { name: 'Change cookie choice' }).click();
    await expect(bar).toBeVisible();
    expect(await cookieNamed(page.context(), 'cookie-consent')).toBeUndefined();
    await bar.getByRole('button', { name: 'No Thanks.' }).click();
    await expect(bar).toBeHidden();

    // The referral link still works, by its address only: nothing non-essential is stored.
    await page.goto(`/${referral_code}`);
    await expect(page).toHaveURL(new RegExp(`/register\\?ref=${referral_code}$`), { timeout: 15_000 });
    await expect(page.getByLabel('Referral code')).toHaveValue(referral_code);
    expect(await cookieNamed(page.context(), 'florin_ref')).toBeUndefined();
    // The spec's own name for the query value works too.
    await page.goto(`/register?referral_code=${referral_code}`);
    await expect(page.getByLabel('Referral code')).toHaveValue(referral_code);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('referral links', () => {
  test('a visitor follows a referral link to a prefilled registration; with cookies allowed the code is kept for 14 days and dropped once they register', async ({
    page,
    signUp,
    signIn,
    saveScreenshots,
    consoleErrors,
  }) => {
    const referrer = await signUp();
    await signIn(page.request, referrer);
    const { referral_code } = await currentUser(page.request);
    await page.context().clearCookies();

    await page.goto(`/${referral_code}`);
    await expect(page).toHaveURL(new RegExp(`/register\\?ref=${referral_code}$`), { timeout: 15_000 });
    await expect(page.getByLabel('Referral code')).toHaveValue(referral_code);
    expect(await cookieNamed(page.context(), 'florin_ref')).toBeUndefined();
    await page
      .getByRole('region', { name: 'Cookie consent' })
      .getByRole('button', { name: 'Allow Cookies' })
      .click();
    const kept = await cookieNamed(page.context(), 'florin_ref');
    expect(kept?.value).toBe(referral_code);
    expect(daysLeft(kept?.expires ?? 0)).toBe(14);
    await saveScreenshots('referral-registration');

    // The visitor wanders off and comes back to register later: the code is still there.
    await page.goto('/home');
    await page.getByRole('main').getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByLabel('Referral code')).toHaveValue(referral_code);

    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByLabel('Email').fill(uniqueEmail('referred'));
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByLabel('Confirm Password').fill(DEFAULT_PASSWORD);
    await page.getByRole('checkbox').check();
    const registration = page.waitForRequest(
      (request) => request.url().endsWith('/api/v1/user-register') && request.method() === 'POST',
    );
    await page.getByRole('button', { name: 'Register' }).click();
    expect(((await registration).postDataJSON() as { referral_code?: string }).referral_code).toBe(
      referral_code,
    );
    await expect(
      page.getByText(
        'Your account has been created. Please check and verify your email in order for you to proceed.',
      ),
    ).toBeVisible();
    expect(await cookieNamed(page.context(), 'florin_ref')).toBeUndefined();
    expect(consoleErrors).toEqual([]);
  });

  test('a referral link that leads nowhere shows the 404 page with a link back', async ({
    page,
    saveScreenshots,
  }) => {
    await page.goto('/NO-SUCH-CODE-123');
    await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible();
    await saveScreenshots('referral-not-found');
    await page.getByRole('main').getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });
});

test.describe('a visitor who is still signed in', () => {
  test('opening the login screen at / takes them to their dashboard, and a banner link still shows its banner', async ({
    signedInPage: page,
    consoleErrors,
  }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/user$/, { timeout: 15_000 });
    await page.goto('/login?user_verified=success');
    await expect(page.getByText('Account Successfully Verified!')).toBeVisible();
    await expect(page).toHaveURL(/\/login\?user_verified=success$/);
    expect(consoleErrors).toEqual([]);
  });
});
