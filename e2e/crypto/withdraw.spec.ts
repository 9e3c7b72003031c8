import { WHITELIST_TEXTS } from '@florin/contracts';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { type Authenticator, csrfHeaders, enableTwoFactor, holdRequests, type Mailbox } from '../fixtures.js';
import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { expect, switchOnEmailCodes, test } from '../wallets/fiat-fixtures.js';
import { chooseCoin, passSecurityWaits } from './crypto-actions.js';

/** Valid mainnet addresses (BIP173 and XRP examples), not any customer's deposit address. */
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
/** The same with its last character changed: the checksum fails. */
const MISTYPED_BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx';
const XRP_ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const SECOND_BTC_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

/** Whitelists an address as the Settings tab does, with a fresh authenticator code. */
async function whitelist(
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
function codeIn(text: string): string {
  return /\bis (\d{6})\b/.exec(text)?.[1] ?? '';
}

/** Types the withdrawal code mailed since `since` into the Withdraw Verification modal. */
async function typeMailedCode(
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
async function fillXrpWithdrawal(page: Page): Promise<Locator> {
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
async function expectSummary(
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

test.describe('crypto withdrawals to an external wallet', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a live customer with 2FA withdraws BTC to a typed address with the e-mailed code and an authenticator code, and sees it pending with the coins held', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    mailbox,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    const { authenticator } = await enableTwoFactor(page.request);
    await fund(api, customer.email, 'BTC', '1.00000000');

    // Straight after turning on 2FA, withdrawals wait 24 hours.
    await page.goto('/user/withdraw-deposit?withdraw');
    await chooseCoin(page, 'BTC');
    const form = page.getByRole('form', { name: 'Withdraw BTC' });
    await expect(form).toContainText(
      'For your security, crypto withdrawals pause for 24 hours after a password or two-factor change. You can withdraw again from',
    );
    await expect(form.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
    await saveScreenshots('crypto-withdraw-paused');

    // A day later.
    await passSecurityWaits(api, customer.email);
    await page.reload();
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('1.00000 BTC');
    await expect(form.getByRole('button', { name: 'Withdraw' })).toBeEnabled();
    await expect(form.getByLabel('Destination tag')).toHaveCount(0);

    // The form's own checks, in the spec's words.
    await form.getByRole('button', { name: 'Withdraw' }).click();
    await expect(form.getByText('Please Enter Amount.')).toBeVisible();
    await expect(form.getByText('Please provide a valid wallet to send your withdrawal.')).toBeVisible();
    await expect(form.getByText('Please tell us who owns this wallet.')).toBeVisible();
    await expect(form.getByText('Please tell us where the wallet is held.')).toBeVisible();
    const quantity = form.getByLabel('Quantity');
    await quantity.fill('0.005');
    await form.getByRole('button', { name: 'Withdraw' }).click();
    await expect(form.getByText('Minimum BTC withdrawal amount is 0.01')).toBeVisible();
    await quantity.fill('1.5');
    await form.getByRole('button', { name: 'Withdraw' }).click();
    await expect(
      form.getByText('The requested amount (fees applied) is greater than your current balance.'),
    ).toBeVisible();
    await quantity.fill('0.1a2.3');
    await expect(quantity).toHaveValue('0.123');
    await form.getByRole('button', { name: 'Max' }).click();
    await expect(quantity).toHaveValue('1');
    await quantity.fill('0.5');
    await expect(form.getByTestId('crypto-withdraw-fee')).toHaveText('0.00050 BTC');
    await expect(form.getByTestId('crypto-withdraw-receive')).toHaveText('0.49950 BTC');
    await expect(form.getByTestId('crypto-withdraw-balance-after')).toHaveText('0.50000 BTC');

    // The Travel Rule questions: an exchange needs its name.
    await form.getByRole('radio', { name: 'Me: it is my own wallet' }).check();
    await form.getByRole('radio', { name: 'An account at an exchange' }).check();
    await form.getByLabel('Destination address').fill(MISTYPED_BTC_ADDRESS);
    await form.getByRole('button', { name: 'Withdraw' }).click();
    await expect(form.getByText('Please name the exchange.')).toBeVisible();
    await form.getByLabel('Name of the exchange').fill('Kraken');

    // A mistyped address is refused before anything is held.
    await form.getByRole('button', { name: 'Withdraw' }).click();
    const invalid = page.getByRole('alert').filter({ hasText: 'Invalid Address' });
    await expect(invalid).toContainText(
      `The address (${MISTYPED_BTC_ADDRESS}) you provided is incorrect. Please try again or contact support.`,
    );
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('1.00000 BTC');
    await saveScreenshots('crypto-withdraw-invalid-address');

    await form.getByLabel('Destination address').fill(BTC_ADDRESS);
    const since = new Date(Date.now() - 1_000);
    await form.getByRole('button', { name: 'Withdraw' }).click();
    const verification = page.getByRole('dialog', { name: 'Withdraw Verification' });
    await expect(verification).toContainText(
      'We have e-mailed you a 6-digit code. Enter it to confirm this withdrawal.',
    );
    // The coins are held as soon as the code is sent.
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('0.50000 BTC');
    // What the code approves, the whole address included.
    const approving = {
      address: BTC_ADDRESS,
      amount: '0.50000 BTC',
      fee: '0.00050 BTC',
      receive: '0.49950 BTC',
    };
    await expectSummary(verification, approving);
    const mail = await mailbox.waitForMail(customer.email, 'Your withdrawal code', { since });
    const code = codeIn(mail.text);
    const firstDigit = verification.getByRole('textbox', { name: 'Verification code, digit 1 of 6' });
    const wrongCode = code.replace(/^\d/, (digit) => String((Number(digit) + 1) % 10));
    await firstDigit.pressSequentially(wrongCode);
    await verification.getByRole('button', { name: 'Verify' }).click();
    await expect(verification.getByRole('alert')).toHaveText(
      'This verification code is wrong. Please check the e-mail and try again.',
    );
    await firstDigit.pressSequentially(code);
    await saveScreenshots('crypto-withdraw-verification');
    await verification.getByRole('button', { name: 'Verify' }).click();

    // The authenticator's code, submitted by itself after the sixth digit.
    const twoFactor = page.getByRole('dialog', { name: 'Two Factor Authentication' });
    await expect(twoFactor).toBeVisible();
    await expect(twoFactor.getByRole('button', { name: 'Send 2FA' })).toHaveCount(0);
    await expect(twoFactor).toContainText('Enter the 6-digit code from your authenticator app.');
    await expectSummary(twoFactor, approving);
    await saveScreenshots('crypto-withdraw-two-factor');
    await twoFactor
      .getByRole('textbox', { name: '2FA code, digit 1 of 6' })
      .pressSequentially(await authenticator.code());
    await expect(
      page.getByRole('alert').filter({
        hasText:
          'Your withdrawal request has been received. We send it once our team has checked it, and e-mail you when it is on its way.',
      }),
    ).toBeVisible();
    await expect(twoFactor).toBeHidden();
    await expect(quantity).toHaveValue('');

    const activity = page.getByRole('list', { name: 'BTC activity' });
    const pending = activity.getByRole('listitem', { name: 'Withdrawal -0.50000 BTC Pending' });
    await expect(pending).toBeVisible();
    await expect(pending.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('0.50000 BTC');
    await saveScreenshots('crypto-withdraw-pending');

    const balances = await page.request.get('/api/v1/balance');
    const btc = (
      (await balances.json()) as {
        data: [{ balances: Record<string, { amount: string; available: string }> }];
      }
    ).data[0].balances.btc;
    expect(btc?.available).toBe('0.50000000');
    expect(consoleErrors).toEqual([]);
  });

  test('an XRP withdrawal without a destination tag asks first, and closing the verification cancels it with the coins coming back', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await fund(api, customer.email, 'XRP', '100');
    await page.goto('/user/withdraw-deposit?withdraw');
    await chooseCoin(page, 'XRP');
    const form = page.getByRole('form', { name: 'Withdraw XRP' });
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('100.00000 XRP');

    const quantity = form.getByLabel('Quantity');
    await quantity.fill('25.5');
    await expect(quantity).toHaveValue('255');
    await quantity.fill('25');
    await form.getByLabel('Destination address').fill(XRP_ADDRESS);
    await form.getByRole('radio', { name: 'Another person' }).check();
    await form.getByRole('button', { name: 'Withdraw' }).click();
    await expect(form.getByText("Please give the full name of the wallet's owner.")).toBeVisible();
    await form.getByLabel('Full name of the owner').fill('Ada Lovelace');
    await form.getByRole('radio', { name: 'A private wallet' }).check();

    await form.getByRole('button', { name: 'Withdraw' }).click();
    const question = page.getByRole('dialog', { name: 'No destination tag' });
    await expect(question).toContainText(
      'You have not entered an XRP destination tag. Exchanges usually need one to credit you, and XRP sent without it may be lost. Withdraw without a tag?',
    );
    await saveScreenshots('crypto-withdraw-xrp-no-tag');
    await question.getByRole('button', { name: 'Add a tag' }).click();
    await expect(question).toBeHidden();
    await expect(page.getByRole('dialog', { name: 'Withdraw Verification' })).toHaveCount(0);
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('100.00000 XRP');

    await form.getByRole('button', { name: 'Withdraw' }).click();
    await question.getByRole('button', { name: 'Withdraw without a tag' }).click();
    const verification = page.getByRole('dialog', { name: 'Withdraw Verification' });
    await expect(verification).toBeVisible();
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('75.00000 XRP');

    await verification.getByRole('button', { name: 'Close and cancel the withdrawal' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'Withdrawal cancelled. The coins are back in your balance.' }),
    ).toBeVisible();
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('100.00000 XRP');
    await expect(
      page
        .getByRole('list', { name: 'XRP activity' })
        .getByRole('listitem', { name: 'Withdrawal -25.00000 XRP Cancelled' }),
    ).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('the Withdraw Verification modal offers Resend once the e-mailed code has expired, and the new code approves the withdrawal', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    mailbox,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await fund(api, customer.email, 'XRP', '100');
    // The browser's own clock, so ten minutes pass at once; the server's stays real.
    await page.clock.install();
    const form = await fillXrpWithdrawal(page);
    await form.getByRole('button', { name: 'Withdraw' }).click();
    const verification = page.getByRole('dialog', { name: 'Withdraw Verification' });
    await expect(verification).toBeVisible();
    const resend = verification.getByRole('button', { name: 'Resend' });
    await expect(resend).toHaveCount(0);

    // Ten minutes on, the code has expired: the modal says so and offers a new one.
    await page.clock.fastForward('10:01');
    await expect(verification.getByRole('alert')).toHaveText('Verification Code Expired');
    await saveScreenshots('crypto-withdraw-code-expired');
    const since = new Date();
    await resend.click();
    await expect(verification).toContainText('We have e-mailed you a new code.');
    await expect(resend).toHaveCount(0);
    await typeMailedCode(verification, mailbox, customer.email, since);
    await verification.getByRole('button', { name: 'Verify' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Your withdrawal request has been received.' }),
    ).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('a customer without 2FA sees what the e-mailed code approves, and while the withdrawal is being sent Verify stays busy and the modal cannot be closed', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    mailbox,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await fund(api, customer.email, 'XRP', '100');
    const form = await fillXrpWithdrawal(page);
    const fee = (await form.getByTestId('crypto-withdraw-fee').textContent()) ?? '';
    const receive = (await form.getByTestId('crypto-withdraw-receive').textContent()) ?? '';
    expect(fee).toMatch(/^\d+\.\d{5} XRP$/);

    const since = new Date(Date.now() - 1_000);
    await form.getByRole('button', { name: 'Withdraw' }).click();
    const verification = page.getByRole('dialog', { name: 'Withdraw Verification' });
    await expectSummary(verification, {
      address: XRP_ADDRESS,
      tag: '4021',
      amount: '25.00000 XRP',
      fee,
      receive,
    });
    await saveScreenshots('crypto-withdraw-verification-summary');

    // The accepted code is the last step: the withdrawal is sent at once. Hold it on the way.
    const cancels: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/v1\/crypto\/withdrawals\/[^/]+\/cancel$/.test(request.url())) cancels.push(request.url());
    });
    const release = await holdRequests(page, '**/api/v1/crypto/withdraw');
    const submitted = page.waitForRequest((request) => request.url().endsWith('/api/v1/crypto/withdraw'));
    await typeMailedCode(verification, mailbox, customer.email, since);
    const verify = verification.getByRole('button', { name: 'Verify' });
    await verify.click();
    await submitted;

    // While it is on its way: Verify busy, and neither Escape nor the close button cancels it.
    await expect(verify).toBeDisabled();
    await expect(verify).toHaveAttribute('aria-busy', 'true');
    await expect(verify).toHaveAttribute('data-loading', 'true');
    await expect(
      verification.getByRole('button', { name: 'Close and cancel the withdrawal' }),
    ).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(verification).toBeVisible();
    await saveScreenshots('crypto-withdraw-verification-sending', [375]);

    release();
    await expect(
      page.getByRole('alert').filter({
        hasText:
          'Your withdrawal request has been received. We send it once our team has checked it, and e-mail you when it is on its way.',
      }),
    ).toBeVisible();
    await expect(verification).toBeHidden();
    await expect(
      page
        .getByRole('list', { name: 'XRP activity' })
        .getByRole('listitem', { name: 'Withdrawal -25.00000 XRP Pending' }),
    ).toBeVisible();
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('75.00000 XRP');
    await expect(page.getByRole('alert').filter({ hasText: 'Withdrawal cancelled' })).toHaveCount(0);
    expect(cancels).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('a customer whose second factor is e-mailed codes is asked for the e-mailed code, and a failed Send 2FA reads "Something went wrong"', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    mailbox,
    saveScreenshots,
    consoleErrors,
  }) => {
    const userId = await makeCustomerLive(page, complianceApi);
    await switchOnEmailCodes(complianceApi, userId);
    // Switching to e-mailed codes pauses withdrawals for a day.
    await passSecurityWaits(api, customer.email);
    await fund(api, customer.email, 'BTC', '1.00000000');
    await page.goto('/user/withdraw-deposit?withdraw');
    await chooseCoin(page, 'BTC');
    const form = page.getByRole('form', { name: 'Withdraw BTC' });
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('1.00000 BTC');
    await form.getByLabel('Destination address').fill(BTC_ADDRESS);
    await form.getByLabel('Quantity').fill('0.2');
    await form.getByRole('radio', { name: 'Me: it is my own wallet' }).check();
    await form.getByRole('radio', { name: 'A private wallet' }).check();
    const since = new Date(Date.now() - 1_000);
    await form.getByRole('button', { name: 'Withdraw' }).click();

    const verification = page.getByRole('dialog', { name: 'Withdraw Verification' });
    await typeMailedCode(verification, mailbox, customer.email, since);
    await verification.getByRole('button', { name: 'Verify' }).click();

    const twoFactor = page.getByRole('dialog', { name: 'Two Factor Authentication' });
    await expect(twoFactor).toContainText('Press Send 2FA and enter the 6-digit code we e-mail you.');
    await expect(twoFactor).not.toContainText('authenticator');
    await expectSummary(twoFactor, {
      address: BTC_ADDRESS,
      amount: '0.20000 BTC',
      fee: '0.00050 BTC',
      receive: '0.19950 BTC',
    });

    // The code request fails once (too many asked for): the spec's words, as on every other form.
    await page.route('**/api/v1/mobile/request-2fa', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'RATE_LIMITED',
          message: 'Too many attempts. Please wait a minute and try again.',
        }),
      }),
    );
    await twoFactor.getByRole('button', { name: 'Send 2FA' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    await expect(failure).toContainText('Too many attempts. Please wait a minute and try again.');
    await saveScreenshots('crypto-withdraw-two-factor-email');
    // Toasts sit beneath dialogs (they must never cover Confirm): this one closes by itself.
    await expect(failure).toBeHidden();
    await page.unroute('**/api/v1/mobile/request-2fa');

    const codeSince = new Date(Date.now() - 1_000);
    await twoFactor.getByRole('button', { name: 'Send 2FA' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: '2fa passcode sent please check email!' }),
    ).toBeVisible();
    const codeMail = await mailbox.waitForMail(customer.email, 'Your withdrawal code', { since: codeSince });
    await twoFactor
      .getByRole('textbox', { name: '2FA code, digit 1 of 6' })
      .pressSequentially(codeIn(codeMail.text));
    await expect(
      page.getByRole('alert').filter({
        hasText:
          'Your withdrawal request has been received. We send it once our team has checked it, and e-mail you when it is on its way.',
      }),
    ).toBeVisible();
    await expect(twoFactor).toBeHidden();
    await expect(
      page
        .getByRole('list', { name: 'BTC activity' })
        .getByRole('listitem', { name: 'Withdrawal -0.20000 BTC Pending' }),
    ).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('a saved address can be chosen once its 24 hours are over, a newer one shows when it becomes usable, closing the verification cancels the withdrawal, and an address removed in Settings leaves the dropdown', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    mailbox,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    const { authenticator } = await enableTwoFactor(page.request);
    await fund(api, customer.email, 'BTC', '1.00000000');
    await whitelist(page.request, authenticator, { address: BTC_ADDRESS, label: 'My hardware wallet' });
    // A day later the first address is usable; the second is added then and waits its own day.
    await passSecurityWaits(api, customer.email);
    await whitelist(page.request, authenticator, { address: SECOND_BTC_ADDRESS, label: 'Exchange' });

    // The saved addresses cannot be read at first (the read and its one retry fail): the form says so.
    let failures = 2;
    await page.route('**/api/v1/wallet-address/list?**', (route) =>
      failures-- > 0
        ? route.fulfill({ status: 503, json: { code: 'INTERNAL', message: 'Down' } })
        : route.fallback(),
    );
    await page.goto('/user/withdraw-deposit?withdraw');
    await chooseCoin(page, 'BTC');
    const form = page.getByRole('form', { name: 'Withdraw BTC' });
    await form.getByRole('checkbox', { name: 'Select from saved addresses' }).check();
    await expect(form.getByLabel('Destination address')).toHaveCount(0);
    const failed = form
      .getByRole('alert')
      .filter({ hasText: 'Your saved BTC addresses could not be loaded.' });
    await expect(failed).toBeVisible();
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect(failed).toHaveCount(0);
    await form.getByRole('combobox', { name: 'Saved address' }).click();
    const usable = page.getByRole('option', { name: 'My hardware wallet (********5mdq)' });
    const waiting = page.getByRole('option', { name: /^Exchange \(\*{8}f3t4\) · usable from / });
    await expect(usable).toBeVisible();
    await expect(waiting).toBeVisible();
    await expect(waiting).toHaveAttribute('aria-disabled', 'true');
    await saveScreenshots('crypto-withdraw-saved-addresses');
    await usable.click();

    await form.getByLabel('Quantity').fill('0.1');
    await form.getByRole('radio', { name: 'Me: it is my own wallet' }).check();
    await form.getByRole('radio', { name: 'A private wallet' }).check();
    await form.getByRole('button', { name: 'Withdraw' }).click();
    const verification = page.getByRole('dialog', { name: 'Withdraw Verification' });
    await expect(verification).toBeVisible();
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('0.90000 BTC');

    await verification.getByRole('button', { name: 'Close and cancel the withdrawal' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'Withdrawal cancelled. The coins are back in your balance.' }),
    ).toBeVisible();
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('1.00000 BTC');
    await expect(
      page
        .getByRole('list', { name: 'BTC activity' })
        .getByRole('listitem', { name: 'Withdrawal -0.10000 BTC Cancelled' }),
    ).toBeVisible();

    // Without leaving the app, the customer removes the newer address in Settings; back on the form,
    // the dropdown no longer offers it (the list the form read a moment ago is not reused).
    const since = new Date(Date.now() - 1_000);
    await page.getByRole('button', { name: /, account menu$/ }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Wallet Whitelisting' }).click();
    await page
      .getByRole('list', { name: 'Whitelisted wallets' })
      .getByRole('button', { name: 'Remove Exchange' })
      .click();
    const removal = page.getByRole('dialog', { name: 'Remove whitelisted address' });
    const mail = await mailbox.waitForMail(customer.email, 'Your code to remove a whitelisted address', {
      since,
    });
    await removal
      .getByRole('textbox', { name: 'Verification code, digit 1 of 6' })
      .pressSequentially(codeIn(mail.text));
    await expect(page.getByRole('alert').filter({ hasText: WHITELIST_TEXTS.walletRemoved })).toBeVisible();
    await page.goBack();
    await chooseCoin(page, 'BTC');
    await form.getByRole('checkbox', { name: 'Select from saved addresses' }).check();
    await form.getByRole('combobox', { name: 'Saved address' }).click();
    await expect(usable).toBeVisible();
    await expect(page.getByRole('option', { name: /^Exchange / })).toHaveCount(0);
    // Only the two refused reads of the saved addresses (the browser logs each failed request).
    expect(consoleErrors.filter((error) => !error.includes('/api/v1/wallet-address/list'))).toEqual([]);
  });

  test('the whole story: the customer whitelists an address in Settings, withdraws to it with the e-mailed code and an authenticator code, finance approves and sends it, and balance and history match', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    financeApi,
    mailbox,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    const { authenticator } = await enableTwoFactor(page.request);
    await fund(api, customer.email, 'BTC', '1.00000000');

    // Settings: whitelist the address with an authenticator code.
    await page.goto('/user/settings?tab=wallet');
    const whitelistForm = page.getByRole('form', { name: 'Whitelist a wallet address' });
    await whitelistForm.getByLabel('Coin').selectOption('btc');
    await whitelistForm.getByLabel('Wallet Address').fill(BTC_ADDRESS);
    await whitelistForm.getByLabel('Label').fill('My hardware wallet');
    await whitelistForm.getByLabel('2FA Code').fill(await authenticator.code());
    await whitelistForm.getByRole('button', { name: 'Whitelist Address' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Successfully Whitelisted Wallet Address.' }),
    ).toBeVisible();

    // A day later: the 2FA pause is over and the address is usable.
    await passSecurityWaits(api, customer.email);
    await page.goto('/user/withdraw-deposit?withdraw');
    await chooseCoin(page, 'BTC');
    const form = page.getByRole('form', { name: 'Withdraw BTC' });
    await form.getByRole('checkbox', { name: 'Select from saved addresses' }).check();
    await form.getByRole('combobox', { name: 'Saved address' }).click();
    await page.getByRole('option', { name: 'My hardware wallet (********5mdq)' }).click();
    await form.getByLabel('Quantity').fill('0.3');
    await form.getByRole('radio', { name: 'Me: it is my own wallet' }).check();
    await form.getByRole('radio', { name: 'A private wallet' }).check();
    const since = new Date(Date.now() - 1_000);
    await form.getByRole('button', { name: 'Withdraw' }).click();

    const verification = page.getByRole('dialog', { name: 'Withdraw Verification' });
    await typeMailedCode(verification, mailbox, customer.email, since);
    await verification.getByRole('button', { name: 'Verify' }).click();
    const twoFactor = page.getByRole('dialog', { name: 'Two Factor Authentication' });
    await expect(twoFactor).toBeVisible();
    await twoFactor
      .getByRole('textbox', { name: '2FA code, digit 1 of 6' })
      .pressSequentially(await authenticator.code());
    await expect(twoFactor).toBeHidden();
    const activity = page.getByRole('list', { name: 'BTC activity' });
    await expect(activity.getByRole('listitem', { name: 'Withdrawal -0.30000 BTC Pending' })).toBeVisible();
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('0.70000 BTC');

    // Finance approves and sends it from the payout queue (the screens have their own test).
    const queue = await financeApi.get('/api/admin/crypto/withdrawals');
    const row = (
      (await queue.json()) as { data: { id: string; user_identification: string; whitelisted: boolean }[] }
    ).data.find((item) => item.whitelisted);
    expect(row).toBeDefined();
    const headers = await csrfHeaders(financeApi);
    const approved = await financeApi.post(`/api/admin/crypto/withdrawals/${row?.id}/approve`, {
      data: {},
      headers,
    });
    expect(approved.ok(), await approved.text()).toBe(true);
    const sent = await financeApi.post(`/api/admin/crypto/withdrawals/${row?.id}/send`, {
      data: {},
      headers,
    });
    expect(sent.ok(), await sent.text()).toBe(true);

    // The customer's page: sent, the balance unchanged by the send (it was held), and the history has it.
    await expect(activity.getByRole('listitem', { name: 'Withdrawal -0.30000 BTC Sent' })).toBeVisible();
    await expect(form.getByTestId('crypto-withdraw-balance')).toHaveText('0.70000 BTC');
    await mailbox.waitForMail(customer.email, 'Your crypto withdrawal was sent', { since });
    await page.goto('/user');
    const recent = page.getByRole('table', { name: 'Recent activity' });
    await expect(recent.getByRole('row').filter({ hasText: 'Withdraw' })).toContainText('0.30000');
    expect(consoleErrors).toEqual([]);
  });
});
