import { expect } from 'vitest';
import { ErrorBodySchema } from '@florin/contracts';
import type { TestApp } from '../../test/app.js';
import { createBrowser, linkInMail, type Browser } from '../../test/browser.js';

/** What the customer sign-in tests share: registering, verifying and signing in through the API. */

export const PASSWORD = 'correct horse battery staple';

export function errorOf(response: { body: string }) {
  return ErrorBodySchema.parse(JSON.parse(response.body));
}

let people = 0;

export function newEmail(): string {
  people += 1;
  return `person${people}.${Date.now()}@example.com`;
}

export async function register(browser: Browser, email: string, extra: Record<string, unknown> = {}) {
  return browser.post('/api/v1/user-register', {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    accept_terms_and_privacy: true,
    ...extra,
  });
}

export async function login(browser: Browser, email: string, password = PASSWORD) {
  return browser.post('/api/v1/login', { username: email, password, altcha: await browser.captcha() });
}

/** The steps that need the file's test app, which `app()` returns. */
export function authSteps(app: () => TestApp) {
  async function verifyByMail(browser: Browser, email: string) {
    const link = await linkInMail(app().database.db, email, /Verify your email/);
    return browser.post(`/api/v1/user-verify/${link.split('/verify/')[1]}`);
  }

  /** A registered, verified, signed-in customer. */
  async function signedInCustomer() {
    const browser = createBrowser(app().app);
    const email = newEmail();
    await register(browser, email);
    await verifyByMail(browser, email);
    expect((await login(browser, email)).statusCode).toBe(200);
    return { browser, email };
  }

  return { verifyByMail, signedInCustomer };
}
