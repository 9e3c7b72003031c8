import fs from 'node:fs';
import { HISTORY_CSV_COLUMNS, HISTORY_CSV_FILENAME } from '@florin/contracts';
import { csrfHeaders } from '../fixtures.js';
import { currentUser } from '../kyc/customer-actions.js';
import { expect, test, uniqueTransactionId } from '../wallets/fiat-fixtures.js';
import { fund, makeCustomerLive, parseCsv, screenAmount } from './dashboard-actions.js';

const FIATS = new Set(['GBP', 'EUR', 'USD']);

test.describe('recent activity and the history export', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a bank transfer finance credits while the dashboard is open appears in the balance and in Recent Activity without a reload', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    financeApi: finance,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    await fund(api, customer.email, 'GBP', '100.00');
    await page.goto('/user');

    const gbp = page.getByRole('table', { name: 'Assets' }).getByRole('row', { name: 'GBP', exact: true });
    await expect(gbp.getByTestId('balance-GBP')).toHaveText('100.00 GBP');
    const activity = page.getByRole('region', { name: 'Recent Activity' });
    const rows = activity.getByRole('table', { name: 'Recent activity' }).getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Adjustment');
    await expect(rows.nth(1)).toContainText('100.00 GBP');

    // Anything that reloads the page would lose this mark.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    // Finance records the customer's bank transfer by hand, with their reference.
    const user = await currentUser(page.request);
    const recorded = await finance.post('/api/admin/fiat/deposits', {
      data: {
        currency: 'GBP',
        amount: '250.50',
        payer_name: `${user.first_name} ${user.last_name}`,
        reference: user.user_identification,
        bank_transaction_id: uniqueTransactionId('dashboard'),
      },
      headers: await csrfHeaders(finance),
    });
    expect(recorded.ok(), await recorded.text()).toBe(true);
    expect(((await recorded.json()) as { data: { outcome: string } }).data.outcome).toBe('credited');
    await fund(api, customer.email, 'BTC', '0.01234567');

    await expect(gbp.getByTestId('balance-GBP')).toHaveText('350.50 GBP');
    await expect(
      page
        .getByRole('table', { name: 'Assets' })
        .getByRole('row', { name: 'Bitcoin', exact: true })
        .getByTestId('balance-btc'),
    ).toHaveText('0.01234 BTC');
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(1)).toContainText('0.01234 BTC');
    await expect(rows.nth(2)).toContainText('250.50 GBP');
    await expect(rows.nth(2)).toContainText('£250.50');
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

    await expect(rows.nth(2)).toContainText('Deposit');

    // The filters keep their meaning: the bank transfer is a deposit, the dev credits adjustments.
    // The filter's label, not the row that now says Deposit too.
    const filter = (label: string) => activity.locator('label').filter({ hasText: new RegExp(`^${label}$`) });
    await filter('Deposit').click();
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('250.50 GBP');
    await filter('All').click();
    await expect(rows).toHaveCount(4);
    await saveScreenshots('dashboard-recent-activity');
    expect(consoleErrors).toEqual([]);
  });

  test('View More appends the next page, and the exported Crypto History.csv holds the rows the screen shows', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    // 12 movements: one page of 10 and a second of 2.
    for (let index = 1; index <= 9; index += 1) await fund(api, customer.email, 'GBP', `${index}.25`);
    await fund(api, customer.email, 'EUR', '40.00');
    await fund(api, customer.email, 'ETH', '1.5');
    await fund(api, customer.email, 'BTC', '0.00500001');
    await page.goto('/user');

    const activity = page.getByRole('region', { name: 'Recent Activity' });
    const rows = activity.getByRole('table', { name: 'Recent activity' }).getByRole('row');
    await expect(rows).toHaveCount(11);
    await activity.getByRole('button', { name: 'View More' }).click();
    await expect(rows).toHaveCount(13);
    await expect(activity.getByRole('button', { name: 'View More' })).toHaveCount(0);

    const screen = await rows.evaluateAll((elements) =>
      elements.slice(1).map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
    );

    const downloadEvent = page.waitForEvent('download');
    await activity.getByRole('link', { name: 'Export' }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toBe(HISTORY_CSV_FILENAME);
    const file = await download.path();
    const [header, ...records] = parseCsv(fs.readFileSync(file, 'utf8')).filter(
      (record) => record.join('') !== '',
    );
    expect(header).toEqual([...HISTORY_CSV_COLUMNS]);
    expect(records).toHaveLength(screen.length);

    const column = (name: (typeof HISTORY_CSV_COLUMNS)[number]) => HISTORY_CSV_COLUMNS.indexOf(name);
    records.forEach((record, index) => {
      const [, type, asset, amount, gbpValue] = screen[index] ?? [];
      const csvAsset = record[column('asset')] ?? '';
      const csvAmount = record[column('amount')] ?? '';
      const places = FIATS.has(csvAsset.toUpperCase()) ? 2 : 5;
      expect(record[column('type')]).toBe(type);
      expect(csvAsset.toUpperCase()).toBe(asset);
      expect(`${screenAmount(csvAmount, places)} ${csvAsset.toUpperCase()}`).toBe(amount);
      const csvValue = record[column('gbp_value')] ?? '';
      expect(csvValue === '' ? '—' : `£${screenAmount(csvValue, 2)}`).toBe(gbpValue);
      expect(record[column('date')]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(record[column('reference')]).not.toBe('');
    });
    // Newest first, on screen and in the file.
    expect(screen[0]?.[3]).toBe('0.00500 BTC');
    expect(screen.at(-1)?.[3]).toBe('1.25 GBP');
    expect(consoleErrors).toEqual([]);
  });
});
