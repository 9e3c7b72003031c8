import fs from 'node:fs';
import { HISTORY_CSV_COLUMNS, HISTORY_CSV_FILENAME, TRADING_TEXTS } from '@florin/contracts';
import { formatAmount, fromMinorUnits, instantQuote, parseAmount } from '@florin/domain';
import type { Page } from '@playwright/test';
import { expect } from '../admin-fixtures.js';
import { fund, makeCustomerLive, parseCsv, screenAmount } from '../dashboard/dashboard-actions.js';
import { test, useTradingPlatform } from './market-actions.js';

/**
 * Issue 41: each trade's line in Crypto History.csv carries the price, fee,
 * GBP value and amount the customer was shown when they traded, in pounds
 * and in euros, for instant trades and for a limit order the market fills.
 */

type Fiat = 'GBP' | 'EUR';
type Side = 'buy' | 'sell';
type CsvColumn = (typeof HISTORY_CSV_COLUMNS)[number];
/** What a trade's CSV line should say, as worked out from what the screen showed. */
type ExpectedRow = Partial<Record<CsvColumn, string>>;

/** The simulated market ticks once a second; a few ticks is plenty, yet a dead stream still fails fast. */
const TICK_WAIT = { timeout: 15_000 };
/** Where the story holds BTC/GBP, far enough above the limit that the walk never fills it by chance. */
const GBP_MID = '40000';
const BUY_LIMIT = '38000';
/** Below the limit: the tick it makes fills the order. */
const FALLEN_MID = '37000';

/** `£1,234.56`, `€0.75` or `0.01000000 BTC` as the decimal string it shows. */
function figure(text: string | null): string {
  return (text ?? '').replace(/[£€,]|\s*BTC$/g, '').trim();
}

/**
 * A price as the preview shows it: the record keeps the price to 8 places, the screen to the penny,
 * rounded against the customer (up for a buy, down for a sale).
 */
function priceAsShown(price: string, side: Side): string {
  const units = parseAmount(price, 'BTC');
  const step = 10n ** 6n;
  const cut = (units / step) * step;
  return fromMinorUnits((side === 'buy' && cut !== units ? cut + step : cut) / step, 2);
}

type Shown = { price: string; quantity: string; fee: string; total: string };

/**
 * Trades `quantity` BTC on the instant screen against `fiat` and returns the
 * quote the preview showed when Execute was pressed. The page's clock is held
 * while the figures are read and Execute pressed, so no re-quote slips in
 * between (the server keeps a quote a grace period past its countdown).
 */
async function tradeInstantly(page: Page, side: Side, fiat: Fiat, quantity: string): Promise<Shown> {
  await page.goto(`/user/trade?side=${side}&coin=btc`);
  if (fiat !== 'GBP') {
    await page.getByRole('combobox', { name: 'From Wallet' }).click();
    await page.getByRole('option', { name: new RegExp(`^${fiat} · `) }).click();
  }
  await expect(page.getByRole('combobox', { name: 'From Wallet' })).toHaveValue(new RegExp(`^${fiat} · `));
  await expect(page.getByTestId('instant-price')).toHaveText(/^[£€][\d,]+\.\d{2}$/, TICK_WAIT);
  await page.getByLabel('Quantity').fill(quantity);
  await page.getByRole('button', { name: 'Preview Order' }).click();
  const dialog = page.getByRole('dialog', {
    name: `Preview Order: ${side === 'buy' ? 'Buy' : 'Sell'} BTC/${fiat}`,
  });
  await expect(dialog.getByTestId('quote')).toBeVisible();
  await page.clock.pauseAt(new Date(Date.now() + 100));
  const shownId = await dialog.getByTestId('quote').getAttribute('data-quote-id');
  const shown: Shown = {
    price: figure(await dialog.getByTestId('quote-price').textContent()),
    quantity: figure(await dialog.getByTestId('quote-quantity').textContent()),
    fee: figure(await dialog.getByTestId('quote-fee').textContent()),
    total: figure(await dialog.getByTestId('quote-total').textContent()),
  };
  const order = page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/order',
  );
  await dialog.getByRole('button', { name: 'Execute' }).click();
  // The figures read are those of the quote executed.
  expect(new URLSearchParams((await order).postData() ?? '').get('quote_id')).toBe(shownId);
  await expect(
    page.getByRole('alert').filter({ hasText: TRADING_TEXTS.transactionSuccessful }),
  ).toBeVisible();
  await page.clock.resume();
  await expect(dialog).toBeHidden();
  return shown;
}

/** The CSV line of an instant trade: the quote's figures; the GBP value is the quote's for a GBP trade. */
function instantRow(side: Side, fiat: Fiat, shown: Shown): ExpectedRow {
  const total = parseAmount(shown.total, fiat);
  const fee = parseAmount(shown.fee, fiat);
  return {
    type: side === 'buy' ? 'Buy' : 'Sell',
    asset: 'BTC',
    amount: `${side === 'sell' ? '-' : ''}${shown.quantity}`,
    currency: fiat,
    price: shown.price,
    fee: shown.fee,
    net_amount: shown.total,
    // A buy's total is its value plus the fee, a sale's its value less the fee.
    ...(fiat === 'GBP' ? { gbp_value: formatAmount(side === 'buy' ? total - fee : total + fee, 'GBP') } : {}),
  };
}

