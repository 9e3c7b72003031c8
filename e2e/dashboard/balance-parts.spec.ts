import type { APIRequestContext } from '@playwright/test';
import { expect } from '../admin-fixtures.js';
import { chooseCoin } from '../crypto/crypto-actions.js';
import { postJson, type Mailbox } from '../fixtures.js';
import { test, useTradingPlatform } from '../trade/market-actions.js';
import { fund, makeCustomerLive } from './dashboard-actions.js';

/**
 * Issue 41: a customer whose BTC is partly held by a pending withdrawal and
 * an open order, and partly locked in a term deposit, reads one available
 * balance on every screen; the dashboard's Details say where the rest is,
 * and Recent Activity shows the withdrawal that is still pending.
 */

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
let keys = 0;

/** A money request, with a key of its own: its answer's data. */
async function post(request: APIRequestContext, url: string, data: unknown): Promise<unknown> {
  keys += 1;
  const key = `e2e-parts-${Date.now().toString(36)}-${process.pid}-${keys}`;
  return (await postJson<{ data: unknown }>(request, url, data, { 'idempotency-key': key })).data;
}

/** A BTC withdrawal asked for, confirmed with the mailed code and left with staff: pending, its coins held. */
async function withdrawPending(request: APIRequestContext, mailbox: Mailbox, email: string, amount: string) {
  const since = new Date(Date.now() - 1_000);
  const requested = (await post(request, '/api/v1/crypto/send-verify-withdraw', {
    coin: 'btc',
    wallet: BTC_ADDRESS,
    amount,
    beneficiary_type: 'self',
    destination_type: 'private_wallet',
  })) as { id: string };
  const mail = await mailbox.waitForMail(email, 'Your withdrawal code', { since });
  const code = /\bis (\d{6})\b/.exec(mail.text)?.[1] ?? '';
  await post(request, '/api/v1/crypto/verify-withdraw', { withdrawal_id: requested.id, verify_code: code });
  await post(request, '/api/v1/crypto/withdraw', { withdrawal_id: requested.id });
}

/** Locks `amount` BTC for the shortest term the Term Deposits page offers. */
async function lockForTerm(request: APIRequestContext, amount: string): Promise<void> {
  const response = await request.get('/api/v1/term-deposit-coins');
  const { data } = (await response.json()) as {
    data: { coin_id: string; options: { id: number; no_days: number }[] }[];
  };
  const option = data
    .find((coin) => coin.coin_id === 'btc')
    ?.options.reduce((a, b) => (a.no_days <= b.no_days ? a : b));
  if (!option) throw new Error('no BTC term deposit option');
  await post(request, '/api/v1/crypto/term-deposit', { coin: 'btc', amount, day: option.id });
}

/** `0.04000 BTC` as a count of the 5 decimals shown. */
function shownUnits(text: string | null): number {
  const match = /^([\d,]+)\.(\d{5}) BTC$/.exec(text ?? '');
  if (!match) throw new Error(`not a BTC amount: ${text}`);
  return Number(match[1]!.replace(/,/g, '')) * 100_000 + Number(match[2]);
}

test.describe('one balance, its parts in sight', () => {
  test('a customer with a pending withdrawal, an open order and a term deposit sees the same available BTC on the dashboard, the withdraw form, the trade page and Term Deposits; Details add up to the total, and Recent Activity shows the withdrawal pending', async ({
    signedInPage: page,
    customer,
    api,
    complianceApi: staff,
    mailbox,
    consoleErrors,
  }) => {
    await makeCustomerLive(page, staff);
    await useTradingPlatform(api, customer.email);
    await fund(api, customer.email, 'BTC', '0.1');
    await withdrawPending(page.request, mailbox, customer.email, '0.02');
    // A sell far above any price the market reaches: it stays open, holding its coins.
    await post(page.request, '/api/v1/crypto/limit_order', {
      coin_id: 'btc',
      side: 2,
      order_type: 2,
      order_qty: '0.01',
      price: '9000000',
    });
    await lockForTerm(page.request, '0.03');
    const available = '0.04000 BTC';

    await page.goto('/user');
    const btc = page
      .getByRole('table', { name: 'Assets' })
      .getByRole('row', { name: 'Bitcoin', exact: true });
    await expect(btc.getByTestId('balance-btc')).toHaveText(available);

    // Details: each part, and they add up to the total.
    await btc.getByRole('button', { name: 'Details Bitcoin' }).click();
    const details = page.getByRole('dialog', { name: 'Details Bitcoin' });
    const part = async (label: string) =>
      details.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]').textContent();
    expect(await part('Balance')).toBe(available);
    expect(await part('Held by open orders')).toBe('0.01000 BTC');
    expect(await part('Held by pending withdrawals')).toBe('0.02000 BTC');
    expect(await part('Term Deposit')).toBe('0.03000 BTC');
    expect(await part('Total')).toBe('0.10000 BTC');
    const parts = await Promise.all(
      ['Balance', 'Held by open orders', 'Held by pending withdrawals', 'Term Deposit'].map(part),
    );
    expect(parts.map(shownUnits).reduce((sum, units) => sum + units, 0)).toBe(
      shownUnits(await part('Total')),
    );
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();

    // Recent Activity: the withdrawal, pending, above the credit that funded it.
    const rows = page
      .getByRole('region', { name: 'Recent Activity' })
      .getByRole('table', { name: 'Recent activity' })
      .getByRole('row');
    await expect(rows.nth(1)).toContainText('Withdraw');
    await expect(rows.nth(1)).toContainText('-0.02000 BTC');
    await expect(rows.nth(1).getByRole('cell').last()).toHaveText('Pending');
    await expect(rows.filter({ hasText: 'Adjustment' }).getByRole('cell').last()).toHaveText('Completed');

    // The withdraw form.
    await page.goto('/user/withdraw-deposit?withdraw');
    await chooseCoin(page, 'BTC');
    await expect(
      page.getByRole('form', { name: 'Withdraw BTC' }).getByTestId('crypto-withdraw-balance'),
    ).toHaveText(available);

    // The trade page.
    await page.goto('/user/trade?coin=btc');
    await expect(
      page.getByRole('region', { name: 'Market order BTC/GBP' }).getByTestId('available-coin'),
    ).toHaveText(available);

    // Term Deposits.
    await page.goto('/user/term-deposit');
    await expect(
      page
        .getByRole('table', { name: 'Coins to deposit' })
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: 'Bitcoin', exact: true }) }),
    ).toContainText(available);
    expect(consoleErrors).toEqual([]);
  });
});
