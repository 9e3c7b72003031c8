import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { type Authenticator, csrfHeaders, type Mailbox } from '../fixtures.js';
import { expect } from '../wallets/fiat-fixtures.js';
import { chooseCoin } from './crypto-actions.js';

/** Valid mainnet addresses (BIP173 and XRP examples), not any customer's deposit address. */
export const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
/** The same with its last character changed: the checksum fails. */
export const MISTYPED_BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx';
export const XRP_ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
export const SECOND_BTC_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

/** Whitelists an address as the Settings tab does, with a fresh authenticator code. */
export async function whitelist(
  request: APIRequestContext,
  app: Authenticator,
  wallet: { address: string; label: string },
): Promise<void> {
  const response = await request.post('/api/v1/wallet-address/create', {
    data: { ...wallet, coin_id: 'btc', passcode: await app.code() },
    headers: await csrfHeaders(request),
  });
  if (!response.ok()) throw new Error(`whitelisting answered ${response.status()}: ${await response.text()}`);
}

/** "Your code for … is 123456.": the amount earlier in the sentence may have six decimals too (25.000000 XRP). */
export function codeIn(text: string): string {
  return /\bis (\d{6})\b/.exec(text)?.[1] ?? '';
}

/** Types the withdrawal code mailed since `since` into the Withdraw Verification modal. */
export async function typeMailedCode(
  verification: Locator,
  mailbox: Mailbox,
  email: string,
  since: Date,
): Promise<void> {
  const mail = await mailbox.waitForMail(email, 'Your withdrawal code', { since });
  await verification
    .getByRole('textbox', { name: 'Verification code, digit 1 of 6' })
    .pressSequentially(codeIn(mail.text));
}

/** Opens the XRP withdraw form of a customer holding 100 XRP and fills it: 25 XRP to their own private wallet, tag 4021. */
export async function fillXrpWithdrawal(page: Page): Promise<Locator> {
  await page.goto('/user/withdraw-deposit?withdraw');
  await chooseCoin(page, 'XRP');
  const form = page.getByRole('form', { name: 'Withdraw XRP' });
  await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('100.00000 XRP');
  await form.getByLabel('Destination address').fill(XRP_ADDRESS);
  await form.getByLabel('Destination tag').fill('4021');
  await form.getByLabel('Quantity').fill('25');
  await form.getByRole('radio', { name: 'Me: it is my own wallet' }).check();
  await form.getByRole('radio', { name: 'A private wallet' }).check();
  return form;
}

/** The withdrawal a verification modal restates, as the customer reads it before approving. */
export async function expectSummary(
  modal: Locator,
  withdrawal: { address: string; tag?: string; amount: string; fee: string; receive: string },
): Promise<void> {
  const summary = modal.getByRole('group', { name: 'The withdrawal you are approving' });
  await expect(summary.getByTestId('withdrawal-summary-address')).toHaveText(withdrawal.address);
  if (withdrawal.tag === undefined)
    await expect(summary.getByTestId('withdrawal-summary-tag')).toHaveCount(0);
  else await expect(summary.getByTestId('withdrawal-summary-tag')).toHaveText(withdrawal.tag);
  await expect(summary.getByTestId('withdrawal-summary-amount')).toHaveText(withdrawal.amount);
  await expect(summary.getByTestId('withdrawal-summary-fee')).toHaveText(withdrawal.fee);
  await expect(summary.getByTestId('withdrawal-summary-receive')).toHaveText(withdrawal.receive);
  await expect(summary).toContainText('Withdraw fee');
  await expect(summary).toContainText('You Will Get');
}