test.describe('the history export holds what the trade screens showed', () => {
  test('a customer trades BTC at instant quotes in pounds and euros and fills a limit buy; Crypto History.csv has each trade’s price, fee, GBP value and amount as the screens showed them', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    market,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    await fund(api, customer.email, 'GBP', '2000.00');
    await fund(api, customer.email, 'EUR', '2000.00');
    await market.drive('BTC/GBP', GBP_MID);
    // The page's own clock, held while a preview's figures are read (tradeInstantly).
    await page.clock.install();

    const expected: ExpectedRow[] = [];
    const instantTrades = [
      ['buy', 'GBP', '0.03'],
      ['sell', 'GBP', '0.01'],
      ['buy', 'EUR', '0.01'],
      ['sell', 'EUR', '0.01'],
    ] as const;
    for (const [side, fiat, quantity] of instantTrades) {
      const shown = await tradeInstantly(page, side, fiat, quantity);
      expect(shown.fee).not.toBe('0.00');
      expected.push(instantRow(side, fiat, shown));
    }

    // A limit buy on the trading screen, below the market; the market falls through it and it fills.
    await useTradingPlatform(api, customer.email);
    await page.goto('/user/trade');
    await page.getByRole('radiogroup', { name: 'Order type' }).getByText('Limit', { exact: true }).click();
    const form = page.getByRole('region', { name: 'Limit order BTC/GBP' });
    // The trading account's fee, as the form shows it (it is not the instant page's).
    await expect(form.getByTestId('order-fee')).toHaveText(/^\d+(\.\d+)? %$/);
    const feePercent = figure(await form.getByTestId('order-fee').textContent()).replace(' %', '');
    const before = parseAmount(figure(await form.getByTestId('available-gbp').textContent()), 'GBP');
    await form.getByLabel('Quantity').fill('0.01');
    await form.getByLabel('Price (GBP)').fill(BUY_LIMIT);
    await expect(form.getByTestId('order-value')).toHaveText('£380.00');
    await form.getByRole('button', { name: 'BUY', exact: true }).click();
    await expect(form.getByLabel('Quantity')).toHaveValue('');
    await page.getByRole('radiogroup', { name: 'Show' }).getByText('Open Orders', { exact: true }).click();
    const order = page
      .getByRole('list', { name: 'Open orders' })
      .getByRole('listitem', { name: 'LIMIT Buy 0.01000 BTC/GBP at £38,000.00' });
    await expect(order).toBeVisible();
    const available = form.getByTestId('available-gbp');
    // The order holds its cost at the limit price until it fills.
    await expect(available).not.toHaveText(`£${screenAmount(formatAmount(before, 'GBP'), 2)}`);
    const whileHeld = await available.textContent();
    const fill = await market.drive('BTC/GBP', FALLEN_MID);
    await expect(order).toHaveCount(0, TICK_WAIT);
    // It fills at the ask of the tick that crossed it, a better price than the limit.
    expect(Number(fill.ask)).toBeLessThan(Number(BUY_LIMIT));
    await expect(available).not.toHaveText(whileHeld ?? '');
    const after = parseAmount(figure(await available.textContent()), 'GBP');
    expect(after).toBeLessThan(before);
    expected.push({ type: 'Buy', asset: 'BTC', amount: '0.01000000', currency: 'GBP', price: fill.ask });
    const paid = before - after;

    // The history on the dashboard, and its export.
    await page.goto('/user');
    const activity = page.getByRole('region', { name: 'Recent Activity' });
    const rows = activity.getByRole('table', { name: 'Recent activity' }).getByRole('row');
    await expect(rows).toHaveCount(1 + 2 + expected.length);
    const download = page.waitForEvent('download');
    await activity.getByRole('link', { name: 'Export' }).click();
    expect((await download).suggestedFilename()).toBe(HISTORY_CSV_FILENAME);
    const [header, ...records] = parseCsv(fs.readFileSync(await (await download).path(), 'utf8')).filter(
      (record) => record.join('') !== '',
    );
    expect(header).toEqual([...HISTORY_CSV_COLUMNS]);
    const lines = records.map((record) =>
      Object.fromEntries(HISTORY_CSV_COLUMNS.map((column, index) => [column, record[index] ?? ''])),
    );
    // Oldest first, as the trades were made: the two funding adjustments, then the five trades.
    const trades = lines.reverse().filter((line) => line.type === 'Buy' || line.type === 'Sell');
    expect(trades).toHaveLength(expected.length);
    trades.forEach((line, index) => {
      const side = instantTrades[index]?.[0];
      const price = side ? priceAsShown(line.price ?? '', side) : line.price;
      expect({ ...line, price }).toMatchObject(expected[index]!);
    });

    // The fill: what left the GBP balance is its net amount; its value and fee are its price's, at the fee the form showed.
    const limitLine = trades.at(-1)!;
    expect(parseAmount(limitLine.net_amount ?? '', 'GBP')).toBe(paid);
    const figures = instantQuote({
      side: 'buy',
      coin: 'BTC',
      fiat: 'GBP',
      price: fill.ask,
      feePercent,
      quantity: parseAmount('0.01', 'BTC'),
    });
    expect(limitLine).toMatchObject({
      gbp_value: fromMinorUnits(figures.notional, 2),
      fee: fromMinorUnits(figures.fee, 2),
      net_amount: fromMinorUnits(figures.total, 2),
    });

    // Every trade's GBP value is the one Recent Activity shows, the euro trades' too.
    const screen = await rows.evaluateAll((elements) =>
      elements.slice(1).map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
    );
    const screenTrades = screen.reverse().filter(([, type]) => type === 'Buy' || type === 'Sell');
    trades.forEach((line, index) => {
      expect(screenTrades[index]?.[4]).toBe(`£${screenAmount(line.gbp_value ?? '', 2)}`);
    });
    expect(consoleErrors).toEqual([]);
  });
});
