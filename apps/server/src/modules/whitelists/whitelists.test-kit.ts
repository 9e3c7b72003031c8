import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { ErrorBodySchema, WhitelistedWalletSchema, type ErrorBody } from '@florin/contracts';
import { hashPassword } from '../../security/passwords.js';
import { type TestApp } from '../../test/app.js';
import { awayFromTotpStepEdge, oathtoolCode, type Browser } from '../../test/browser.js';
import { customerBrowser, insertCustomer } from '../compliance/customers.test-kit.js';

export const PASSWORD = 'whitelists-Password-for-tests-2026';

export const errorOf = (response: LightMyRequestResponse): ErrorBody =>
  ErrorBodySchema.parse(response.json());

/** Addresses that pass their coin's checksum. */
export const ADDRESSES = {
  btc: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  btcLegacy: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  eth: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  ltc: 'LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1',
  bch: 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
  xrp: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
} as const;

/** A fresh, valid ETH address (all lower case carries no checksum and is valid). */
export const randomEthAddress = () => `0x${randomBytes(20).toString('hex')}`;

export type Customer = {
  id: number;
  email: string;
  reference: string;
  browser: Browser;
  totpSecret: string | null;
};

/** A customer signed in with a browser of their own IP address, with 2FA on unless told otherwise. */
/** A different 6-digit code than `code`. */
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/**
 * What the whitelist API tests share: live customers signed in from an address of their own (with 2FA
 * unless told otherwise), wallets added with a fresh passcode, removal codes and sign-ins. Each test
 * file calls `whitelistSteps(() => t)` with its own app.
 */
export function whitelistSteps(app: () => TestApp) {
  const db = () => app().database.db;

  async function newCustomer(options: { twoFactor?: boolean } = {}): Promise<Customer> {
    const row = await insertCustomer(db());
    await db()
      .updateTable('users')
      .set({ status: 1, live_since: new Date(), password_hash: await hashPassword(PASSWORD) })
      .where('id', '=', row.id)
      .execute();
    const browser = await customerBrowser(app().app, db(), row.id);
    const customer: Customer = { ...row, browser, totpSecret: null };
    if (options.twoFactor !== false) customer.totpSecret = await turnOnTwoFactor(customer);
    return customer;
  }

  async function turnOnTwoFactor(customer: Customer): Promise<string> {
    const generated = await customer.browser.get('/api/v1/two-factor-authentication/generate');
    expect(generated.statusCode, generated.body).toBe(200);
    const secret = generated.json<{ data: { secret: string } }>().data.secret;
    awayFromTotpStepEdge();
    const toggled = await customer.browser.post('/api/v1/two-factor-authentication/toggle', {
      passcode: oathtoolCode(secret),
      disable_2fa: 0,
    });
    expect(toggled.statusCode, toggled.body).toBe(200);
    return secret;
  }

  /**
   * A code from the customer's authenticator that the server will take. Each
   * 30-second step is usable once, so the test forgets the step last used
   * instead of waiting for the next one.
   */
  async function passcode(customer: Customer): Promise<string> {
    if (!customer.totpSecret) throw new Error('this customer has no 2FA');
    await db().updateTable('users').set({ totp_last_step: null }).where('id', '=', customer.id).execute();
    awayFromTotpStepEdge();
    return oathtoolCode(customer.totpSecret);
  }

  async function addWallet(
    customer: Customer,
    body: { address: string; coin_id: string; label?: string; passcode?: string },
  ) {
    return customer.browser.post('/api/v1/wallet-address/create', {
      label: 'My wallet',
      ...body,
      type: 99,
      passcode: body.passcode ?? (await passcode(customer)),
    });
  }

  async function addedWallet(customer: Customer, body: { address: string; coin_id: string; label?: string }) {
    const response = await addWallet(customer, body);
    expect(response.statusCode, response.body).toBe(200);
    return WhitelistedWalletSchema.parse(response.json<{ data: unknown }>().data);
  }

  async function listWallets(customer: Customer, query = '') {
    const response = await customer.browser.get(`/api/v1/wallet-address/list${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ data: unknown[]; total: number }>();
    return { data: body.data.map((item) => WhitelistedWalletSchema.parse(item)), total: body.total };
  }

  /** The newest removal code mailed to the customer. */
  async function removalCode(email: string): Promise<string> {
    const mail = await db()
      .selectFrom('dev_mailbox')
      .select('text')
      .where('to', '=', email)
      .where('subject', 'like', 'Your code to remove a whitelisted address%')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no removal code mailed to ${email}`);
    return code;
  }

  async function signIn(browser: Browser, email: string) {
    return browser.post('/api/v1/login', {
      username: email,
      password: PASSWORD,
      altcha: await browser.captcha(),
    });
  }
  return {
    db,
    newCustomer,
    turnOnTwoFactor,
    passcode,
    addWallet,
    addedWallet,
    listWallets,
    removalCode,
    signIn,
  };
}
