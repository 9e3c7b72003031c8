import { CRYPTO_TEXTS } from '@florin/contracts';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { makeCustomerLive } from '../dashboard/dashboard-actions.js';
import { expect, test } from '../admin-fixtures.js';

/**
 * The back office's crypto deposits (issue 8, DECISIONS.md's XRP entry):
 * finance pays XRP to the house address without a destination tag through
 * the simulated-chain panel and mines it; the payment waits in review (the
 * suspense list) until finance assigns it to a customer, whose balance
 * grows, or returns it to the sender.
 */

type Wallet = { data: { address: string; tag: string | null } };
type Balances = { data: [{ balances: Record<string, { available: string } | undefined> }] };

/** What the customer's deposit view does for XRP: their destination tag on the house address. */
async function xrpHouseAddress(customer: APIRequestContext): Promise<string> {
  const response = await customer.get('/api/v1/user/generate-deposit-address/xrp');
  expect(response.ok()).toBe(true);
  const { data } = (await response.json()) as Wallet;
  expect(data.tag).toMatch(/^\d+$/);
  return data.address;
}

async function xrpAvailable(customer: APIRequestContext): Promise<string | undefined> {
  const response = await customer.get('/api/v1/balance');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Balances).data[0].balances.xrp?.available;
}

function toast(page: Page, text: string): Locator {
  return page.locator('.mantine-Notification-root').filter({ hasText: text });
}

/** Broadcasts a payment to the house address without a tag through the panel; returns its txid. */
async function broadcastUntaggedXrp(page: Page, address: string, amount: string): Promise<string> {
  const form = page.getByRole('form', { name: 'Broadcast a deposit' });
  await form.getByLabel('Coin').selectOption('XRP');
  await form.getByLabel('Address').fill(address);
  await expect(form.getByLabel('Destination tag')).toHaveValue('');
  await form.getByLabel('Amount').fill(amount);
  await form.getByRole('button', { name: 'Broadcast deposit' }).click();
  await expect(toast(page, CRYPTO_TEXTS.broadcast).last()).toBeVisible();
  // The form empties the amount once this broadcast is accepted, as it shows this one's txid.
  await expect(form.getByLabel('Amount')).toHaveValue('');
  const status = form.getByRole('status');
  await expect(status).toContainText('In the mempool:');
  const txid = ((await status.locator('span').textContent()) ?? '').trim();
  expect(txid).toMatch(/^[0-9A-Za-z]{8,}$/);
  return txid;
}

async function mineXrpBlocks(page: Page, blocks: number): Promise<void> {
  const form = page.getByRole('form', { name: 'Mine blocks' });
  await form.getByLabel('Chain').selectOption('XRP');
  await form.getByLabel('Blocks').fill(String(blocks));
  await form.getByRole('button', { name: 'Mine blocks' }).click();
  await expect(toast(page, CRYPTO_TEXTS.mined).last()).toBeVisible();
  await expect(form.getByRole('status')).toContainText(/^XRP chain height \d+$/);
}

function depositRow(page: Page, amount: string, txid: string): Locator {
  return page
    .getByRole('table', { name: 'Crypto deposits' })
    .getByRole('row', { name: `Deposit of ${amount} XRP in transaction ${txid}` });
}

async function showStatus(page: Page, label: string): Promise<void> {
  await page.getByRole('region', { name: 'Deposits' }).getByLabel('Status').selectOption({ label });
}

