import type { WebSocketRoute } from '@playwright/test';
import { expect, test } from '../admin-fixtures.js';
import {
  currentUser,
  finishIndividualVerification,
  submitIndividualDocuments,
} from '../kyc/customer-actions.js';
import { approveAllDocuments, makeLive } from '../kyc/staff-actions.js';

/** The simulated market ticks once a second; a few ticks is plenty, yet a dead stream still fails fast. */
const TICK_WAIT = { timeout: 15_000 };

test.describe('the price chart and the live price strip', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a live customer opens the chart on BTC/GBP at 5 minutes, sees the last candle move with each tick, switches to 4 hours and then to ETH/EUR', async ({
    signedInPage: page,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await submitIndividualDocuments(page.request);
    await finishIndividualVerification(page.request);
    const { id: userId } = await currentUser(page.request);
    await approveAllDocuments(staff, userId);
    await makeLive(staff, userId);

    await page.goto('/user/chart');
    await expect(page.getByRole('heading', { level: 1, name: 'Chart' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Pair' })).toHaveValue('BTC/GBP');
    await expect(page.getByRole('radio', { name: '5 minutes' })).toBeChecked();

    // Drawn from the history backfilled on the server's first start.
    const chart = page.getByRole('img', { name: 'BTC/GBP candlestick chart, 5 minutes candles' });
    await expect(chart).toBeVisible();
    await expect(chart.locator('canvas').first()).toBeVisible();
    const close = page.getByTestId('candle-close');
    await expect(close).toHaveText(/^\d{1,3}(,\d{3})*\.\d{2}$/);

    const before = await close.textContent();
    await expect(close).not.toHaveText(before ?? '', TICK_WAIT);

    // The live price panel instant trade will use: what buying costs and selling gives, per tick.
    const panel = page.getByRole('region', { name: 'Live price BTC/GBP' });
    await expect(panel.getByText('Refreshes every second')).toBeVisible();
    await expect(panel.getByTestId('live-price-ask')).toHaveText(/^£\d{1,3}(,\d{3})*\.\d{2}$/);
    await expect(panel.getByTestId('live-price-bid')).toHaveText(/^£\d{1,3}(,\d{3})*\.\d{2}$/);
    await expect(page.getByText('Prices paused')).toHaveCount(0);
    await saveScreenshots('market-chart-5-minutes');

    await page.getByText('4 hours', { exact: true }).click();
    await expect(page.getByRole('radio', { name: '4 hours' })).toBeChecked();
    await expect(page).toHaveURL(/resolution=240/);
    await expect(page.getByRole('img', { name: 'BTC/GBP candlestick chart, 4 hours candles' })).toBeVisible();
    const closeAt4Hours = await close.textContent();
    await expect(close).not.toHaveText(closeAt4Hours ?? '', TICK_WAIT);
    await saveScreenshots('market-chart-4-hours', [1280]);

    await page.getByRole('combobox', { name: 'Pair' }).click();
    await page.getByRole('option', { name: 'ETH/EUR' }).click();
    await expect(page).toHaveURL(/pair=ETH-EUR/);
    await expect(page.getByRole('img', { name: 'ETH/EUR candlestick chart, 4 hours candles' })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Live price ETH/EUR' }).getByTestId('live-price-bid'),
    ).toHaveText(/^€\d{1,3}(,\d{3})*\.\d{2}$/, TICK_WAIT);

    expect(consoleErrors).toEqual([]);
  });

  test('a visitor to the home page sees the GBP prices of the strip change with the market', async ({
    page,
    saveScreenshots,
    consoleErrors,
  }) => {
    await page.goto('/home');
    const strip = page.getByRole('region', { name: 'Live prices' });
    await expect(strip).toBeVisible();
    const bitcoin = strip.getByTestId('strip-price-BTC');
    await expect(bitcoin).toHaveText(/^£\d{1,3}(,\d{3})*\.\d{2}$/);
    const before = await bitcoin.textContent();
    await expect(bitcoin).not.toHaveText(before ?? '', TICK_WAIT);
    await saveScreenshots('market-price-strip');
    expect(consoleErrors).toEqual([]);
  });

  test('a visitor sees a price marked stale when the server says so, and the strip paused while the stream is down', async ({
    page,
    saveScreenshots,
    consoleErrors,
  }) => {
    // The server marks a price stale when its source stops ticking (API tests cover that); here the
    // stream stands in for a source that stopped for BTC, and then for a stream that goes away.
    let staleBitcoin = false;
    let firstStream: WebSocketRoute | undefined;
    await page.routeWebSocket('**/ws', (ws) => {
      if (firstStream) {
        // Every reconnection attempt fails: the stream stays down.
        void ws.close({ code: 1011, reason: 'down' });
        return;
      }
      firstStream = ws;
      const server = ws.connectToServer();
      server.onMessage((message) => {
        const parsed = JSON.parse(String(message)) as { type: string; data?: { symbol?: string } };
        if (staleBitcoin && parsed.type === 'price' && parsed.data?.symbol === 'BTC/GBP') {
          ws.send(JSON.stringify({ ...parsed, data: { ...parsed.data, stale: true } }));
        } else ws.send(message);
      });
    });

    await page.goto('/home');
    const strip = page.getByRole('region', { name: 'Live prices' });
    const bitcoin = strip.getByRole('listitem', { name: /\(BTC\)$/ });
    const ether = strip.getByRole('listitem', { name: /\(ETH\)$/ });
    await expect(bitcoin.getByTestId('strip-price-BTC')).toHaveText(/^£\d{1,3}(,\d{3})*\.\d{2}$/);
    await expect(bitcoin.getByText('Stale price')).toHaveCount(0);

    staleBitcoin = true;
    await expect(bitcoin.getByText('Stale price')).toBeVisible(TICK_WAIT);
    await expect(ether.getByText('Stale price')).toHaveCount(0);
    await expect(strip.getByText('Prices paused', { exact: false })).toHaveCount(0);

    await firstStream!.close({ code: 1011, reason: 'down' });
    await expect(
      strip.getByText('Prices paused: the live feed has stopped, so prices shown may be out of date.'),
    ).toBeVisible();
    await expect(ether.getByText('Stale price')).toBeVisible();
    await saveScreenshots('market-price-strip-paused', [375]);
    expect(consoleErrors).toEqual([]);
  });
});
