import { ERROR_CODES, TERM_DEPOSIT_TEXTS } from '@florin/contracts';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders } from '../fixtures.js';
import { fund, makeCustomerLive } from '../dashboard/dashboard-actions.js';

type Balances = {
  data: { balances: Record<string, { available: string; term_deposit: string }> }[];
};

async function ethBalance(request: APIRequestContext) {
  const response = await request.get('/api/v1/balance?percentage=true');
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as Balances).data[0]?.balances.eth;
}

let keys = 0;

/** A deposit made through the API, as from another tab. */
async function lockElsewhere(request: APIRequestContext, amount: string, day: number): Promise<void> {
  keys += 1;
  const response = await request.post('/api/v1/crypto/term-deposit', {
    data: { coin: 'eth', amount, day },
    headers: { ...(await csrfHeaders(request)), 'idempotency-key': `e2e-term-${Date.now()}-${keys}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test.describe('term deposits', () => {
  test.describe.configure({ timeout: 150_000 });

  test('a live customer locks 0.5 ETH for the shortest term, sees it Live and not spendable, and at maturity gets it back with the interest; the history pages with View More', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await fund(api, customer.email, 'ETH', '1');

    await page.goto('/user');
    await page.getByRole('link', { name: 'Term Deposits' }).first().click();
    await expect(page).toHaveURL(/\/user\/term-deposit$/);
    await expect(page.getByRole('heading', { level: 1, name: TERM_DEPOSIT_TEXTS.pageTitle })).toBeVisible();
    await expect(page.getByText(TERM_DEPOSIT_TEXTS.noDeposits)).toBeVisible();

    const deposits = page.getByRole('table', { name: 'Coins to deposit' });
    const eth = deposits.getByRole('row').filter({ hasText: 'Ethereum' });
    await expect(eth).toContainText('1.00000 ETH');
    // The shortest term is chosen first.
    await expect(eth.getByRole('combobox', { name: 'Days Ethereum' })).toHaveValue('30 days');
    await expect(eth).toContainText('0.25%');

    // Transfer checks the amount first: the spec's texts under Failed!.
    const transfer = eth.getByRole('button', { name: 'Transfer Ethereum' });
    await transfer.click();
    const failed = page.getByRole('alert').filter({ hasText: TERM_DEPOSIT_TEXTS.failedTitle });
    await expect(failed).toContainText(TERM_DEPOSIT_TEXTS.inputAmount);
    const amount = eth.getByRole('textbox', { name: 'Amount Ethereum' });
    await amount.fill('2');
    await expect(eth).not.toContainText('2.00500 ETH');
    await transfer.click();
    await expect(
      page.getByRole('alert').filter({ hasText: TERM_DEPOSIT_TEXTS.amountExceeded }),
    ).toBeVisible();
    await amount.fill('0');
    await transfer.click();
    await expect(page.getByRole('alert').filter({ hasText: TERM_DEPOSIT_TEXTS.invalidAmount })).toBeVisible();
    // The term's minimum and the decimals a deposit may carry are checked before the confirmation too.
    await amount.fill('0.000000001');
    await transfer.click();
    const tooSmall = page.getByRole('alert').filter({ hasText: 'Enter at most 8 decimal places.' });
    await expect(tooSmall).toContainText('The smallest deposit for this term is 0.01 ETH.');
    await expect(page.getByRole('dialog', { name: TERM_DEPOSIT_TEXTS.confirmTitle })).toHaveCount(0);

    // 0.5 ETH at 0.25 % for the term: earn 0.00125, balance 0.50125.
    await amount.fill('0.5');
    await expect(eth).toContainText('0.00125 ETH');
    await expect(eth).toContainText('0.50125 ETH');
    await transfer.click();
    const dialog = page.getByRole('dialog', { name: TERM_DEPOSIT_TEXTS.confirmTitle });
    await expect(dialog).toContainText(TERM_DEPOSIT_TEXTS.lockedUntilExpiry);
    await expect(dialog).toContainText(TERM_DEPOSIT_TEXTS.riskValue);
    await expect(dialog).toContainText(TERM_DEPOSIT_TEXTS.riskNotSavings);
    await expect(dialog).toContainText(TERM_DEPOSIT_TEXTS.riskNotProtected);
    await expect(dialog).toContainText('30 days');
    await saveScreenshots('term-deposit-confirm');
    // The deposit is made but its answer is lost on the way: the modal stays, and Confirm again sends the
    // same request, which the server answers with that deposit rather than locking the coins twice.
    let answered = false;
    await page.route('**/api/v1/crypto/term-deposit', async (route) => {
      if (answered) return route.continue();
      answered = true;
      await route.fetch();
      return route.abort('connectionreset');
    });
    await dialog.getByRole('button', { name: TERM_DEPOSIT_TEXTS.confirm }).click();
    await expect(page.getByRole('alert').filter({ hasText: ERROR_CODES.UNAVAILABLE.message })).toBeVisible();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: TERM_DEPOSIT_TEXTS.confirm }).click();

    await expect(page.getByRole('alert').filter({ hasText: TERM_DEPOSIT_TEXTS.success })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(amount).toHaveValue('');
    await expect(eth).toContainText('0.50000 ETH');

    const history = page.getByRole('table', { name: TERM_DEPOSIT_TEXTS.historyTitle });
    const first = history.getByRole('row').nth(1);
    await expect(first).toContainText('0.50000 ETH');
    await expect(first).toContainText('0.00125 ETH');
    await expect(first).toContainText('0.50125 ETH');
    await expect(first).toContainText('30 days');
    await expect(first).toContainText(TERM_DEPOSIT_TEXTS.live);
    await saveScreenshots('term-deposit-live');

    // Locked: not spendable. The balance keeps it apart, and a second deposit may not use it.
    expect(await ethBalance(page.request)).toMatchObject({
      available: '0.500000000000000000',
      term_deposit: '0.500000000000000000',
    });
    // A withdrawal may take only the free 0.5 ETH.
    const withdrawInfo = await page.request.get('/api/v1/crypto/withdraw-info?coin=eth');
    expect(withdrawInfo.ok(), await withdrawInfo.text()).toBe(true);
    expect(((await withdrawInfo.json()) as { data: { available: string } }).data.available).toMatch(
      /^0\.50*$/,
    );
    // Selling more than the free 0.5 ETH is beyond the balance a quote allows.
    const quoteHeaders = await csrfHeaders(page.request);
    for (const [quantity, exceeds] of [
      ['0.6', true],
      ['0.5', false],
    ] as const) {
      const quoted = await page.request.post('/api/v1/quotes', {
        data: { side: 'sell', coin_id: 'eth', currency: 'gbp', quantity },
        headers: quoteHeaders,
      });
      expect(quoted.ok(), await quoted.text()).toBe(true);
      expect(((await quoted.json()) as { data: { exceeds_balance: boolean } }).data.exceeds_balance).toBe(
        exceeds,
      );
    }
    await amount.fill('0.6');
    await transfer.click();
    await expect(
      page.getByRole('alert').filter({ hasText: TERM_DEPOSIT_TEXTS.amountExceeded }),
    ).toBeVisible();
    await amount.fill('');

    // The clock moves past maturity: the job pays principal and interest back.
    const matured = await api.post('/dev/term-deposits/mature', {
      data: { email: customer.email },
      headers: await csrfHeaders(api),
    });
    expect(matured.ok(), await matured.text()).toBe(true);
    await page.reload();
    await expect(eth).toContainText('1.00125 ETH');
    await expect(history.getByRole('row').nth(1)).toContainText(TERM_DEPOSIT_TEXTS.expired);
    expect(await ethBalance(page.request)).toMatchObject({
      available: '1.001250000000000000',
      term_deposit: '0.000000000000000000',
    });

    // Four more deposits: the history shows 3, then View More shows the rest.
    const day = Number(
      (
        (await (await page.request.get('/api/v1/term-deposit-coins')).json()) as {
          data: { coin_id: string; options: { id: number }[] }[];
        }
      ).data.find((coin) => coin.coin_id === 'eth')?.options[0]?.id,
    );
    for (const each of ['0.01', '0.02', '0.03', '0.04']) await lockElsewhere(page.request, each, day);
    await page.reload();
    await expect(history.getByRole('row')).toHaveCount(4);
    await expect(history.getByRole('row').nth(1)).toContainText('0.04000 ETH');
    await page.getByRole('button', { name: TERM_DEPOSIT_TEXTS.viewMore }).click();
    await expect(history.getByRole('row')).toHaveCount(6);
    await expect(history.getByRole('row').nth(5)).toContainText(TERM_DEPOSIT_TEXTS.expired);
    await expect(page.getByRole('button', { name: TERM_DEPOSIT_TEXTS.viewMore })).toBeHidden();
    await saveScreenshots('term-deposit-history');

    // On a phone each coin is a row that opens to the same form.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('button', { name: /^Ethereum / }).click();
    await expect(page.getByRole('textbox', { name: 'Amount Ethereum' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Transfer Ethereum' })).toBeVisible();
    await expect(page.getByRole('list', { name: TERM_DEPOSIT_TEXTS.historyTitle })).toBeVisible();
    await saveScreenshots('term-deposit-phone-row', [375]);

    // The lost answer above is the browser's own report of what the test did.
    expect(consoleErrors.filter((error) => !error.includes('/api/v1/crypto/term-deposit'))).toEqual([]);
  });

  test('finance offers a new term for a coin, is told what is wrong with a bad rate, and switches the term off', async ({
    page,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    // Days no other test or run uses.
    const days = String(400 + (Date.now() % 1000));
    await signInStaff(page, await staffMember('finance'));
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Term deposits' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Term deposits' })).toBeVisible();
    const terms = page.getByRole('table', { name: 'Terms offered' });
    // The defaults every coin starts with.
    await expect(terms.getByRole('row').filter({ hasText: 'ETH' }).first()).toContainText('0.25%');

    await page.getByRole('button', { name: 'Add a term' }).click();
    const form = page.getByRole('form', { name: 'Add a term' });
    await form
      .getByRole('textbox', { name: 'Coin' })
      .or(form.getByRole('combobox', { name: 'Coin' }))
      .click();
    await page.getByRole('option', { name: 'LTC' }).click();
    await form.getByRole('textbox', { name: 'Days' }).fill(days);
    await form.getByRole('textbox', { name: 'Rate for the whole term (%)' }).fill('abc');
    await form.getByRole('textbox', { name: 'Minimum amount' }).fill('0.1');
    await form.getByRole('textbox', { name: 'Cap on live deposits' }).fill('25');
    await form.getByRole('button', { name: 'Add term' }).click();
    await expect(form.getByText(TERM_DEPOSIT_TEXTS.rate)).toBeVisible();
    await saveScreenshots('admin-term-deposit-form');
    await form.getByRole('textbox', { name: 'Rate for the whole term (%)' }).fill('3.5');
    await form.getByRole('button', { name: 'Add term' }).click();
    await expect(form).toBeHidden();

    const row = terms
      .getByRole('row')
      .filter({ hasText: `${days}` })
      .filter({ hasText: 'LTC' });
    await expect(row).toContainText('3.5%');
    await expect(row).toContainText('25');
    await expect(row).toContainText('Offered');

    await row.getByRole('button', { name: `Change LTC ${days} days` }).click();
    const change = page.getByRole('form', { name: 'Change term' });
    await change.getByRole('switch', { name: 'Offered to customers' }).uncheck({ force: true });
    await change.getByRole('button', { name: 'Save term' }).click();
    await expect(change).toBeHidden();
    await expect(row).toContainText('Off');
    await saveScreenshots('admin-term-deposits');
    expect(consoleErrors).toEqual([]);
  });
});
