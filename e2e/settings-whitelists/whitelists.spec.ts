import net from 'node:net';
import { AUTH_TEXTS, ERROR_CODES, WHITELIST_TEXTS } from '@florin/contracts';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { closeToasts } from '../kyc/wizard-page.js';
import { csrfHeaders, enableTwoFactor, solveCaptcha, submitLoginForm, type Customer } from '../fixtures.js';

/** A real Bitcoin address (its checksum is right), as the brief of issue 8 gives it. */
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
/** XRP's genesis account: a well-formed address with a valid checksum. */
const XRP_ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

/**
 * Sets the customer's authenticator up anew: off with a recovery code, on with a new secret. The server takes
 * one code per 30-second step and three steps at a time, so four more codes would wait a minute and a half;
 * a new setup starts its own steps, and the whitelist stays as it is.
 */
async function setUpAuthenticatorAgain(request: APIRequestContext, recoveryCode: string) {
  const response = await request.post('/api/v1/two-factor-authentication/toggle', {
    data: { passcode: recoveryCode, disable_2fa: 1 },
    headers: await csrfHeaders(request),
  });
  if (!response.ok())
    throw new Error(`turning 2FA off answered ${response.status()}: ${await response.text()}`);
  return enableTwoFactor(request);
}

/** An Ethereum address of lowercase hex (no EIP-55 checksum to get wrong), different on every call. */
function ethAddress(index: number): string {
  const seed = `${Date.now().toString(16)}${process.pid.toString(16)}${index.toString(16)}`;
  return `0x${seed.padStart(40, 'a').slice(-40)}`;
}

async function whitelistThroughApi(
  request: APIRequestContext,
  body: { coin_id: string; address: string; label: string; passcode: string },
): Promise<void> {
  const response = await request.post('/api/v1/wallet-address/create', {
    data: { ...body, type: 99 },
    headers: await csrfHeaders(request),
  });
  if (!response.ok()) throw new Error(`whitelisting answered ${response.status()}: ${await response.text()}`);
}

function toast(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

/**
 * A second loopback address for the same server: the e2e server listens on
 * 127.0.0.1 only, so this relays 127.0.0.2:<port> to it, connecting from
 * 127.0.0.2. The server sees the client as 127.0.0.2, an address it does not
 * take X-Forwarded-For from.
 */
async function openSecondLoopback(port: number): Promise<() => Promise<void>> {
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    relay.once('error', reject);
    relay.listen(port, '127.0.0.2', resolve);
  });
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      relay.close(() => resolve());
    });
}

async function passwordStep(request: APIRequestContext, customer: Customer) {
  return request.post('/api/v1/login', {
    data: { username: customer.email, password: customer.password, altcha: await solveCaptcha(request) },
    headers: await csrfHeaders(request),
  });
}

