import { readFile } from 'node:fs/promises';
import { passSecurityWaits } from '../crypto/crypto-actions.js';
import { currentUser } from '../kyc/customer-actions.js';
import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';
import {
  expect,
  passBankDetailsWait,
  saveScreenshotsOf,
  setGbpDepositDetails,
  switchOnEmailCodes,
  test,
  verifyBankAccount,
} from './fiat-fixtures.js';

/**
 * DECISIONS.md: withdrawals wait 24 hours after bank details are given, and
 * neither staff verification nor anything else the server offers lifts the
 * wait. The story moves the waits' start into the past through the e2e
 * server's dev routes.
 */
test.describe('fiat withdrawals to the registered bank account', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a live customer with e-mailed codes withdraws with a code from their mailbox and sees it pending; finance marks it paid; a second is rejected and a third cancelled, the money coming back each time', async ({
    signedInPage: page,
    customer,
    api,
    mailbox,
    complianceApi,
    financeApi,
    staffMember,
    signInStaff,
    newDevice,
    saveScreenshots,
    consoleErrors,
  }) => {
    const userId = await makeCustomerLive(page, complianceApi);
    await setGbpDepositDetails(financeApi);
    await switchOnEmailCodes(complianceApi, userId);
    await fund(api, customer.email, 'GBP', '1000.00');

    // Without a bank account there is nothing to withdraw to.
    await page.goto('/user/withdraw-deposit?withdraw');
    await expect(page.getByRole('tab', { name: 'Withdraw' })).toHaveAttribute('aria-selected', 'true');
    const warning = page.getByRole('alert').filter({ hasText: 'Register Bank Details!' });
    await expect(warning).toContainText('You need to register your bank account first to withdraw');
    await saveScreenshots('wallets-withdraw-register-bank');
    await warning.getByRole('button', { name: 'Register a bank account' }).click();
    await expect(page).toHaveURL(/\?deposit$/);
    const bankForm = page.getByRole('form', { name: 'Your GBP bank account' });
    await bankForm
      .getByLabel('Bank Name', { exact: true })
      .fill(`${customer.firstName} ${customer.lastName}`);
    await bankForm.getByLabel('Account Number or BIC Code').fill('87654321');
    await bankForm.getByLabel('Sort Code or IBAN').fill('20-00-00');
    await bankForm.getByRole('button', { name: 'Add Account' }).click();
    await expect(bankForm.getByRole('button', { name: 'Update Account' })).toBeVisible();

    // Finance checks the account is the customer's and verifies it; the 24-hour wait still holds.
    await verifyBankAccount(financeApi, userId);
    await page.getByRole('tab', { name: 'Withdraw' }).click();
    const withdraw = page.getByRole('form', { name: 'Withdraw GBP' });
    await expect(withdraw).toContainText('Your bank details changed recently');
    // Switching on e-mailed codes started the 24-hour wait of a 2FA change: the form says so too.
    await expect(withdraw).toContainText(
      'Your two-factor authentication was reset recently: withdrawals are possible again from',
    );
    await saveScreenshots('wallets-withdraw-waits');
    await expect(withdraw.getByRole('button', { name: 'Withdraw' })).toBeDisabled();

    // Nearly a day later (the dev routes move the switch to e-mailed codes, and the bank details, into the past):
    // the bank details' wait ends a few seconds from now, and the open form lets go of it when it ends.
    await passSecurityWaits(api, customer.email);
    await passBankDetailsWait(api, customer.email, { endsInSeconds: 15 });
    await page.reload();
    await expect(withdraw).toContainText('Your bank details changed recently');
    await expect(withdraw).not.toContainText('Your two-factor authentication was reset recently');
    await expect(withdraw.getByRole('button', { name: 'Withdraw' })).toBeDisabled();
    await expect(withdraw.getByRole('button', { name: 'Withdraw' })).toBeEnabled({ timeout: 30_000 });
    await expect(withdraw).not.toContainText('Your bank details changed recently');
    const available = page.getByTestId('withdraw-available');
    await expect(available).toHaveText('£1,000.00');

    // The form's own checks, in the spec's words.
    await withdraw.getByRole('button', { name: 'Withdraw' }).click();
    await expect(withdraw.getByText('Please Enter Amount.')).toBeVisible();
    await expect(withdraw.getByText('Please provide 2FA Code.')).toBeVisible();
    await withdraw.getByLabel('Amount').fill('1000.01');
    await withdraw.getByRole('button', { name: 'Withdraw' }).click();
    await expect(
      withdraw.getByText('Your remaining balance is not enough to perform this transaction.'),
    ).toBeVisible();

    await withdraw.getByRole('button', { name: 'Max' }).click();
    await expect(withdraw.getByLabel('Amount')).toHaveValue('1000.00');
    await withdraw.getByLabel('Amount').fill('100');
    await expect(page.getByTestId('withdraw-fee')).toHaveText('£5.00');
    await expect(page.getByTestId('withdraw-receive')).toHaveText('£95.00');

    const since = new Date(Date.now() - 1_000);
    await withdraw.getByRole('button', { name: 'Send 2FA' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: '2fa passcode sent please check email!' }),
    ).toBeVisible();
    const mail = await mailbox.waitForMail(customer.email, 'Your withdrawal code', { since });
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    await withdraw.getByLabel('2FA Code').fill(code);
    await withdraw.getByRole('button', { name: 'Withdraw' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Transaction Successful' })).toBeVisible();
    await expect(withdraw.getByLabel('Amount')).toHaveValue('');
    await expect(withdraw.getByLabel('2FA Code')).toHaveValue('');
    await expect(available).toHaveText('£900.00');

    const activity = page.getByRole('list', { name: 'GBP activity' });
    const firstWithdrawal = activity.getByRole('listitem', { name: 'Withdrawal -100.00 GBP Pending' });
    await expect(firstWithdrawal).toBeVisible();
    await expect(firstWithdrawal.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await saveScreenshots('wallets-withdraw-pending');

    // Finance pays it from the bank and marks it paid.
    const finance = await staffMember('finance');
    const { page: staffPage } = await newDevice();
    await signInStaff(staffPage, finance);
    await staffPage.getByRole('link', { name: 'Payouts' }).first().click();
    const name = `${customer.firstName} ${customer.lastName}`;
    const payout = staffPage
      .getByRole('list', { name: 'Open withdrawals' })
      .getByRole('listitem', { name: `Withdrawal of 100.00 GBP by ${name}` });
    await expect(payout).toContainText('87654321');
    await expect(payout).toContainText('200000');
    await expect(payout).toContainText('95.00 GBP');
    await saveScreenshotsOf(staffPage, 'admin-payouts');
    // The payout file goes to the bank; from then on the customer can no longer cancel the withdrawal.
    const download = staffPage.waitForEvent('download');
    await staffPage.getByRole('button', { name: 'Export payout file' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^payouts-GBP-.+\.csv$/);
    const csv = await readFile((await file.path()) ?? '', 'utf8');
    expect(csv).toContain(`${name},200000,87654321,95.00,GBP,FLORIN W`);
    await expect(payout.getByText('In payout file')).toBeVisible();
    await saveScreenshotsOf(staffPage, 'admin-payouts-exported');
    // The bank is paying it now: rejecting it (the money back to the customer) waits for the bank's return.
    await payout.getByRole('button', { name: 'Reject' }).click();
    const filedReject = staffPage.getByRole('dialog', { name: 'Reject withdrawal' });
    await expect(filedReject).toContainText('reject it only if the bank has returned the payment');
    await filedReject.getByLabel('Reason the customer reads').fill('Returned by the bank.');
    await expect(filedReject.getByRole('button', { name: 'Reject' })).toBeDisabled();
    await expect(
      filedReject.getByRole('checkbox', { name: 'The bank has returned this payment.' }),
    ).toBeVisible();
    await saveScreenshotsOf(staffPage, 'admin-payouts-reject-filed');
    await filedReject.getByRole('button', { name: 'Cancel' }).click();
    await expect(filedReject).toBeHidden();
    await page.reload();
    await expect(firstWithdrawal).toBeVisible();
    await expect(firstWithdrawal.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
    await payout.getByRole('button', { name: 'Mark as paid' }).click();
    const paidDialog = staffPage.getByRole('dialog', { name: 'Mark as paid' });
    await paidDialog.getByLabel('Payment reference').fill('FPS-7730021');
    await paidDialog.getByRole('button', { name: 'Mark as paid' }).click();
    await expect(payout).toHaveCount(0);

    // The customer's list follows: paid, the balance debited once.
    await expect(activity.getByRole('listitem', { name: 'Withdrawal -100.00 GBP Paid' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(available).toHaveText('£900.00');

    // A second withdrawal, rejected: the money comes back.
    await withdraw.getByLabel('Amount').fill('50');
    const sinceSecond = new Date(Date.now() - 1_000);
    await withdraw.getByRole('button', { name: 'Send 2FA' }).click();
    const secondMail = await mailbox.waitForMail(customer.email, 'Your withdrawal code', {
      since: sinceSecond,
    });
    await withdraw.getByLabel('2FA Code').fill(/\b(\d{6})\b/.exec(secondMail.text)?.[1] ?? '');
    await withdraw.getByRole('button', { name: 'Withdraw' }).click();
    await expect(available).toHaveText('£850.00');
    await expect(activity.getByRole('listitem', { name: 'Withdrawal -50.00 GBP Pending' })).toBeVisible();

    await staffPage.reload();
    const secondPayout = staffPage.getByRole('listitem', { name: `Withdrawal of 50.00 GBP by ${name}` });
    await secondPayout.getByRole('button', { name: 'Reject' }).click();
    const rejectDialog = staffPage.getByRole('dialog', { name: 'Reject withdrawal' });
    await rejectDialog
      .getByLabel('Reason the customer reads')
      .fill('The bank refused the payment: please check your details.');
    await rejectDialog.getByRole('button', { name: 'Reject' }).click();
    await expect(secondPayout).toHaveCount(0);

    const rejected = activity.getByRole('listitem', { name: 'Withdrawal -50.00 GBP Rejected' });
    await expect(rejected).toBeVisible({ timeout: 15_000 });
    await expect(rejected).toContainText('The bank refused the payment');
    await expect(available).toHaveText('£900.00');

    // A third, cancelled by the customer while pending.
    await withdraw.getByLabel('Amount').fill('30');
    const sinceThird = new Date(Date.now() - 1_000);
    await withdraw.getByRole('button', { name: 'Send 2FA' }).click();
    const thirdMail = await mailbox.waitForMail(customer.email, 'Your withdrawal code', {
      since: sinceThird,
    });
    await withdraw.getByLabel('2FA Code').fill(/\b(\d{6})\b/.exec(thirdMail.text)?.[1] ?? '');
    await withdraw.getByRole('button', { name: 'Withdraw' }).click();
    await expect(available).toHaveText('£870.00');
    await activity
      .getByRole('listitem', { name: 'Withdrawal -30.00 GBP Pending' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await page
      .getByRole('dialog', { name: 'Cancel withdrawal' })
      .getByRole('button', { name: 'Cancel withdrawal' })
      .click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Withdrawal cancelled. The money is back in your balance.' }),
    ).toBeVisible();
    await expect(activity.getByRole('listitem', { name: 'Withdrawal -30.00 GBP Cancelled' })).toBeVisible();
    await expect(available).toHaveText('£900.00');
    await saveScreenshots('wallets-withdraw-history');

    const balances = await page.request.get('/api/v1/balance');
    const gbp = ((await balances.json()) as { data: [{ balances: Record<string, { amount: string }> }] })
      .data[0].balances.GBP;
    expect(gbp?.amount).toBe('900.00');
    expect((await currentUser(page.request)).id).toBe(userId);
    expect(consoleErrors).toEqual([]);
  });
});
