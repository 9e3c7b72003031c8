import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, type APIRequestContext, type ConsoleMessage } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

export { expect } from '@playwright/test';

/** One message in the dev mailbox, as `GET /dev/mailbox.json` lists it (newest first). */
export type Mail = { to: string; subject: string; text: string; html: string; created_at: string };

export type WaitForMailOptions = {
  /** Only mail created at or after this moment, so an older mail with the same subject is not picked. */
  since?: Date;
  timeout?: number;
};

export type Mailbox = {
  list(): Promise<Mail[]>;
  /** Polls until a mail to `to` whose subject matches arrives; the newest such mail. */
  waitForMail(to: string, subject: string | RegExp, options?: WaitForMailOptions): Promise<Mail>;
};

/** The current RFC 6238 code (SHA-1, 6 digits, 30 s) for a base32 secret, as an authenticator app shows it. */
export type Totp = (secret: string, timestamp?: number) => string;

/** Saves full-page screenshots of the page as it is to e2e/screenshots/<name>-<width>.png, at 375 and 1280 px. */
export type SaveScreenshots = (name: string) => Promise<void>;

type Fixtures = {
  /** Requests to the e2e server, JSON by default, with a cookie jar of their own (not the page's). */
  api: APIRequestContext;
  mailbox: Mailbox;
  totp: Totp;
  /** Named so, not `screenshot`: that name is Playwright's own option (screenshots on failure). */
  saveScreenshots: SaveScreenshots;
  /** Console errors and uncaught exceptions of `page`; a test asserts it is empty at its end. */
  consoleErrors: string[];
};

const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));
const SCREENSHOT_SIZES = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;

export function generateTotp(secret: string, timestamp = Date.now()): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret.replace(/\s+/g, '').toUpperCase()),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp,
  });
}

function isMail(value: unknown): value is Mail {
  if (typeof value !== 'object' || value === null) return false;
  const mail = value as Record<string, unknown>;
  return ['to', 'subject', 'text', 'html', 'created_at'].every((key) => typeof mail[key] === 'string');
}

function createMailbox(request: APIRequestContext): Mailbox {
  const list = async (): Promise<Mail[]> => {
    const response = await request.get('/dev/mailbox.json');
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
      const mail = (await list()).find(
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

/** The browser's own noise that says nothing about Florin. */
function isIgnoredConsoleError(message: ConsoleMessage): boolean {
  return message.location().url.endsWith('/favicon.ico');
}

export const test = base.extend<Fixtures>({
  api: async ({ playwright, baseURL }, use) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { accept: 'application/json' },
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
    await use(async (name) => {
      const original = page.viewportSize();
      for (const size of SCREENSHOT_SIZES) {
        await page.setViewportSize(size);
        // Two frames: the media queries apply and the layout settles at the new width.
        await page.evaluate(
          () =>
            new Promise<void>((resolve) =>
              requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
            ),
        );
        await page.screenshot({
          path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`),
          fullPage: true,
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
});