test.describe('whitelisting in Settings', () => {
  // A live customer and a staff member each, and a second browser: a busy two-core machine takes a while.
  test.describe.configure({ timeout: 120_000 });

  test('a live customer with 2FA whitelists withdrawal addresses, sees them masked with View More, and removes one with the e-mailed code', async ({
    signedInPage: page,
    customer,
    complianceApi,
    mailbox,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    const form = page.getByRole('form', { name: 'Whitelist a wallet address' });
    const list = page.getByRole('list', { name: 'Whitelisted wallets' });

    await test.step('/walletWhitelist opens the tab; without 2FA a warning shows instead of the form', async () => {
      await page.goto('/walletWhitelist');
      await expect(page).toHaveURL(/\/user\/settings\?tab=wallet$/);
      await expect(page.getByRole('tab', { name: 'Wallet Whitelisting' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      const warning = page.getByRole('alert').filter({ hasText: WHITELIST_TEXTS.twoFactorRequired });
      await expect(warning).toBeVisible();
      await expect(form).toBeHidden();
      await expect(page.getByText('No whitelisted wallets yet.')).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      await saveScreenshots('settings-wallet-whitelist-no-2fa');
      await warning.getByRole('link', { name: 'Set up two-factor authentication' }).click();
      await expect(page).toHaveURL(/\/user\/settings\?tab=2fa$/);
    });

    const { authenticator, recoveryCodes } = await enableTwoFactor(page.request);
    await page.goto('/user/settings?tab=wallet');

    await test.step('a mistyped address is refused before the code is spent', async () => {
      await form.getByLabel('Coin').selectOption('btc');
      await form.getByLabel('Wallet Address').fill(`${BTC_ADDRESS.slice(0, -1)}x`);
      await form.getByLabel('Label').fill('Cold storage');
      await form.getByLabel('2FA Code').fill('123456');
      await form.getByRole('button', { name: 'Whitelist Address' }).click();
      await expect(toast(page, 'Bad Request')).toContainText(ERROR_CODES.INVALID_ADDRESS.message);
      await expect(form.getByLabel('Wallet Address')).toHaveAttribute('aria-invalid', 'true');
    });

    await test.step('whitelists a BTC address: masked, usable in 24 hours', async () => {
      await form.getByLabel('Wallet Address').fill(BTC_ADDRESS);
      await form.getByLabel('2FA Code').fill(await authenticator.code());
      await form.getByRole('button', { name: 'Whitelist Address' }).click();
      await expect(toast(page, WHITELIST_TEXTS.walletAdded)).toBeVisible();
      await expect(form.getByLabel('Wallet Address')).toHaveValue('');
      const entry = list.getByRole('listitem', { name: 'Cold storage' });
      await expect(entry).toContainText('BTC');
      await expect(entry).toContainText(`********${BTC_ADDRESS.slice(-4)}`);
      await expect(entry).not.toContainText(BTC_ADDRESS);
      await expect(entry).toContainText('Usable from');
      await expect(page.getByText(WHITELIST_TEXTS.usableAfter)).toBeVisible();
      // The next code may come within the toast's lifetime; its toast must be the only one.
      await closeToasts(page);
    });

    await test.step('whitelists an XRP address with its destination tag', async () => {
      await form.getByLabel('Coin').selectOption('xrp');
      await form.getByLabel('Wallet Address').fill(XRP_ADDRESS);
      await form.getByLabel('Destination Tag').fill('12x');
      await form.getByLabel('Label').fill('Exchange XRP');
      await form.getByRole('button', { name: 'Whitelist Address' }).click();
      await expect(form.getByText('The destination tag is a number of up to 10 digits.')).toBeVisible();
      await form.getByLabel('Destination Tag').fill('12345');
      await form.getByLabel('2FA Code').fill(await authenticator.code());
      await form.getByRole('button', { name: 'Whitelist Address' }).click();
      await expect(toast(page, WHITELIST_TEXTS.walletAdded)).toBeVisible();
      const entry = list.getByRole('listitem', { name: 'Exchange XRP' });
      await expect(entry).toContainText(`********${XRP_ADDRESS.slice(-4)}`);
      await expect(entry).toContainText('tag 12345');
    });

    await test.step('five entries show at first; View More shows the sixth', async () => {
      // Four more, as another tab of the customer would add them (each with its own code), two per setup.
      let recoveryCode = recoveryCodes[0] ?? '';
      for (const round of [0, 1]) {
        const again = await setUpAuthenticatorAgain(page.request, recoveryCode);
        recoveryCode = again.recoveryCodes[0] ?? '';
        for (const index of [2 * round + 1, 2 * round + 2]) {
          await whitelistThroughApi(page.request, {
            coin_id: 'eth',
            address: ethAddress(index),
            label: `Ether ${index}`,
            passcode: await again.authenticator.code(),
          });
        }
      }
      await page.reload();
      await expect(list.getByRole('listitem')).toHaveCount(5);
      await expect(page.getByText('Showing 5 of 6 wallets')).toBeVisible();
      // Newest first: the first one added is the one View More brings.
      await expect(list.getByRole('listitem', { name: 'Cold storage' })).toBeHidden();
      await page.getByRole('button', { name: 'View More' }).click();
      await expect(list.getByRole('listitem')).toHaveCount(6);
      await expect(list.getByRole('listitem', { name: 'Cold storage' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'View More' })).toBeHidden();
    });

    await test.step('removes one with the code e-mailed for it, after a wrong one', async () => {
      const since = new Date(Date.now() - 1_000);
      await list
        .getByRole('listitem', { name: 'Ether 1' })
        .getByRole('button', { name: 'Remove Ether 1' })
        .click();
      const modal = page.getByRole('dialog', { name: 'Remove whitelisted address' });
      await expect(modal).toContainText(WHITELIST_TEXTS.removalCodeSent);
      const mail = await mailbox.waitForMail(customer.email, 'Your code to remove a whitelisted address', {
        since,
      });
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
      expect(code).toMatch(/^\d{6}$/);
      const wrong = code === '000000' ? '111111' : '000000';
      const digits = modal.getByRole('textbox', { name: 'Verification code, digit 1 of 6' });
      await digits.pressSequentially(wrong);
      await expect(modal.getByRole('alert')).toContainText(WHITELIST_TEXTS.removalCodeWrong);
      await digits.pressSequentially(code);
      await expect(toast(page, WHITELIST_TEXTS.walletRemoved)).toBeVisible();
      await expect(modal).toBeHidden();
      await expect(list.getByRole('listitem', { name: 'Ether 1' })).toBeHidden();
      await expect(page.getByText('Showing 5 of 5 wallets')).toBeVisible();
    });

    await closeToasts(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshots('settings-wallet-whitelist');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('whitelisting a sign-in IP in Settings', () => {
  // A live customer and a staff member each, and a second browser: a busy two-core machine takes a while.
  test.describe.configure({ timeout: 120_000 });

  test('a customer whitelists the IP they use; a sign-in from another address (127.0.0.2) is refused and they are e-mailed', async ({
    browser,
    baseURL,
    playwright,
    customer,
    signIn,
    mailbox,
  }) => {
    const port = Number(new URL(baseURL ?? '').port);
    // No X-Forwarded-For: the server sees this browser as 127.0.0.1, the address to whitelist.
    const home = await browser.newContext({
      baseURL,
      locale: 'en-GB',
      timezoneId: 'Europe/London',
      reducedMotion: 'reduce',
      extraHTTPHeaders: {},
    });
    const page = await home.newPage();
    const consoleErrors: string[] = [];
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()))
        consoleErrors.push(message.text());
    });
    const closeRelay = await openSecondLoopback(port);
    const away = await browser.newContext({
      baseURL: `http://127.0.0.2:${port}`,
      locale: 'en-GB',
      timezoneId: 'Europe/London',
      reducedMotion: 'reduce',
      extraHTTPHeaders: {},
    });
    const direct = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { accept: 'application/json' },
    });
    try {
      await signIn(page.request, customer);
      const { authenticator } = await enableTwoFactor(page.request);
      await page.goto('/user/settings?tab=ip');
      await expect(page.getByRole('tab', { name: 'IP Whitelisting' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await expect(page.getByText(WHITELIST_TEXTS.ipExplainer)).toBeVisible();
      await expect(page.getByText('Your current IP address: 127.0.0.1')).toBeVisible();
      await expect(page.getByText('No whitelisted IP addresses yet')).toBeVisible();
      const form = page.getByRole('form', { name: 'Whitelist an IP address' });

      await test.step('the first address must be the one in use, so nobody locks themselves out', async () => {
        await form.getByLabel('IP Address').fill('203.0.113.7');
        await form.getByLabel('2FA Code').fill('123456');
        await form.getByRole('button', { name: 'Whitelist IP' }).click();
        await expect(toast(page, 'Failed')).toContainText(WHITELIST_TEXTS.ipFirstMustBeCurrent);
        await form.getByLabel('IP Address').fill('not an ip');
        await form.getByRole('button', { name: 'Whitelist IP' }).click();
        await expect(form.getByText(WHITELIST_TEXTS.ipInvalid)).toBeVisible();
      });

      await test.step('whitelists 127.0.0.1', async () => {
        await form.getByRole('button', { name: 'Use my current IP address' }).click();
        await expect(form.getByLabel('IP Address')).toHaveValue('127.0.0.1');
        await form.getByLabel('2FA Code').fill(await authenticator.code());
        await form.getByRole('button', { name: 'Whitelist IP' }).click();
        await expect(toast(page, WHITELIST_TEXTS.ipAdded)).toBeVisible();
        const list = page.getByRole('list', { name: 'Whitelisted IP addresses' });
        await expect(list.getByRole('listitem', { name: '127.0.0.1' })).toBeVisible();
        await expect(page.getByText('Showing 1 of 1 IP addresses')).toBeVisible();
      });
      await closeToasts(page);
      await saveScreenshotsOf(page, 'settings-ip-whitelist');

      await test.step('a sign-in from 127.0.0.2 is refused with the reason, and the customer is e-mailed', async () => {
        const since = new Date(Date.now() - 1_000);
        const awayPage = await away.newPage();
        await awayPage.goto('/login');
        await submitLoginForm(awayPage, customer.email, customer.password);
        await expect(toast(awayPage, AUTH_TEXTS.loginFailedTitle)).toContainText(
          ERROR_CODES.IP_NOT_WHITELISTED.message,
        );
        await expect(awayPage).toHaveURL(/\/login$/);
        const mail = await mailbox.waitForMail(
          customer.email,
          'A sign-in from an unknown IP address was refused',
          {
            since,
          },
        );
        expect(mail.text).toContain('127.0.0.2');
      });

      await test.step('from the whitelisted 127.0.0.1 the password is accepted (the 2FA step follows)', async () => {
        const answer = await passwordStep(direct, customer);
        expect(answer.status()).toBe(200);
        expect(((await answer.json()) as { login_token?: string }).login_token).toBeTruthy();
      });

      await test.step('removes 127.0.0.1 with a code; sign-in is open from anywhere again', async () => {
        const list = page.getByRole('list', { name: 'Whitelisted IP addresses' });
        await list.getByRole('button', { name: 'Remove 127.0.0.1' }).click();
        const modal = page.getByRole('dialog', { name: 'Remove whitelisted IP address' });
        await modal
          .getByRole('textbox', { name: 'Authentication code, digit 1 of 6' })
          .pressSequentially(await authenticator.code());
        await expect(toast(page, WHITELIST_TEXTS.ipRemoved)).toBeVisible();
        await expect(modal).toBeHidden();
        await expect(page.getByText('No whitelisted IP addresses yet')).toBeVisible();
        const awayApi = await playwright.request.newContext({
          baseURL: `http://127.0.0.2:${port}`,
          extraHTTPHeaders: {},
        });
        try {
          expect((await passwordStep(awayApi, customer)).status()).toBe(200);
        } finally {
          await awayApi.dispose();
        }
      });
      expect(consoleErrors).toEqual([]);
    } finally {
      await direct.dispose();
      await away.close();
      await home.close();
      await closeRelay();
    }
  });
});

/** As the saveScreenshots fixture does, for a page of a context this test made itself. */
async function saveScreenshotsOf(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const size of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    await page.screenshot({
      path: `${new URL('../screenshots/', import.meta.url).pathname}${name}-${size.width}.png`,
      fullPage: true,
      animations: 'disabled',
      caret: 'hide',
    });
  }
}
