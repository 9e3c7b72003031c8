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
  it('is rate % of the amount, floored to the coin, and only within the balance', () => {
    expect(previewDeposit('0.5', '1', '0.25', 18)).toEqual({
      earn: '0.001250000000000000',
      total: '0.501250000000000000',
    });
    expect(previewDeposit('0.00100001', '1', '0.25', 8)).toEqual({ earn: '0.00000250', total: '0.00100251' });
    expect(previewDeposit('2', '1', '0.25', 18)).toBeNull();
    expect(previewDeposit('', '1', '0.25', 18)).toBeNull();
  });
});
