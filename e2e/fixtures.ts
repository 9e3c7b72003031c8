import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  expect,
  test as base,
  type APIRequestContext,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
} from '@playwright/test';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { authenticator, generateTotp, type Authenticator, type Totp } from './totp.js';

export { expect };
export {
  authenticator,
  generateTotp,
  nextUsableTotpStep,
  totpStep,
  wrongTotp,
  type Authenticator,
  type Totp,
} from './totp.js';

/** One message in the dev mailbox, as `GET /dev/mailbox.json` lists it (newest first). */
export type Mail = { to: string; subject: string; text: string; html: string; created_at: string };

export type WaitForMailOptions = {
  /** Only mail created at or after this moment, so an older mail with the same subject is not picked. */
  since?: Date;
  timeout?: number;
};

export type Mailbox = {
  /** The newest 200 mails, or the newest 200 to one address. */
  list(to?: string): Promise<Mail[]>;
  /** Polls until a mail to `to` whose subject matches arrives; the newest such mail. */
  waitForMail(to: string, subject: string | RegExp, options?: WaitForMailOptions): Promise<Mail>;
};

export type ScreenshotWidth = 375 | 1280;

/**
 * Saves full-page screenshots of the page as it is to e2e/screenshots/<name>-<width>.png, at 375 and
 * 1280 px, or only at the widths given (a phone's open menu has no desktop twin).
 */
export type SaveScreenshots = (name: string, widths?: readonly ScreenshotWidth[]) => Promise<void>;

/** A registered customer and the password they chose. */
export type Customer = {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
};

export type SignUpOptions = Partial<Pick<Customer, 'email' | 'password' | 'firstName' | 'lastName'>> & {
  /** false: leave the e-mail unconfirmed (sign-in then fails with "Email not yet verified!"). */
  verify?: boolean;
};

/** Registers a fresh customer through the API and confirms the e-mail through the mailed link. */
export type SignUp = (options?: SignUpOptions) => Promise<Customer>;

/** Signs a customer without 2FA in, in `request`'s cookie jar (a page's: `page.request`), through the API. */
export type SignIn = (request: APIRequestContext, customer: Customer) => Promise<void>;

/** A new browser context as another device of the same client address (own cookies), closed after the test. */
export type NewDevice = () => Promise<{ context: BrowserContext; page: Page }>;

type Fixtures = {
  /**
   * The visitor's earlier answer to the cookie bar, as the `cookie-consent`
   * cookie of the test's browser context; null: a first visit, with the bar
   * showing. Stories about other screens start with an answer, as a returning
   * visitor would, so the bar does not cover them.
   */
  cookieConsent: 'allow' | 'deny' | null;
  /**
   * The client address this test's requests come from (X-Forwarded-For; the
   * e2e server trusts it from 127.0.0.1). Per-IP abuse limits then count per
   * test, as for separate people, not for the whole run.
   */
  clientAddress: string;
  /** Requests to the e2e server, JSON by default, with a cookie jar of their own (not the page's). */
  api: APIRequestContext;
  mailbox: Mailbox;
  totp: Totp;
  /** Named so, not `screenshot`: that name is Playwright's own option (screenshots on failure). */
  saveScreenshots: SaveScreenshots;
  /** Console errors and uncaught exceptions of `page`; a test asserts it is empty at its end. */
  consoleErrors: string[];
  signUp: SignUp;
  signIn: SignIn;
  /** A fresh, verified customer (status: not live yet, no 2FA), not signed in. */
  customer: Customer;
  /** `page`, signed in as `customer`, on /user. For specs that start signed in; the auth specs sign in through the UI. */
  signedInPage: Page;
  newDevice: NewDevice;
};

/** The password fixtures register with: long, not among the common ones the server refuses. */
export const DEFAULT_PASSWORD = 'Harbour-Lantern-Quiet-42';

let emailCount = 0;

