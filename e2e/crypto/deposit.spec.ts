import { makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { expect, test } from '../wallets/fiat-fixtures.js';
import { broadcastDeposit, chooseCoin, mineBlocks } from './crypto-actions.js';

test.describe('crypto deposits to the customer’s own address', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a live customer sends BTC to the address their deposit view shows; the activity list counts the confirmations and the balance grows after the sixth block', async ({
    signedInPage: page,
    api,
    complianceApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    await page.goto('/user/withdraw-deposit?deposit');
    await chooseCoin(page, 'BTC');

    const panel = page.getByRole('region', { name: 'Deposit Bitcoin (BTC)' });
    const shownAddress = panel.getByLabel('BTC deposit address', { exact: true });
    await expect(shownAddress).toHaveText(/^bc1[0-9a-z]{20,}$/);
    const address = (await shownAddress.textContent()) ?? '';
    await expect(panel.getByRole('img', { name: 'QR code of your BTC deposit address' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Copy BTC deposit address' })).toBeVisible();
    await expect(panel).toContainText('A deposit is credited after 6 confirmations on the BTC network.');
    await expect(panel).toContainText('Deposited coins are kept in cold storage.');
    await expect(panel.getByTestId('coin-balance')).toHaveText('0.00000 BTC');
    const activity = page.getByRole('region', { name: 'BTC activity' });
    await expect(activity).toContainText('No BTC deposits or withdrawals yet.');
    await saveScreenshots('crypto-deposit-btc');

    // Someone pays 0.25 BTC to the address; five blocks later it is still counting.
    await broadcastDeposit(api, { asset: 'BTC', address, amount: '0.25' });
    await mineBlocks(api, 'BTC', 5);
    await page.reload();
    const list = page.getByRole('list', { name: 'BTC activity' });
    const pending = list.getByRole('listitem', { name: 'Deposit +0.25000 BTC Pending 5/6 confirmations' });
    await expect(pending).toBeVisible();
    await expect(pending).toContainText('5/6 confirmations');
    await expect(panel.getByTestId('coin-balance')).toHaveText('0.00000 BTC');
    await saveScreenshots('crypto-deposit-pending');

    // The sixth block: credited once, while the page stays open.
    await mineBlocks(api, 'BTC', 1);
    await expect(list.getByRole('listitem', { name: 'Deposit +0.25000 BTC Completed' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(panel.getByTestId('coin-balance')).toHaveText('0.25000 BTC');
    await mineBlocks(api, 'BTC', 3);
    await page.reload();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(panel.getByTestId('coin-balance')).toHaveText('0.25000 BTC');
    await saveScreenshots('crypto-deposit-credited');
    expect(consoleErrors).toEqual([]);
  });

  test('an XRP deposit view offers Generate Address, then shows the destination tag as prominently as the address, the same on every visit', async ({
    signedInPage: page,
    complianceApi,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, complianceApi);
    // The coins cannot be listed at first (the price feed's read and its one retry fail): the page says so.
    let failures = 2;
    await page.route('**/crypto/price-feed', (route) =>
      failures-- > 0
        ? route.fulfill({ status: 503, json: { code: 'INTERNAL', message: 'Down' } })
        : route.fallback(),
    );
    await page.goto('/user/withdraw-deposit?deposit');
    const failed = page.getByRole('alert').filter({ hasText: 'The list of coins could not be loaded.' });
    await expect(failed).toBeVisible();
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect(failed).toHaveCount(0);
    await chooseCoin(page, 'XRP');

    const panel = page.getByRole('region', { name: /^Deposit .*\(XRP\)$/ });
    await expect(panel.getByLabel('Destination tag', { exact: true })).toHaveCount(0);
    await panel.getByRole('button', { name: 'Generate Address' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Your destination tag is ready. Always send XRP with it.' }),
    ).toBeVisible();

    const tag = panel.getByLabel('Destination tag', { exact: true });
    await expect(tag).toHaveText(/^\d{1,10}$/);
    await expect(panel.getByLabel('XRP deposit address', { exact: true })).toHaveText(
      /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
    );
    await expect(panel).toContainText(
      'Deposits without this destination tag cannot be credited automatically: always include it.',
    );
    await expect(panel.getByRole('button', { name: 'Copy Destination tag' })).toBeVisible();
    // The tag scans as easily as the address: a QR code of its own, each captioned, beside the warning.
    const addressQr = panel.getByRole('figure', { name: 'Address', exact: true });
    const tagQr = panel.getByRole('figure', { name: 'Destination tag' });
    await expect(addressQr.getByRole('img', { name: 'QR code of the XRP deposit address' })).toBeVisible();
    await expect(tagQr.getByRole('img', { name: 'QR code of your destination tag' })).toBeVisible();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await tagQr.scrollIntoViewIfNeeded();
      const box = await tagQr.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
    }
    await expect(panel.getByRole('button', { name: 'Generate Address' })).toHaveCount(0);
    const tagText = await tag.textContent();
    await saveScreenshots('crypto-deposit-xrp');

    await page.reload();
    await chooseCoin(page, 'XRP');
    await expect(tag).toHaveText(tagText ?? '');
    // Only the two refused reads of the price feed (the browser logs each failed request).
    expect(consoleErrors.filter((error) => !error.includes('/crypto/price-feed'))).toEqual([]);
  });
});
