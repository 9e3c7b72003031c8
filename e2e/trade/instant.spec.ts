import { TRADING_TEXTS, type Quote } from '@florin/contracts';
import type { Page, Response } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import { csrfHeaders } from '../fixtures.js';
import { currentUser, submitIndividualDocuments } from '../kyc/customer-actions.js';
import { approveAllDocuments, makeLive } from '../kyc/staff-actions.js';
import { fund, makeCustomerLive, screenAmount, tradeElsewhere } from '../dashboard/dashboard-actions.js';

/** The simulated market ticks once a second; a few ticks is plenty, yet a dead stream still fails fast. */
const TICK_WAIT = { timeout: 15_000 };
/** One quote lasts 5 seconds; a re-quote arrives within a few more on a busy machine. */
const REQUOTE_WAIT = { timeout: 20_000 };

function isQuoteAnswer(response: Response): boolean {
  return response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/v1/quotes';
}

/** Every quote the page is given, in order. */
function collectQuotes(page: Page): Quote[] {
  const quotes: Quote[] = [];
  page.on('response', (response) => {
    if (!isQuoteAnswer(response) || !response.ok()) return;
    void response.json().then((body: { data: Quote }) => quotes.push(body.data));
  });
  return quotes;
}

/** £ and pence of a decimal string, so sums of money stay exact in the test too. */
function pence(value: string): number {
  const [whole = '0', fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

function poundsText(pennies: number): string {
  return `£${screenAmount(`${Math.floor(pennies / 100)}.${String(pennies % 100).padStart(2, '0')}`, 2)}`;
}

test.describe('instant buy and sell at a quoted price', () => {
  test.describe.configure({ timeout: 120_000 });

  test('an instant customer with £1,000 previews a BTC buy, waits through one re-quote, executes it, and sees their BTC, GBP and the activity change', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    await fund(api, customer.email, 'GBP', '1000.00');
    const quotes = collectQuotes(page);

    // The dashboard's Buy link lands here.
    await page.goto('/user/trade?side=buy&coin=btc');
    await expect(page.getByRole('heading', { level: 1, name: 'Instant Trade' })).toBeVisible();
    await expect(
      page.getByRole('radiogroup', { name: 'Buy or sell' }).getByRole('radio', { name: 'Buy' }),
    ).toBeChecked();
    await expect(page.getByRole('combobox', { name: 'Coin' })).toHaveValue('Bitcoin (BTC)');
    await expect(page.getByRole('combobox', { name: 'From Wallet' })).toHaveValue('GBP · £1,000.00');
    await expect(page.getByTestId('available-fiat')).toHaveText('£1,000.00');
    await expect(page.getByTestId('available-coin')).toHaveText('0.00000 BTC');
    const panel = page.getByRole('region', { name: 'Live price BTC/GBP' });
    await expect(panel.getByText('Refreshes every second')).toBeVisible();
    await expect(panel.getByTestId('live-price-ask')).toHaveText(/^£\d{1,3}(,\d{3})*\.\d{2}$/, TICK_WAIT);
    const activity = page.getByRole('region', { name: 'BTC Activity' });
    await expect(activity.getByText('No transactions to show.')).toBeVisible();

    const preview = page.getByRole('button', { name: 'Preview Order' });
    await expect(preview).toBeDisabled();
    await page.getByLabel('Quantity').fill('0.01');
    // The page prices what is typed before any quote: a cost and a total with the fee.
    await expect(page.getByTestId('instant-total')).toHaveText(/^£\d+\.\d{2}$/);
    await expect(page.getByLabel('Cost')).toHaveValue(/^\d+\.\d{2}$/);
    await expect(preview).toBeEnabled();
    await saveScreenshots('trade-instant-buy');

    await preview.click();
    const dialog = page.getByRole('dialog', { name: 'Preview Order: Buy BTC/GBP' });
    await expect(dialog).toBeVisible();
    await expect.poll(() => quotes.length).toBe(1);
    const first = quotes[0]!;
    expect(first).toMatchObject({ side: 'buy', coin_id: 'btc', currency: 'gbp', exceeds_balance: false });
    expect(first.quantity).toMatch(/^0\.010+$/);
    await expect(dialog.getByTestId('quote')).toHaveAttribute('data-quote-id', first.id);
    await expect(dialog.getByTestId('quote-quantity')).toHaveText('0.01000000 BTC');
    await expect(dialog.getByTestId('quote-total')).toHaveText(poundsText(pence(first.total_cost_w_fee)));
    await expect(dialog.getByTestId('quote-countdown')).toHaveText(/^Price refreshes in [1-5] s$/);
    await saveScreenshots('trade-instant-preview');

    // The countdown runs out, the page asks for a new quote and starts again. (The screenshots may have
    // taken long enough for a re-quote already: the one after the countdown seen here is the one checked.)
    await expect(dialog.getByTestId('quote-countdown')).toHaveText('Price refreshes in 1 s', REQUOTE_WAIT);
    const seen = quotes.length;
    await expect.poll(() => quotes.length, REQUOTE_WAIT).toBeGreaterThan(seen);
    const second = quotes[seen]!;
    expect(second.id).not.toBe(first.id);
    await expect(dialog.getByTestId('quote')).toHaveAttribute('data-quote-id', second.id);
    await expect(dialog.getByTestId('quote-countdown')).toHaveText(/^Price refreshes in [2-5] s$/);

    // Execute sends the quote shown, form-encoded as the spec sends it. A third quote may arrive before the
    // click lands; whichever the dialog shows then is the one that must be executed.
    const orderRequest = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/order',
    );
    const shownId = await dialog.getByTestId('quote').getAttribute('data-quote-id');
    await dialog.getByRole('button', { name: 'Execute' }).click();
    const sent = await orderRequest;
    expect(sent.headers()['content-type']).toContain('application/x-www-form-urlencoded');
    const fields = new URLSearchParams(sent.postData() ?? '');
    expect(fields.get('quote_id')).not.toBe(first.id);
    const executed = quotes.find((quote) => quote.id === fields.get('quote_id'));
    expect(executed, `executed quote ${fields.get('quote_id')} shown ${shownId}`).toBeDefined();
    expect(Object.fromEntries(fields)).toMatchObject({
      coin_id: 'btc',
      side: 'buy',
      symbol: 'BTC/GBP',
      order_type: 'market',
      order_qty: executed!.quantity,
      price: executed!.price,
      fee: executed!.fee,
      total_cost_w_fee: executed!.total_cost_w_fee,
      total_cost_wo_fee: executed!.total_cost_wo_fee,
    });
    expect(fields.has('currency')).toBe(false);

    await expect(
      page.getByRole('alert').filter({ hasText: TRADING_TEXTS.transactionSuccessful }),
    ).toBeVisible();
    await expect(
      page.getByRole('alert').filter({ hasText: TRADING_TEXTS.transactionSuccessful }),
    ).toContainText(`Bought 0.01 BTC for ${poundsText(pence(executed!.total_cost_w_fee))}.`);
    await expect(dialog).toBeHidden();
    // The balance fell while the form still held the order: that is no reason to say it is exceeded.
    await expect(page.getByRole('alert').filter({ hasText: TRADING_TEXTS.exceedingBalance })).toHaveCount(0);
    // The form is reset and the balances follow.
    await expect(page.getByLabel('Quantity')).toHaveValue('');
    await expect(page.getByTestId('available-coin')).toHaveText('0.01000 BTC');
    await expect(page.getByTestId('available-fiat')).toHaveText(
      poundsText(100_000 - pence(executed!.total_cost_w_fee)),
    );
    const latest = activity.getByRole('table', { name: 'Recent activity' }).getByRole('row').nth(1);
    await expect(latest).toContainText('Buy');
    await expect(latest).toContainText('0.01000');
    await saveScreenshots('trade-instant-after-buy');
    expect(consoleErrors).toEqual([]);
  });

  test('an order larger than the balance shows the balance-exceeded toast and keeps Preview disabled; MAX fills what the balance buys', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    await fund(api, customer.email, 'GBP', '100.00');
    await page.goto('/user/trade?side=buy&coin=btc');
    await expect(page.getByTestId('instant-price')).toHaveText(/^£[\d,]+\.\d{2}$/, TICK_WAIT);

    await page.getByLabel('Quantity').fill('10');
    await expect(page.getByRole('alert').filter({ hasText: TRADING_TEXTS.exceedingBalance })).toBeVisible();
    const preview = page.getByRole('button', { name: 'Preview Order' });
    await expect(preview).toBeDisabled();
    await saveScreenshots('trade-instant-exceeding', [375]);
    // A cost typed above the balance exceeds it too.
    await page.getByLabel('Cost').fill('150');
    await expect(preview).toBeDisabled();

    await page.getByRole('button', { name: 'MAX' }).click();
    await expect(page.getByLabel('Quantity')).toHaveValue(/^0\.\d{1,4}$/);
    await expect(preview).toBeEnabled();
    const total = await page.getByTestId('instant-total').textContent();
    expect(pence((total ?? '').replace(/[£,]/g, ''))).toBeLessThanOrEqual(10_000);

    // The cost follows the price, but not under the cursor: once the field is entered it holds still while
    // the total moves, so what the customer selects to type over stays selected.
    const cost = page.getByLabel('Cost');
    await cost.focus();
    const held = await cost.inputValue();
    await expect(page.getByTestId('instant-total')).not.toHaveText(total ?? '', TICK_WAIT);
    await expect(cost).toHaveValue(held);

    // A cost within the balance works back to a quantity, floored to 4 decimals, that it pays for.
    await cost.fill('80');
    await expect(page.getByLabel('Quantity')).toHaveValue(/^0\.\d{1,4}$/);
    await expect(page.getByTestId('instant-total')).toHaveText(/^£(7\d|80)\.\d{2}$/);
    await expect(preview).toBeEnabled();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('instant selling, a refused buy and the Instant tab', () => {
  test.describe.configure({ timeout: 120_000 });

  test('an instant customer holding BTC sells some of it and receives the quoted pounds', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    await fund(api, customer.email, 'BTC', '0.5');
    const quotes = collectQuotes(page);

    await page.goto('/user/trade?side=sell&coin=btc');
    await expect(
      page.getByRole('radiogroup', { name: 'Buy or sell' }).getByRole('radio', { name: 'Sell' }),
    ).toBeChecked();
    await expect(page.getByTestId('available-coin')).toHaveText('0.50000 BTC');
    await expect(page.getByTestId('instant-price')).toHaveText(/^£[\d,]+\.\d{2}$/, TICK_WAIT);

    // More than is held exceeds the balance.
    await page.getByLabel('Quantity').fill('0.6');
    await expect(page.getByRole('button', { name: 'Preview Order' })).toBeDisabled();
    await page.getByLabel('Quantity').fill('0.1');
    await page.getByRole('button', { name: 'Preview Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview Order: Sell BTC/GBP' });
    await expect(dialog.getByTestId('quote-quantity')).toHaveText('0.10000000 BTC');
    await saveScreenshots('trade-instant-sell-preview');
    const orderRequest = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/order',
    );
    await dialog.getByRole('button', { name: 'Execute' }).click();
    const fields = new URLSearchParams((await orderRequest).postData() ?? '');
    const executed = quotes.find((quote) => quote.id === fields.get('quote_id'));
    expect(executed).toMatchObject({ side: 'sell', coin_id: 'btc' });

    await expect(
      page.getByRole('alert').filter({ hasText: TRADING_TEXTS.transactionSuccessful }),
    ).toBeVisible();
    await expect(page.getByTestId('available-coin')).toHaveText('0.40000 BTC');
    await expect(page.getByTestId('available-fiat')).toHaveText(
      poundsText(pence(executed!.total_cost_w_fee)),
    );
    const activity = page.getByRole('region', { name: 'BTC Activity' });
    await expect(
      activity.getByRole('table', { name: 'Recent activity' }).getByRole('row').nth(1),
    ).toContainText('Sell');
    expect(consoleErrors).toEqual([]);
  });

  test('a buy the balance no longer covers when Execute is pressed is refused with Insufficient Funds and nothing is bought', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
  }) => {
    await makeCustomerLive(page, staff);
    await fund(api, customer.email, 'GBP', '1000.00');
    // The page's own clock, so its countdown can be held still (below).
    await page.clock.install();
    await page.goto('/user/trade?side=buy&coin=btc');
    await expect(page.getByTestId('instant-price')).toHaveText(/^£[\d,]+\.\d{2}$/, TICK_WAIT);
    await page.getByLabel('Quantity').fill('0.01');
    await page.getByRole('button', { name: 'Preview Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview Order: Buy BTC/GBP' });
    await expect(dialog.getByTestId('quote')).toBeVisible();
    // Held, the countdown cannot renew the quote between the purchase elsewhere and Execute: a renewal
    // would see the smaller balance and close the preview with the balance-exceeded toast instead.
    await page.clock.pauseAt(new Date(Date.now() + 100));
    await expect(dialog.getByTestId('quote-countdown')).toHaveText(/^Price refreshes in [1-5] s$/);

    // While the preview is open, most of the pounds go on another purchase.
    await tradeElsewhere(page, 'buy', '0.011');
    await dialog.getByRole('button', { name: 'Execute' }).click();

    const refusal = page.getByRole('alert').filter({ hasText: TRADING_TEXTS.insufficientFunds });
    await expect(refusal).toBeVisible();
    await expect(refusal).toContainText(TRADING_TEXTS.insufficientFundsTitle);
    await page.clock.resume();
    await expect(dialog).toBeHidden();
    // One toast says it: the form behind the preview, now above the balance, does not add its own.
    await expect(page.getByRole('alert').filter({ hasText: TRADING_TEXTS.exceedingBalance })).toHaveCount(0);
    await expect(page.getByText(TRADING_TEXTS.exceedingBalance)).toBeVisible();
    await saveScreenshots('trade-instant-insufficient-funds', [375]);
    // Only the other purchase happened.
    await expect(page.getByTestId('available-coin')).toHaveText('0.01100 BTC');
    await expect(
      page
        .getByRole('region', { name: 'BTC Activity' })
        .getByRole('table', { name: 'Recent activity' })
        .getByRole('row'),
    ).toHaveCount(2);
  });

  test('a trading customer finds the trading screen under Trade and the instant page under its Instant tab', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    // Verification as usual, choosing the Trade account at its last step.
    await submitIndividualDocuments(page.request);
    const headers = await csrfHeaders(page.request);
    for (const [url, data, method] of [
      ['/api/v1/settings/kyc/create', { trades_over_threshold: 0, aware_of_risk: 1 }, 'post'],
      [
        '/api/v1/users/account_type',
        { account_type: 'Trade', platform: 2, account_tiers_class: 4, ico_confirmed: 1 },
        'put',
      ],
    ] as const) {
      const response = await page.request[method](url, { data, headers });
      expect(response.ok(), await response.text()).toBe(true);
    }
    const { id } = await currentUser(page.request);
    await approveAllDocuments(staff, id);
    await makeLive(staff, id);
    await fund(api, customer.email, 'GBP', '50.00');

    await page.goto('/user/trade?side=sell&coin=btc');
    await expect(page.getByRole('heading', { level: 1, name: 'Trade' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Trade' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('form', { name: 'Instant order' })).toHaveCount(0);

    await page.getByRole('tab', { name: 'Instant' }).click();
    await expect(page).toHaveURL(/tab=instant/);
    const form = page.getByRole('form', { name: 'Instant order' });
    await expect(form).toBeVisible();
    await expect(form.getByRole('radio', { name: 'Sell' })).toBeChecked();
    await expect(page.getByTestId('available-fiat')).toHaveText('£50.00');
    await saveScreenshots('trade-tabs-instant');
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Instant' })).toHaveAttribute('aria-selected', 'true');
    expect(consoleErrors).toEqual([]);
  });
});