test.describe('the back office: crypto deposits and the XRP suspense list', () => {
  test.describe.configure({ timeout: 180_000 });

  test('an XRP payment without a destination tag, broadcast and mined from the simulated-chain panel, waits in review; finance assigns it to a live customer with a reason and their XRP balance grows; another is returned to its sender', async ({
    page,
    signUp,
    signIn,
    newDevice,
    complianceApi,
    staffMember,
    signInStaff,
    saveScreenshots,
    consoleErrors,
  }) => {
    // A live customer, with a name of their own: the list is shared by every story.
    const customer = await signUp({ firstName: 'Orla', lastName: 'Fenwick-Tagless' });
    const { page: customerPage } = await newDevice();
    await signIn(customerPage.request, customer);
    const userId = await makeCustomerLive(customerPage, complianceApi);
    const houseAddress = await xrpHouseAddress(customerPage.request);
    expect([undefined, '0.000000']).toContain(await xrpAvailable(customerPage.request));

    await signInStaff(page, await staffMember('finance'));
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Crypto deposits' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Crypto deposits' })).toBeVisible();

    // The panel refuses what the server would, in words.
    const broadcastForm = page.getByRole('form', { name: 'Broadcast a deposit' });
    await broadcastForm.getByLabel('Coin').selectOption('XRP');
    await broadcastForm.getByLabel('Destination tag').fill('12ab');
    await broadcastForm.getByRole('button', { name: 'Broadcast deposit' }).click();
    await expect(broadcastForm.getByText('Enter the address.')).toBeVisible();
    await expect(broadcastForm.getByText('Enter an amount such as 0.5.')).toBeVisible();
    await expect(
      broadcastForm.getByText('A destination tag is a whole number below 4294967296.'),
    ).toBeVisible();
    await broadcastForm.getByLabel('Destination tag').fill('');

    // Someone pays 40 XRP to the house address and forgets the tag.
    const txid = await broadcastUntaggedXrp(page, houseAddress, '40');
    const row = depositRow(page, '40.000000', txid);
    await expect(row).toContainText('Pending');
    await expect(row).toContainText('0/6');
    await mineXrpBlocks(page, 6);

    await showStatus(page, 'In review');
    await expect(page).toHaveURL(/status=suspense/);
    await expect(row).toContainText('In review');
    await expect(row).toContainText('XRP');
    // Long ids read shortened; the whole one is on hover.
    await expect(row.getByTitle(houseAddress)).toHaveText(
      `${houseAddress.slice(0, 8)}…${houseAddress.slice(-6)}`,
    );
    await expect(row).toContainText('No destination tag');
    await expect(row).toContainText('6/6');
    await expect(row.getByRole('cell').nth(6)).toHaveText('—');
    await expect(row.getByTitle(txid)).toHaveText(`${txid.slice(0, 8)}…${txid.slice(-6)}`);
    await expect(row.getByRole('button', { name: 'Copy transaction id' })).toBeVisible();
    await saveScreenshots('admin-crypto-deposits-review');

    // Assigning it to nobody is refused with the server's words; then to the customer, with a reason.
    await row.getByRole('button', { name: 'Assign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign to a customer' });
    await expect(dialog).toContainText(`40.000000 XRP (transaction ${txid}, no destination tag)`);
    await dialog.getByLabel('Customer id').fill('2147483000');
    await dialog.getByLabel('Reason').fill('The customer sent the payment proof from their exchange.');
    await dialog.getByRole('button', { name: 'Assign and credit' }).click();
    await expect(dialog.getByText(CRYPTO_TEXTS.customerNotFound)).toBeVisible();
    await saveScreenshots('admin-crypto-deposits-assign', [375]);
    await dialog.getByLabel('Customer id').fill(String(userId));
    await expect(dialog.getByText(CRYPTO_TEXTS.customerNotFound)).toBeHidden();
    await dialog.getByRole('button', { name: 'Assign and credit' }).click();
    await expect(toast(page, CRYPTO_TEXTS.depositAssigned)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(0);

    await showStatus(page, 'Credited');
    await expect(row).toContainText('Credited');
    await expect(row).toContainText('The customer sent the payment proof from their exchange.');
    await expect(row.getByRole('link', { name: 'Orla Fenwick-Tagless' })).toHaveAttribute(
      'href',
      `/admin/customers/${userId}`,
    );
    await expect.poll(() => xrpAvailable(customerPage.request)).toBe('40.000000');

    // A second untagged payment nobody claims goes back to its sender; nothing is credited.
    const returnedTxid = await broadcastUntaggedXrp(page, houseAddress, '12.5');
    await mineXrpBlocks(page, 6);
    await showStatus(page, 'In review');
    const returned = depositRow(page, '12.500000', returnedTxid);
    await expect(returned).toContainText('In review');
    await returned.getByRole('button', { name: 'Return' }).click();
    const returnDialog = page.getByRole('dialog', { name: 'Return the deposit' });
    await returnDialog.getByRole('button', { name: 'Mark as returned' }).click();
    await expect(returnDialog.getByText('Please give the reason.')).toBeVisible();
    await returnDialog.getByLabel('Reason').fill('Nobody claimed it within 30 days: sent back.');
    await returnDialog.getByRole('button', { name: 'Mark as returned' }).click();
    await expect(toast(page, CRYPTO_TEXTS.depositReturned)).toBeVisible();
    await expect(returned).toHaveCount(0);

    await showStatus(page, 'Returned');
    await expect(returned).toContainText('Returned');
    await expect(returned).toContainText('Nobody claimed it within 30 days: sent back.');
    await expect(returned.getByRole('cell').nth(6)).toHaveText('—');
    await expect(returned.getByRole('button', { name: 'Assign' })).toHaveCount(0);
    expect(await xrpAvailable(customerPage.request)).toBe('40.000000');

    await showStatus(page, 'All');
    await expect(page).not.toHaveURL(/status=/);
    await expect(depositRow(page, '40.000000', txid)).toContainText('Credited');
    await expect(returned).toContainText('Returned');
    await saveScreenshots('admin-crypto-deposits');

    // On a phone the same deposits are cards, not columns.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('table', { name: 'Crypto deposits' })).toBeHidden();
    const card = page
      .getByRole('list', { name: 'Crypto deposits' })
      .getByRole('listitem', { name: `Deposit of 12.500000 XRP in transaction ${returnedTxid}` });
    await expect(card).toContainText('Returned');
    await expect(card).toContainText('No destination tag');
    await expect(card.getByRole('button', { name: 'Copy transaction id' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});
