import type { AssetBalance } from '@florin/contracts';
import { describe, expect, it } from 'vitest';
import { buildWalletAssets, pickInitialAsset, readNavigationState, tabFromSearch } from './wallet-assets';

const balance = (kind: 'fiat' | 'coin', amount: string): AssetBalance => ({
  asset: 'x',
  kind,
  amount,
  available: amount,
  held: '0',
  term_deposit: '0',
  held_orders: '0',
  held_withdrawals: '0',
  total: amount,
  gbp_value: null,
  percentage: null,
});

const coins = [{ coinId: 'btc', name: 'Bitcoin' }];

describe('the asset selector', () => {
  it('lists GBP for deposit always, for withdraw only with a bank account', () => {
    const input = { balances: { EUR: balance('fiat', '3'), USD: balance('fiat', '0') }, coins };
    const keys = (tab: 'deposit' | 'withdraw', hasGbpBankAccount: boolean) =>
      buildWalletAssets({ ...input, tab, hasGbpBankAccount }).map((asset) => asset.key);
    expect(keys('deposit', false)).toEqual(['GBP', 'EUR', 'btc']);
    expect(keys('withdraw', false)).toEqual(['EUR', 'btc']);
    expect(keys('withdraw', true)).toEqual(['GBP', 'EUR', 'btc']);
  });

  it('preselects the asset the dashboard sent, else the first', () => {
    const assets = buildWalletAssets({
      tab: 'deposit',
      balances: {},
      coins,
      hasGbpBankAccount: false,
      preselected: { name: 'USD', type: 'fiat' },
    });
    expect(assets.map((asset) => asset.key)).toEqual(['GBP', 'USD', 'btc']);
    expect(pickInitialAsset(assets, { name: 'BTC', type: 'coin' })?.key).toBe('btc');
    expect(pickInitialAsset(assets, null)?.key).toBe('GBP');
  });

  it('reads the tab and the navigation state', () => {
    expect(tabFromSearch('?withdraw')).toBe('withdraw');
    expect(tabFromSearch('?deposit')).toBe('deposit');
    expect(tabFromSearch('')).toBe('deposit');
    expect(readNavigationState({ name: 'GBP', type: 'fiat' })).toEqual({ name: 'GBP', type: 'fiat' });
    expect(readNavigationState('GBP')).toBeNull();
  });
});
