import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { csrfHeaders } from '../fixtures.js';
import { freshStaffCode, test as adminTest } from '../admin-fixtures.js';

export { expect } from '../admin-fixtures.js';

/**
 * The fiat stories' fixtures and what finance does off-screen, through the
 * back office's API: set the house's deposit details, verify a customer's
 * bank account.
 */

type FiatFixtures = {
  /** An API session of a new finance staff member, for stories where finance acts off-screen. */
  financeApi: APIRequestContext;
};

export const test = adminTest.extend<FiatFixtures>({
  financeApi: async ({ staffMember, playwright, baseURL, clientAddress }, use) => {
    const member = await staffMember('finance');
    const request = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { accept: 'application/json', 'x-forwarded-for': clientAddress },
    });
    const login = await request.post('/api/admin/login', {
      data: { email: member.email, password: member.password },
      headers: await csrfHeaders(request),
    });
    if (!login.ok()) throw new Error(`staff login answered ${login.status()}: ${await login.text()}`);
    const { login_token: loginToken } = (await login.json()) as { login_token: string };
    const second = await request.post('/api/admin/login-2fa', {
      data: { login_token: loginToken, code: await freshStaffCode(member.totpSecret) },
      headers: await csrfHeaders(request),
    });
    if (!second.ok()) throw new Error(`staff 2FA answered ${second.status()}: ${await second.text()}`);
    await use(request);
    await request.dispose();
  },
});

async function send(request: APIRequestContext, method: 'post' | 'put', url: string, data: unknown) {
  const response = await request[method](url, { data, headers: await csrfHeaders(request) });
  if (!response.ok())
    throw new Error(`${method.toUpperCase()} ${url} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as unknown;
}

/** The house's GBP deposit details every fiat story shows (the same on every run: the server is shared). */
export const HOUSE_GBP = {
  account_name: 'Florin Client Money',
  account_number: '31926819',
  sort_code: '40-47-84',
  bank_name: 'Northern Counting House',
  iban: '',
  bic: '',
  second_approval_from: '5000.00',
} as const;

export async function setGbpDepositDetails(finance: APIRequestContext): Promise<void> {
  await send(finance, 'put', '/api/admin/fiat/settings/GBP', HOUSE_GBP);
}

/** Finance verifies the customer's bank account by hand (after checking it is in their name). */
export async function verifyBankAccount(finance: APIRequestContext, userId: number): Promise<number> {
  const response = await finance.get(`/api/admin/fiat/customers/${userId}/bank-accounts`);
  if (!response.ok()) throw new Error(`bank accounts answered ${response.status()}`);
  const { data } = (await response.json()) as {
    data: { id: number; verified: boolean; currency_code: string | null }[];
  };
  const account = data.find((entry) => (entry.currency_code ?? 'GBP') === 'GBP');
  if (!account) throw new Error(`customer ${userId} has no GBP bank account`);
  if (!account.verified)
    await send(finance, 'post', `/api/admin/fiat/bank-accounts/${account.id}/verify`, {
      reason: 'Statement checked: the account is in the customer’s name.',
    });
  return account.id;
}

/** Compliance switches e-mailed withdrawal codes on for the customer (platform_2fa_mobile). */
export async function switchOnEmailCodes(compliance: APIRequestContext, userId: number): Promise<void> {
  await send(compliance, 'post', `/api/admin/customers/${userId}/email-codes`, {
    enabled: true,
    reason: 'The customer cannot use an authenticator app.',
  });
}

/**
 * A bank account's details are new for 24 hours (DECISIONS.md); the dev-only
 * `POST /dev/fiat/bank-accounts/pass-wait` moves them 25 hours into the past.
 */
export async function passBankDetailsWait(
  request: APIRequestContext,
  email: string,
  options: { endsInSeconds?: number } = {},
): Promise<void> {
  const response = await request.post('/dev/fiat/bank-accounts/pass-wait', {
    data: { email, ends_in_seconds: options.endsInSeconds },
    headers: await csrfHeaders(request),
  });
  if (!response.ok()) throw new Error(`pass-wait answered ${response.status()}: ${await response.text()}`);
}

let statementCount = 0;

/** A transaction id no earlier test or run used: the server credits each id once, for ever. */
export function uniqueTransactionId(label: string): string {
  statementCount += 1;
  return `${label}-${Date.now().toString(36)}-${process.pid}-${statementCount}`;
}

export type StatementLine = {
  date: string;
  amount: string;
  reference: string;
  payer: string;
  transactionId: string;
  /** The account the money came from, as the bank prints it; money from the registered one verifies it. */
  sortCode?: string;
  accountNumber?: string;
};

export function statementCsv(lines: readonly StatementLine[]): string {
  const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return [
    'date,amount,reference,payer,transaction_id,sort_code,account_number',
    ...lines.map((line) =>
      [
        line.date,
        line.amount,
        line.reference,
        line.payer,
        line.transactionId,
        line.sortCode ?? '',
        line.accountNumber ?? '',
      ]
        .map(quote)
        .join(','),
    ),
  ].join('\n');
}

const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** As the saveScreenshots fixture does, for a page of another device (the staff member's). */
export async function saveScreenshotsOf(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
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
      path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`),
      fullPage: true,
      animations: 'disabled',
      caret: 'hide',
    });
  }
  if (original) await page.setViewportSize(original);
}
