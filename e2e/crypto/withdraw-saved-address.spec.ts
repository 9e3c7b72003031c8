import { WHITELIST_TEXTS } from '@florin/contracts';
import { csrfHeaders, enableTwoFactor } from '../fixtures.js';
import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { expect, test } from '../wallets/fiat-fixtures.js';
import { chooseCoin, passSecurityWaits } from './crypto-actions.js';
import { BTC_ADDRESS, SECOND_BTC_ADDRESS, codeIn, typeMailedCode, whitelist } from './withdraw-actions.js';

test.describe('crypto withdrawals to a saved address', () => {
  test.describe.configure({ timeout: 180_000 });

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