/**
 * Holds the page's requests to `url` (a glob) until the returned function is
 * called: for what a screen shows while it waits.
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Waits until React has taken over a public page the build sent drawn (apps/web/src/prerender.tsx): until then
 * its buttons do nothing and a link is a full page load. The header's menu button is disabled until then.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Open navigation', includeHidden: true })).toBeEnabled({
    timeout: 20_000,
  });
}

/** An address no earlier test or run used, so each test has a customer of its own on the shared server. */
export function uniqueEmail(label = 'customer'): string {
  emailCount += 1;
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}${emailCount}`;
  return `${label}-${stamp}@florin.test`;
}

/** The first web address in a mail's text (the action link). */
export function linkIn(mail: Mail): string {
  const url = /https?:\/\/\S+/.exec(mail.text)?.[0];
  if (!url) throw new Error(`No link in the mail "${mail.subject}" to ${mail.to}`);
  return url;
}

/**
 * Fills the login screen and presses Login once the captcha widget has solved
 * its proof of work (it starts when the form gets focus; about a second, far
 * more on a machine busy with other work, hence the long wait).
 */
export async function submitLoginForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('User Name').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const login = page.getByRole('button', { name: 'Login' });
  await expect(login).toBeEnabled({ timeout: 30_000 });
  await login.click();
}

/** The header a state-changing request needs: the csrf_token cookie of `request`'s jar, fetched first if missing. */
export async function csrfHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const find = async () =>
    (await request.storageState()).cookies.find((cookie) => cookie.name === 'csrf_token')?.value;
  let token = await find();
  if (!token) {
    await request.get('/api/v1/csrf');
    token = await find();
  }
  if (!token) throw new Error('The server set no csrf_token cookie');
  return { 'x-csrf-token': token };
}

/**
 * POSTs JSON as the web app does (CSRF cookie echoed in the header), with any
 * further headers (an Idempotency-Key); throws on anything but a 2xx.
 */
export async function postJson<T = unknown>(
  request: APIRequestContext,
  url: string,
  data: unknown = {},
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await request.post(url, {
    data,
    headers: { ...(await csrfHeaders(request)), ...headers },
  });
  if (!response.ok()) {
    throw new Error(`POST ${url} answered ${response.status()}: ${await response.text()}`);
  }
  return (await response.json()) as T;
}

/**
 * Turns 2FA on for the customer signed in in `request`'s jar, as the Settings
 * screen does (generate, then confirm with a code), and returns the secret,
 * the ten recovery codes and the app, whose confirming code is spent.
 */
export async function enableTwoFactor(
  request: APIRequestContext,
): Promise<{ secret: string; recoveryCodes: string[]; authenticator: Authenticator }> {
  const generated = await request.get('/api/v1/two-factor-authentication/generate');
  if (!generated.ok()) throw new Error(`2FA generate answered ${generated.status()}`);
  const { secret } = ((await generated.json()) as { data: { secret: string } }).data;
  const app = authenticator(secret);
  const body = await postJson<{ recovery_codes?: string[] }>(
    request,
    '/api/v1/two-factor-authentication/toggle',
    {
      passcode: await app.code(),
      disable_2fa: 0,
    },
  );
  return { secret, recoveryCodes: body.recovery_codes ?? [], authenticator: app };
}

/** What the captcha widget sends, computed here: fetch a challenge and solve its proof of work. */
export async function solveCaptcha(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/v1/captcha/challenge');
  const challenge = (await response.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('The captcha challenge could not be solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));
const SCREENSHOT_SIZES = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;

function isMail(value: unknown): value is Mail {
  if (typeof value !== 'object' || value === null) return false;
  const mail = value as Record<string, unknown>;
  return ['to', 'subject', 'text', 'html', 'created_at'].every((key) => typeof mail[key] === 'string');
}

function createMailbox(request: APIRequestContext): Mailbox {
  // For one address when waiting for its mail, so a busy run cannot push that mail out of the newest 200.
  const list = async (to?: string): Promise<Mail[]> => {
    const response = await request.get('/dev/mailbox.json', to ? { params: { to } } : undefined);
    if (!response.ok()) {
      throw new Error(`GET /dev/mailbox.json answered ${response.status()}: is the dev mailbox on?`);
    }
    const body: unknown = await response.json();
    if (!Array.isArray(body) || !body.every(isMail)) {
      throw new Error('GET /dev/mailbox.json did not return an array of mails');
    }
    return body;
  };

  const waitForMail = async (
    to: string,
    subject: string | RegExp,
    { since, timeout = 10_000 }: WaitForMailOptions = {},
  ): Promise<Mail> => {
    const matchesSubject = (text: string) =>
      typeof subject === 'string' ? text.includes(subject) : subject.test(text);
    const deadline = Date.now() + timeout;
    for (;;) {
      const mail = (await list(to)).find(
        (item) =>
          item.to.toLowerCase() === to.toLowerCase() &&
          matchesSubject(item.subject) &&
          (!since || Date.parse(item.created_at) >= since.getTime()),
      );
      if (mail) return mail;
      if (Date.now() > deadline) {
        throw new Error(`No mail to ${to} with subject ${String(subject)} within ${timeout} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  return { list, waitForMail };
}

/**
 * The browser's own noise that says nothing about Florin: the favicon, and
 * Chromium's "Failed to load resource" line for an API answer of 4xx, which
 * the error-path stories provoke on purpose and check on the screen. A 5xx
 * still counts.
 */
