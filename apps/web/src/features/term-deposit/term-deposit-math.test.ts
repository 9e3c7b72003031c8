import { TERM_DEPOSIT_TEXTS } from '@florin/contracts';
import { describe, expect, it } from 'vitest';
import { cleanAmountInput, previewDeposit, transferErrors } from './term-deposit-math';

describe('the Transfer checks', () => {
  it('say what is wrong with the amount in the spec’s words', () => {
    expect(transferErrors('', '1')).toEqual([TERM_DEPOSIT_TEXTS.inputAmount]);
    expect(transferErrors('0', '1')).toEqual([TERM_DEPOSIT_TEXTS.invalidAmount]);
    expect(transferErrors('0.000', '1')).toEqual([TERM_DEPOSIT_TEXTS.invalidAmount]);
    expect(transferErrors('1.0000000000000000001', '1')).toEqual([TERM_DEPOSIT_TEXTS.amountExceeded]);
    expect(transferErrors('1', '1.000000000000000000')).toEqual([]);
    expect(transferErrors('.5', '1')).toEqual([]);
  });

  it('check the chosen term’s minimum and maximum and the coin’s decimals too, all together', () => {
    const limits = { coinId: 'eth', decimals: 8, min: '0.01000000', max: '2.00000000' };
    expect(transferErrors('0.5', '1', limits)).toEqual([]);
    expect(transferErrors('0.000000001', '1', limits)).toEqual([
      'Enter at most 8 decimal places.',
      'The smallest deposit for this term is 0.01 ETH.',
    ]);
    expect(transferErrors('3', '1', limits)).toEqual([
      TERM_DEPOSIT_TEXTS.amountExceeded,
      'The largest deposit for this term is 2 ETH.',
    ]);
    expect(transferErrors('3', '5', { ...limits, max: null })).toEqual([]);
  });

  it('keep only digits and one point, and no point for xrp', () => {
    expect(cleanAmountInput('1a.2.3', 'eth')).toBe('1.23');
    expect(cleanAmountInput('-12.5', 'xrp')).toBe('125');
  });
});

describe('the earn preview', () => {
  const eth = { coinId: 'eth', scale: 18 } as const;
  it('is rate % of the amount, floored as the server pays it, and only within the balance', () => {
    expect(previewDeposit('0.5', '1', '0.25', eth)).toEqual({
      earn: '0.001250000000000000',
      total: '0.501250000000000000',
    });
    expect(previewDeposit('0.00100001', '1', '0.25', { coinId: 'btc', scale: 8 })).toEqual({
      earn: '0.00000250',
      total: '0.00100251',
    });
    // 0.00030864195 ETH earned: shown, as paid, to 8 decimals.
    expect(previewDeposit('0.12345678', '1', '0.25', eth)).toEqual({
      earn: '0.000308640000000000',
      total: '0.123765420000000000',
    });
    expect(previewDeposit('2', '1', '0.25', eth)).toBeNull();
    expect(previewDeposit('', '1', '0.25', eth)).toBeNull();
  });
});
