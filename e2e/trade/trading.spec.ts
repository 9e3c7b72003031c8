import type { Page } from '@playwright/test';
import { formatAmount, parseAmount } from '@florin/domain';
import { expect } from '../admin-fixtures.js';
import { fund, makeCustomerLive, screenAmount } from '../dashboard/dashboard-actions.js';
import { csrfHeaders, holdRequests } from '../fixtures.js';
import { test, useTradingPlatform } from './market-actions.js';

/**
 * The trading screen of a trading-platform customer (issue 9): market and
 * limit orders, positions whose profit and loss follows the price, open
 * orders they cancel. The simulated market is driven through the dev route,
 * so a limit order can be made to fill.
 */

const SYMBOL = 'BTC/GBP';
/** Where the story puts the market first; the random walk then moves a hair each second. */
const START_MID = '20000';
/** Far enough above START_MID that the walk never reaches it by chance, below the mid we drive to. */
const SELL_LIMIT = '21000';
const DRIVEN_MID = '22000';
/** Far below the market: it never fills, the customer cancels it. */
const BUY_LIMIT = '10000';

/** Screenshots of the page at rest: scrolled to the top, the toasts gone. */
async function settle(page: Page): Promise<void> {
  // A toast under the pointer waits for it to leave, as a reader's would; the last click may sit where toasts appear.
  await page.mouse.move(0, 0);
  await expect(
    page.getByRole('alert').filter({ hasText: /Transaction Successful|Order cancelled/ }),
  ).toHaveCount(0, {
    timeout: 10_000,
  });
  await page.evaluate(() => window.scrollTo(0, 0));
}

function chooseInGroup(page: Page, group: string, label: string) {
  return page.getByRole('radiogroup', { name: group }).getByText(label, { exact: true }).click();
}

