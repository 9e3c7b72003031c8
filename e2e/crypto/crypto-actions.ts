import type { APIRequestContext, Page } from '@playwright/test';
import { postJson } from '../fixtures.js';

/**
 * What happens off-screen in the crypto stories, through the dev routes the
 * e2e server offers (never in production): payments arriving on the
 * simulated chain, blocks being mined, and the 24-hour security waits ending.
 */

/** Someone pays `amount` to `address`: the transaction waits in the simulated mempool. */
export async function broadcastDeposit(
  request: APIRequestContext,
  deposit: { asset: string; address: string; amount: string; tag?: string },
): Promise<void> {
  await postJson(request, '/dev/crypto/simulated-chain/deposit', deposit);
}

/** Mines `blocks` blocks (the mempool goes into the first), then the server's deposit watcher runs. */
export async function mineBlocks(request: APIRequestContext, asset: string, blocks: number): Promise<void> {
  await postJson(request, '/dev/crypto/simulated-chain/mine', { asset, blocks });
}

/** A day passes: the wait after turning on 2FA (or changing the password) is over. */
export async function passSecurityWaits(request: APIRequestContext, email: string): Promise<void> {
  await postJson(request, '/dev/security/pass-waits', { email });
}

/** Picks a coin in the Deposit / Withdraw screen's asset selector by its code, e.g. "BTC". */
export async function chooseCoin(page: Page, code: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Asset' }).click();
  await page.getByRole('option', { name: new RegExp(`\\(${code}\\)$`) }).click();
}
