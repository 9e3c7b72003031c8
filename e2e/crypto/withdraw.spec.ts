import { enableTwoFactor, holdRequests } from '../fixtures.js';
import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { expect, switchOnEmailCodes, test } from '../wallets/fiat-fixtures.js';
import { chooseCoin, passSecurityWaits } from './crypto-actions.js';
import {
  BTC_ADDRESS,
  MISTYPED_BTC_ADDRESS,
  XRP_ADDRESS,
  codeIn,
  expectSummary,
  fillXrpWithdrawal,
  typeMailedCode,
} from './withdraw-actions.js';

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
    await expect(form.getByLabel('Destination tag')).toBeFocused();
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
});

test.describe('verifying a crypto withdrawal with the e-mailed code and the second factor', () => {
  test.describe.configure({ timeout: 180_000 });

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
});
