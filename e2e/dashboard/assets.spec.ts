import type { Balances } from '@florin/contracts';
import { expect, test } from '../admin-fixtures.js';
import { putOnHold } from '../kyc/staff-actions.js';
import { fund, makeCustomerLive, screenAmount } from './dashboard-actions.js';

type AssetBalance = Balances['data'][0]['balances'][string];

test.describe('the dashboard assets table', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a live customer with GBP, EUR and two coins sees a row for each, their values and portfolio shares, and can hide their funds across a reload', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    saveScreenshots,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    await fund(api, customer.email, 'GBP', '1000.00');
    await fund(api, customer.email, 'EUR', '250.00');
    await fund(api, customer.email, 'BTC', '0.5');
    await fund(api, customer.email, 'ETH', '2.25');

    const balanceResponse = page.waitForResponse((response) =>
      new URL(response.url()).pathname.endsWith('/api/v1/balance'),
    );
    await page.goto('/user');
    const { data } = (await (await balanceResponse).json()) as Balances;
    const shown = data[0];

    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const assets = page.getByRole('table', { name: 'Assets' });
    await expect(assets).toBeVisible();

    const row = (name: string) => assets.getByRole('row', { name, exact: true });
    await expect(row('Litecoin')).toBeVisible();
    // GBP first, then EUR (held), then every active coin; USD is not held, so it has no row.
    const rowNames = await assets
      .getByRole('row')
      .evaluateAll((rows) => rows.slice(1).map((row) => row.getAttribute('aria-label')));
    expect(rowNames.slice(0, 2)).toEqual(['GBP', 'EUR']);
    expect(rowNames).not.toContain('USD');
    expect(rowNames).toEqual(expect.arrayContaining(['Bitcoin', 'Ethereum', 'Litecoin']));

    await expect(row('GBP').getByTestId('balance-GBP')).toHaveText('1,000.00 GBP');
    await expect(row('EUR').getByTestId('balance-EUR')).toHaveText('250.00 EUR');
    await expect(row('Bitcoin').getByTestId('balance-btc')).toHaveText('0.50000 BTC');
    await expect(row('Ethereum').getByTestId('balance-eth')).toHaveText('2.25000 ETH');
    await expect(row('Litecoin').getByTestId('balance-ltc')).toHaveText('0.00000 LTC');

    // Values and shares are what the server priced, as the screen rounds them (GBP 2 places, whole percentages).
    const valueOf = (balance: AssetBalance | undefined) => `≈ £${screenAmount(balance?.gbp_value ?? '', 2)}`;
    await expect(row('EUR').getByTestId('value-EUR')).toHaveText(valueOf(shown.balances.EUR));
    await expect(row('Bitcoin').getByTestId('value-btc')).toHaveText(valueOf(shown.balances.btc));
    await expect(row('Ethereum').getByTestId('value-eth')).toHaveText(valueOf(shown.balances.eth));
    await expect(page.getByTestId('portfolio-total')).toHaveText(`£${screenAmount(shown.total_gbp, 2)}`);

    const total = Number(shown.total_gbp);
    expect(total).toBeGreaterThan(1000);
    for (const [name, key] of [
      ['GBP', 'GBP'],
      ['EUR', 'EUR'],
      ['Bitcoin', 'btc'],
      ['Ethereum', 'eth'],
    ] as const) {
      const balance = shown.balances[key];
      const percent = Math.round(Number(balance?.percentage));
      // The server's share agrees with its own values.
      expect(Math.abs(Number(balance?.gbp_value) / total - Number(balance?.percentage) / 100)).toBeLessThan(
        0.0001,
      );
      const bar = row(name).getByRole('progressbar', { name: `${name} share of portfolio` });
      await expect(bar).toHaveAttribute('aria-valuenow', String(percent));
      await expect(row(name).getByText(`${percent}%`, { exact: true })).toBeVisible();
    }
    const zero = row('Litecoin').getByRole('progressbar', { name: 'Litecoin share of portfolio' });
    await expect(zero).toHaveAttribute('aria-valuenow', '0');

    // Details: balance and term deposit to 5 decimals, whatever the asset.
    await row('GBP').getByRole('button', { name: 'Details GBP' }).click();
    const details = page.getByRole('dialog', { name: 'Details GBP' });
    await expect(details).toContainText('Balance1,000.00000 GBP');
    await expect(details).toContainText('Term Deposit0.00000 GBP');
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();

    // A live account may move money: the actions are links carrying the asset.
    await expect(row('GBP').getByRole('link', { name: 'Deposit GBP' })).toHaveAttribute(
      'href',
      '/user/withdraw-deposit?deposit',
    );
    await expect(row('EUR').getByRole('link', { name: 'Withdraw EUR' })).toHaveAttribute(
      'href',
      '/user/withdraw-deposit?withdraw',
    );
    await expect(row('Bitcoin').getByRole('link', { name: 'Buy Bitcoin' })).toHaveAttribute(
      'href',
      '/user/trade?side=buy&coin=btc',
    );
    await expect(row('Ethereum').getByRole('link', { name: 'Sell Ethereum' })).toHaveAttribute(
      'href',
      '/user/trade?side=sell&coin=eth',
    );
    await expect(row('Bitcoin').getByRole('link', { name: 'Wallets Bitcoin' })).toHaveAttribute(
      'href',
      '/user/wallets',
    );
    await saveScreenshots('dashboard-assets');

    // The eye hides every amount, and the choice is remembered on this device.
    await assets.getByRole('button', { name: 'Hide funds' }).click();
    await expect(row('GBP').getByTestId('balance-GBP')).toHaveText('*****');
    await expect(row('Bitcoin').getByTestId('value-btc')).toHaveText('*****');
    await expect(page.getByTestId('portfolio-total')).toHaveText('*****');
    expect(await page.evaluate(() => window.localStorage.getItem('hide-funds'))).toBe('true');

    await page.reload();
    await expect(row('GBP').getByTestId('balance-GBP')).toHaveText('*****');
    await expect(row('Ethereum').getByTestId('balance-eth')).toHaveText('*****');
    await row('Bitcoin').getByRole('button', { name: 'Details Bitcoin' }).click();
    await expect(page.getByRole('dialog', { name: 'Details Bitcoin' })).toContainText('Balance*****');
    await page.keyboard.press('Escape');
    await saveScreenshots('dashboard-funds-hidden', [375]);

    await assets.getByRole('button', { name: 'Show funds' }).click();
    await expect(row('GBP').getByTestId('balance-GBP')).toHaveText('1,000.00 GBP');
    await page.reload();
    await expect(row('GBP').getByTestId('balance-GBP')).toHaveText('1,000.00 GBP');
    expect(consoleErrors).toEqual([]);
  });

  test('a customer on hold sees their assets but every Deposit, Withdraw, Buy, Sell and Wallets button is disabled', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    consoleErrors,
  }) => {
    const userId = await makeCustomerLive(page, staff);
    await fund(api, customer.email, 'GBP', '20.00');
    await putOnHold(staff, userId, 'Source of funds review');

    await page.goto('/user');
    const assets = page.getByRole('table', { name: 'Assets' });
    const gbp = assets.getByRole('row', { name: 'GBP', exact: true });
    await expect(gbp.getByTestId('balance-GBP')).toHaveText('20.00 GBP');
    await expect(gbp.getByRole('button', { name: 'Deposit GBP' })).toBeDisabled();
    await expect(gbp.getByRole('button', { name: 'Withdraw GBP' })).toBeDisabled();
    const bitcoin = assets.getByRole('row', { name: 'Bitcoin', exact: true });
    for (const action of ['Buy', 'Sell', 'Wallets']) {
      await expect(bitcoin.getByRole('button', { name: `${action} Bitcoin` })).toBeDisabled();
    }
    await expect(assets.getByRole('link')).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
