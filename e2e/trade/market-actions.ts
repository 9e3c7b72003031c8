import type { PriceUpdate } from '@florin/contracts';
import type { APIRequestContext } from '@playwright/test';
import { test as base } from '../admin-fixtures.js';
import { postJson } from '../fixtures.js';

/**
 * The trade stories' market: the simulated market is moved through the dev
 * route, so a limit order fills when the story says, not when a random walk
 * happens to reach it.
 */

/** Makes the customer a trading-platform (2) customer, as an upgrade would. */
export async function useTradingPlatform(request: APIRequestContext, email: string): Promise<void> {
  await postJson(request, '/dev/users/platform', { email, platform: 2 });
}

/** The pair's latest close, from the last ten minutes of candles (the current minute may have none yet). */
async function currentMid(request: APIRequestContext, symbol: string): Promise<string> {
  const [coin, fiat] = symbol.split('/');
  const response = await request.get(`/api/v1/market-data/histominute?fsym=${coin}&tsym=${fiat}&limit=10`);
  if (!response.ok()) throw new Error(`histominute answered ${response.status()}`);
  const { data } = (await response.json()) as { data: { close: string }[] };
  const close = data.at(-1)?.close;
  if (!close) throw new Error(`no candle for ${symbol}`);
  return close;
}

export type Market = {
  /**
   * Sets the simulated market's mid for the pair and ticks, so prices, fills and positions follow;
   * the tick it made (bid and ask), the prices any order it filled executed at.
   */
  drive(symbol: string, mid: string): Promise<PriceUpdate>;
};

/**
 * The server is shared with the other specs: each pair a story drives goes
 * back to where it was when the story ends, so theirs see ordinary prices.
 */
export const test = base.extend<{ market: Market }>({
  market: async ({ api }, use) => {
    const originals = new Map<string, string>();
    await use({
      drive: async (symbol, mid) => {
        if (!originals.has(symbol)) originals.set(symbol, await currentMid(api, symbol));
        const body = await postJson<{ data: PriceUpdate }>(api, '/dev/market/drive', { symbol, mid });
        return body.data;
      },
    });
    for (const [symbol, mid] of originals) await postJson(api, '/dev/market/drive', { symbol, mid });
  },
});
