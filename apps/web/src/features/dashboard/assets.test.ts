import type { AssetBalance } from '@florin/contracts';
import { describe, expect, it } from 'vitest';
import { balanceDetails, buildAssetRows, isZeroAmount, portfolioShare } from './assets';

function balance(
  asset: string,
  kind: 'fiat' | 'coin',
  amount: string,
  extra: Partial<AssetBalance> = {},
): AssetBalance {
  return {
    asset,
    kind,
    amount,
    available: amount,
    held: '0',
    term_deposit: '0',
    held_orders: '0',
    held_withdrawals: '0',
    total: amount,
    gbp_value: '0',
    percentage: '0',
    ...extra,
  };
}

describe('buildAssetRows', () => {
  it('lists GBP first, then the other fiats held, then every active coin in market order', () => {
    const rows = buildAssetRows({
      balances: {
        USD: balance('USD', 'fiat', '5.00'),
        EUR: balance('EUR', 'fiat', '250.00'),
        GBP: balance('GBP', 'fiat', '1000.00'),
        eth: balance('ETH', 'coin', '2.000000000000000000'),
      },
      activeCoins: ['btc', 'eth', 'ltc'],
      coinNames: { btc: 'Bitcoin', eth: 'Ethereum' },
    });
    expect(rows.map((row) => [row.asset, row.kind, row.name])).toEqual([
      ['GBP', 'fiat', 'GBP'],
      ['EUR', 'fiat', 'EUR'],
      ['USD', 'fiat', 'USD'],
      ['btc', 'coin', 'Bitcoin'],
      ['eth', 'coin', 'Ethereum'],
      ['ltc', 'coin', 'LTC'],
    ]);
    expect(rows[3]).toMatchObject({ amount: '0', termDeposit: '0', code: 'BTC', percentage: '0' });
  });

  it('shows a GBP row with nothing in it, and leaves out other fiats with nothing in them', () => {
    const rows = buildAssetRows({
      balances: {
        EUR: balance('EUR', 'fiat', '0.00'),
        USD: balance('USD', 'fiat', '0.00', { term_deposit: '1.00', total: '1.00' }),
      },
      activeCoins: [],
    });
    expect(rows.map((row) => row.asset)).toEqual(['GBP', 'USD']);
    expect(rows[0]).toMatchObject({ amount: '0', gbpValue: '0' });
  });

  it('keeps a coin that is held but no longer listed, so no money is out of sight', () => {
    const rows = buildAssetRows({ balances: { bch: balance('BCH', 'coin', '1.5') }, activeCoins: ['btc'] });
    expect(rows.map((row) => row.asset)).toEqual(['GBP', 'btc', 'bch']);
  });

  it("takes the coin's flags: a disabled action is not offered", () => {
    const [, bitcoin] = buildAssetRows({
      balances: { btc: balance('BTC', 'coin', '1', { disable_buy: true, disable_withdraw: true }) },
      activeCoins: ['btc'],
    });
    expect(bitcoin).toMatchObject({ canBuy: false, canSell: true, canDeposit: true, canWithdraw: false });
  });
});

describe('portfolioShare', () => {
  it('rounds to whole percentages', () => {
    expect(portfolioShare('62.50')).toEqual({ percent: 63, style: 'normal' });
    expect(portfolioShare('10.00')).toEqual({ percent: 10, style: 'normal' });
    expect(portfolioShare('100.00')).toEqual({ percent: 100, style: 'normal' });
  });

  it('styles a share under 10 % apart, and a true zero apart again', () => {
    expect(portfolioShare('9.99')).toEqual({ percent: 10, style: 'small' });
    expect(portfolioShare('0.40')).toEqual({ percent: 0, style: 'small' });
    expect(portfolioShare('0.00')).toEqual({ percent: 0, style: 'zero' });
    expect(portfolioShare('0')).toEqual({ percent: 0, style: 'zero' });
  });

  it('has no share when the value is unknown', () => {
    expect(portfolioShare(null)).toBeNull();
    expect(portfolioShare('n/a')).toBeNull();
  });
});

describe('isZeroAmount', () => {
  it('reads any spelling of zero as zero', () => {
    expect(isZeroAmount('0')).toBe(true);
    expect(isZeroAmount('0.00000000')).toBe(true);
    expect(isZeroAmount('-0.00')).toBe(true);
    expect(isZeroAmount('0.00000001')).toBe(false);
  });
});

describe('the Details popover', () => {
  it('explains the balance: what open orders and a pending withdrawal hold, the term deposit, and a total they add up to', () => {
    // The customer: 0.02 BTC in a pending withdrawal, 0.01 in an open order, 0.03 locked.
    const [, bitcoin] = buildAssetRows({
      balances: {
        btc: balance('BTC', 'coin', '0.04000000', {
          held: '0.03000000',
          held_orders: '0.01000000',
          held_withdrawals: '0.02000000',
          term_deposit: '0.03000000',
          total: '0.10000000',
        }),
      },
      activeCoins: ['btc'],
    });
    const lines = balanceDetails(bitcoin!);
    expect(lines).toEqual([
      { label: 'Balance', value: '0.04000000' },
      { label: 'Held by open orders', value: '0.01000000' },
      { label: 'Held by pending withdrawals', value: '0.02000000' },
      { label: 'Term Deposit', value: '0.03000000' },
      { label: 'Total', value: '0.10000000' },
    ]);
    const satoshi = (value: string) => BigInt(value.replace('.', ''));
    const parts = lines.slice(0, -1).reduce((sum, line) => sum + satoshi(line.value), 0n);
    expect(parts).toBe(satoshi(lines.at(-1)!.value));
  });
});