function isIgnoredConsoleError(message: ConsoleMessage): boolean {
  const { url } = message.location();
  if (url.endsWith('/favicon.ico')) return true;
  return (
    new URL(url, 'http://localhost').pathname.startsWith('/api/') &&
    /^Failed to load resource: the server responded with a status of 4\d\d\b/.test(message.text())
  );
}

let clientCount = 0;

/**
 * 10.x.y.z from the worker's index, which Playwright never reuses in a run
 * (a restarted worker gets a new one; its parallel index is reused, and so
 * would be its addresses, filling their per-IP limits): number 0 is the
 * worker's own, 1 to 4095 its tests'.
 */
export function clientAddressOf(workerIndex: number, number: number): string {
  const n = (workerIndex * 4096 + number) % 2 ** 24;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export const test = base.extend<Fixtures>({
  cookieConsent: ['deny', { option: true }],

  context: async ({ context, baseURL, cookieConsent }, use) => {
    if (cookieConsent && baseURL) {
      await context.addCookies([{ name: 'cookie-consent', value: cookieConsent, url: baseURL }]);
    }
    await use(context);
  },

  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring, even empty.
  clientAddress: async ({}, use, testInfo) => {
    clientCount = (clientCount % 4095) + 1;
    await use(clientAddressOf(testInfo.workerIndex, clientCount));
  },

  extraHTTPHeaders: async ({ extraHTTPHeaders, clientAddress }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': clientAddress });
  },

  api: async ({ playwright, baseURL, clientAddress }, use) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { accept: 'application/json', 'x-forwarded-for': clientAddress },
    });
    await use(api);
    await api.dispose();
  },

  mailbox: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL });
    await use(createMailbox(request));
    await request.dispose();
  },

  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring, even empty.
  totp: async ({}, use) => {
    await use(generateTotp);
  },

  saveScreenshots: async ({ page }, use) => {
    await use(async (name, widths) => {
      const original = page.viewportSize();
      for (const size of SCREENSHOT_SIZES.filter((entry) => !widths || widths.includes(entry.width))) {
        await page.setViewportSize(size);
        // Two frames: the media queries apply and the layout settles at the new width.
        await page.evaluate(
          () =>
            new Promise<void>((resolve) =>
              requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
            ),
        );
        // An open dialog locks the page's scroll, so the user sees the viewport. A full-page capture
        // also resizes the page for a moment, which can flip the tabs to an accordion and close the dialog.
        const hasDialog = (await page.getByRole('dialog').filter({ visible: true }).count()) > 0;
        await page.screenshot({
          path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`),
          fullPage: !hasDialog,
          animations: 'disabled',
          caret: 'hide',
        });
      }
      if (original) await page.setViewportSize(original);
    });
  },

  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !isIgnoredConsoleError(message)) {
        errors.push(`${message.text()} (${message.location().url})`);
      }
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
    await use(errors);
  },

  signUp: async ({ api, mailbox }, use) => {
    await use(async (options = {}) => {
      const email = options.email ?? uniqueEmail();
      const customer = {
        email,
        password: options.password ?? DEFAULT_PASSWORD,
        firstName: options.firstName ?? 'Ada',
        lastName: options.lastName ?? 'Lovelace',
      };
      const since = new Date(Date.now() - 1_000);
      await postJson(api, '/api/v1/user-register', {
        first_name: customer.firstName,
        last_name: customer.lastName,
        email,
        password: customer.password,
        password_confirmation: customer.password,
        accept_terms_and_privacy: true,
      });
      const mail = await mailbox.waitForMail(email, 'Verify your email address', { since });
      const token = new URL(linkIn(mail)).pathname.split('/').at(-1) ?? '';
      if (options.verify !== false) await postJson(api, `/api/v1/user-verify/${token}`);
      return customer;
    });
  },

  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring, even empty.
  signIn: async ({}, use) => {
    await use(async (request, customer) => {
      await postJson(request, '/api/v1/login', {
        username: customer.email,
        password: customer.password,
        altcha: await solveCaptcha(request),
      });
    });
  },

  customer: async ({ signUp }, use) => {
    await use(await signUp());
  },

  signedInPage: async ({ page, customer, signIn }, use) => {
    await signIn(page.request, customer);
    await page.goto('/user');
    await use(page);
  },

  newDevice: async (
    { browser, baseURL, clientAddress, locale, timezoneId, viewport, cookieConsent },
    use,
  ) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await browser.newContext({
        baseURL,
        locale,
        timezoneId,
        viewport,
        reducedMotion: 'reduce',
        extraHTTPHeaders: { 'x-forwarded-for': clientAddress },
      });
      if (cookieConsent && baseURL) {
        await context.addCookies([{ name: 'cookie-consent', value: cookieConsent, url: baseURL }]);
      }
      contexts.push(context);
      return { context, page: await context.newPage() };
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});