test.describe('the trading screen', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a trading customer buys at the market, sells at a limit that fills when the market rises through it, cancels a limit buy, and watches the profit and loss move with the price', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
    market,
  }) => {
    await makeCustomerLive(page, staff);
    await useTradingPlatform(api, customer.email);
    await fund(api, customer.email, 'GBP', '10000.00');
    await market.drive(SYMBOL, START_MID);

    await page.goto('/user/trade');
    await expect(page.getByRole('heading', { level: 1, name: 'Trade' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Trade' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('combobox', { name: 'Coin' })).toHaveValue(SYMBOL);
    await expect(page.getByRole('radio', { name: 'Market' })).toBeChecked();
    await expect(
      page.getByRole('img', { name: `${SYMBOL} candlestick chart, 5 minutes candles` }),
    ).toBeVisible();

    // The 24-hour statistics come from the candles: real prices, the range holding the last one.
    const stats = page.getByRole('region', { name: '24-hour statistics' });
    for (const id of ['previous-close', 'high', 'low']) {
      await expect(stats.getByTestId(`stat-${id}`)).toHaveText(/^£\d{1,3}(,\d{3})*\.\d{2}$/);
    }
    await expect(stats.getByTestId('stat-change-percent')).toHaveText(/^[+-]?\d+\.\d{2} %$/);
    const pounds = async (id: string) =>
      Number(((await stats.getByTestId(`stat-${id}`).textContent()) ?? '').replace(/[£,+]/g, ''));
    expect(await pounds('high')).toBeGreaterThanOrEqual(await pounds('low'));

    const form = page.getByRole('region', { name: `Market order ${SYMBOL}` });
    await expect(form.getByTestId('available-gbp')).toHaveText('£10,000.00');
    await expect(form.getByTestId('available-coin')).toHaveText('0.00000 BTC');
    await expect(form.getByTestId('order-market-price')).toHaveText(
      /^Buy £[\d,]+\.\d{2}Sell £[\d,]+\.\d{2}$/,
    );
    await settle(page);
    await saveScreenshots('trading-screen');

    // Nothing typed: the spec's text, and nothing is sent.
    await form.getByRole('button', { name: 'BUY', exact: true }).click();
    await expect(form.getByText('Field order quantity is required')).toBeVisible();
    await form.getByLabel('Quantity').fill('0.12345');
    await form.getByRole('button', { name: 'BUY', exact: true }).click();
    await expect(form.getByText('Enter at most 4 decimal places.')).toBeVisible();
    await settle(page);
    await saveScreenshots('trading-validation');

    // The percent buttons: nothing to sell yet; BUY 100% is what £10,000 buys with the fee, 4 decimals.
    await form.getByRole('button', { name: 'SELL 100%' }).click();
    await expect(form.getByLabel('Quantity')).toHaveValue('0');
    await form.getByRole('button', { name: 'BUY 100%' }).click();
    await expect(form.getByLabel('Quantity')).toHaveValue(/^0\.4\d{1,3}$/);
    const buyAll = parseAmount(
      /^Buy £([\d,.]+)/
        .exec((await form.getByTestId('order-value-gbp').textContent()) ?? '')?.[1]
        ?.replace(/,/g, '') ?? '',
      'GBP',
    );
    // The quantity is worked out at the price of the click and valued at the latest tick's, which
    // the simulated market may have moved by a few hundredths of a percent since.
    expect(buyAll).toBeGreaterThan(990_000n);
    expect(buyAll).toBeLessThanOrEqual(1_005_000n);

    // A market buy of 0.1 BTC, priced by the server within the slippage of the price shown.
    await form.getByLabel('Quantity').fill('0.1');
    await expect(form.getByTestId('order-value')).toHaveText(/^£2,0\d{2}\.\d{2}$|^£1,9\d{2}\.\d{2}$/);
    await expect(form.getByTestId('order-value-gbp')).toHaveText(
      /^Buy £2,0\d{2}\.\d{2}Sell £1,9\d{2}\.\d{2}$/,
    );
    await settle(page);
    await saveScreenshots('trading-market-order');
    const bought = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/v1/crypto/buy' && response.ok(),
    );
    await form.getByRole('button', { name: 'BUY', exact: true }).click();
    const trade = ((await (await bought).json()) as { data: { total_cost_w_fee: string } }).data;
    await expect(page.getByText('Transaction Successful').first()).toBeVisible();
    await expect(form.getByLabel('Quantity')).toHaveValue('');
    await expect(form.getByTestId('available-coin')).toHaveText('0.10000 BTC');
    const gbpLeft = 1_000_000n - parseAmount(trade.total_cost_w_fee, 'GBP');
    await expect(form.getByTestId('available-gbp')).toHaveText(
      `£${screenAmount(formatAmount(gbpLeft, 'GBP'), 2)}`,
    );

    // The position: bought at the ask, worth the bid less nothing: a small loss, arrow down.
    const positions = page.getByRole('list', { name: 'Current positions' });
    const position = positions.getByRole('listitem', { name: `Position ${SYMBOL}` });
    await expect(position.getByTestId('position-quantity')).toHaveText('0.10000');
    await expect(position.getByTestId('position-pnl')).toHaveText(/^-£\d+\.\d{2}$/);
    await expect(position.getByTestId('position-pnl-arrow')).toHaveText('▼');
    const lossAtStart = await position.getByTestId('position-pnl').textContent();

    // A limit sell above the market: half the coins are held for it.
    await chooseInGroup(page, 'Order type', 'Limit');
    const limitForm = page.getByRole('region', { name: `Limit order ${SYMBOL}` });
    await limitForm.getByLabel('Quantity').fill('0.05');
    await limitForm.getByRole('button', { name: 'SELL', exact: true }).click();
    await expect(limitForm.getByText('Field order price is required')).toBeVisible();
    await limitForm.getByLabel('Price (GBP)').fill(SELL_LIMIT);
    await expect(limitForm.getByTestId('order-value')).toHaveText('£1,050.00');
    await limitForm.getByRole('button', { name: 'SELL', exact: true }).click();
    await expect(page.getByText('Transaction Successful').first()).toBeVisible();
    await expect(limitForm.getByLabel('Quantity')).toHaveValue('');
    await expect(limitForm.getByTestId('available-coin')).toHaveText('0.05000 BTC');

    // A limit buy far below: it waits, holding its cost.
    await limitForm.getByLabel('Quantity').fill('0.01');
    await limitForm.getByLabel('Price (GBP)').fill(BUY_LIMIT);
    await limitForm.getByRole('button', { name: 'BUY', exact: true }).click();
    await expect(limitForm.getByLabel('Quantity')).toHaveValue('');

    await chooseInGroup(page, 'Show', 'Open Orders');
    const orders = page.getByRole('list', { name: 'Open orders' });
    const sellOrder = orders.getByRole('listitem', { name: `LIMIT Sell 0.05000 ${SYMBOL} at £21,000.00` });
    const buyOrder = orders.getByRole('listitem', { name: `LIMIT Buy 0.01000 ${SYMBOL} at £10,000.00` });
    await expect(sellOrder).toBeVisible();
    await expect(buyOrder).toBeVisible();
    // Distance from the market: the buy is about half the price away.
    await expect(buyOrder.getByTestId('order-percent-away')).toHaveText(/^(4\d|5\d)\.\d{2} %$/);
    await settle(page);
    await saveScreenshots('trading-open-orders');

    // Cancel the buy: the row says it is working until the server answers.
    const releaseCancel = await holdRequests(page, '**/api/v1/crypto/limit_order/*/cancel');
    await buyOrder.getByRole('button', { name: 'Cancel buy order' }).click();
    await expect(buyOrder.getByRole('button', { name: 'Cancel order processing...' })).toBeVisible();
    releaseCancel();
    await expect(page.getByText('Order cancelled.').first()).toBeVisible();
    await expect(buyOrder).toHaveCount(0);
    await page.unroute('**/api/v1/crypto/limit_order/*/cancel');
    // Its hold is released: the GBP is back where the market buy left it.
    await expect(limitForm.getByTestId('available-gbp')).toHaveText(
      `£${screenAmount(formatAmount(gbpLeft, 'GBP'), 2)}`,
    );

    // The market rises through the sell limit: the order fills and its proceeds reach the GBP balance.
    await market.drive(SYMBOL, DRIVEN_MID);
    await expect(sellOrder).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByText('You have no transactions.')).toBeVisible();
    await expect(limitForm.getByTestId('available-coin')).toHaveText('0.05000 BTC');
    // At least the limit price less the 0.75 % fee: 0.05 × £21,000 = £1,050, less at most £7.88.
    await expect
      .poll(async () =>
        parseAmount(
          ((await limitForm.getByTestId('available-gbp').textContent()) ?? '').replace(/[£,]/g, ''),
          'GBP',
        ),
      )
      .toBeGreaterThanOrEqual(gbpLeft + 105_000n - 788n);

    // What is left is worth more now: profit, arrow up, and not the figure it was.
    await chooseInGroup(page, 'Show', 'Current Positions');
    await expect(position.getByTestId('position-quantity')).toHaveText('0.05000');
    await expect(position.getByTestId('position-pnl')).toHaveText(/^£\d+\.\d{2}$/, { timeout: 10_000 });
    await expect(position.getByTestId('position-pnl-arrow')).toHaveText('▲');
    expect(await position.getByTestId('position-pnl').textContent()).not.toBe(lossAtStart);
    await settle(page);
    await saveScreenshots('trading-positions');

    expect(consoleErrors).toEqual([]);
  });

  test('a trading customer with more open orders than a page scrolls the list to load the rest, and places a stop sell that fills when ETH falls to it', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
    market,
  }) => {
    await makeCustomerLive(page, staff);
    await useTradingPlatform(api, customer.email);
    await fund(api, customer.email, 'GBP', '1000.00');
    await fund(api, customer.email, 'ETH', '1');
    await market.drive('ETH/GBP', '2000');

    // 21 resting buys far below the market, placed through the API: one more than a page holds.
    const run = `${Date.now().toString(36)}${process.pid.toString(36)}`;
    for (let price = 1; price <= 21; price += 1) {
      const response = await page.request.post('/api/v1/crypto/limit_order', {
        data: { coin_id: 'eth', order_qty: '0.1', price: String(price), side: 1, order_type: 2 },
        headers: {
          ...(await csrfHeaders(page.request)),
          'idempotency-key': `e2e-scroll-${run}-${price}`,
        },
      });
      expect(response.status(), await response.text()).toBe(200);
    }

    await page.goto('/user/trade?coin=eth');
    await expect(page.getByRole('combobox', { name: 'Coin' })).toHaveValue('ETH/GBP');
    await chooseInGroup(page, 'Show', 'Open Orders');
    const orders = page.getByRole('list', { name: 'Open orders' });
    await expect(orders.getByRole('listitem')).toHaveCount(20);
    // Newest first: the £1 order is on the second page.
    await expect(orders.getByRole('listitem', { name: /at £1\.00$/ })).toHaveCount(0);
    await page.getByTestId('open-orders-scroll').evaluate((box) => {
      box.scrollTop = box.scrollHeight;
    });
    await expect(orders.getByRole('listitem')).toHaveCount(21);
    await expect(orders.getByRole('listitem', { name: 'LIMIT Buy 0.10000 ETH/GBP at £1.00' })).toBeVisible();

    // A stop order only sells; it waits below the market.
    await chooseInGroup(page, 'Order type', 'Limit');
    const form = page.getByRole('region', { name: 'Limit order ETH/GBP' });
    await form.getByLabel('Stop order: sell when the price falls to it').check();
    await expect(form.getByRole('button', { name: 'BUY', exact: true })).toBeDisabled();
    await form.getByLabel('Quantity').fill('0.5');
    await form.getByLabel('Price (GBP)').fill('1800');
    await form.getByRole('button', { name: 'SELL', exact: true }).click();
    await expect(form.getByLabel('Quantity')).toHaveValue('');
    await expect(form.getByTestId('available-coin')).toHaveText('0.50000 ETH');
    const stop = orders.getByRole('listitem', { name: 'STOP Sell 0.50000 ETH/GBP at £1,800.00' });
    await expect(stop).toBeVisible();
    await settle(page);
    await saveScreenshots('trading-stop-order');

    // ETH falls through the stop: it sells, and the order leaves the list.
    await market.drive('ETH/GBP', '1700');
    await expect(stop).toHaveCount(0, { timeout: 15_000 });
    await expect(form.getByTestId('available-coin')).toHaveText('0.50000 ETH');
    await chooseInGroup(page, 'Show', 'Current Positions');
    const position = page
      .getByRole('list', { name: 'Current positions' })
      .getByRole('listitem', { name: 'Position ETH/GBP' });
    await expect(position.getByTestId('position-quantity')).toHaveText('0.50000');

    expect(consoleErrors).toEqual([]);
  });
});
