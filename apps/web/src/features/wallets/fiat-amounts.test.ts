import { FIAT_TEXTS } from '@florin/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkWithdrawAmount,
  cleanAmountInput,
  feeFor,
  receiveAmount,
  type WithdrawRules,
} from './fiat-amounts';

const rules: WithdrawRules = {
  currency: 'GBP',
  minimum: '5.00',
  fee: '5.00',
  fee_free_from: '10000.00',
  available: '20000.00',
};

describe('the fiat withdraw sums', () => {
  it('keeps only digits and one decimal point', () => {
    expect(cleanAmountInput('1,2a3.4.5')).toBe('123.45');
    expect(cleanAmountInput('-10')).toBe('10');
  });

  it('charges 5 below 10,000 and nothing from 10,000', () => {
    expect(feeFor('9999.99', rules)).toBe('5.00');
    expect(feeFor('10000', rules)).toBe('0.00');
    expect(receiveAmount('100', rules)).toBe('95.00');
    expect(receiveAmount('10000', rules)).toBe('10000.00');
    expect(receiveAmount('5', rules)).toBeUndefined();
  });

  it('refuses what the server would, in its words', () => {
    expect(checkWithdrawAmount('', rules)).toBe(FIAT_TEXTS.enterAmount);
    expect(checkWithdrawAmount('1.234', rules)).toBe(FIAT_TEXTS.amountDecimals);
    expect(checkWithdrawAmount('4', rules)).toBe('Minimum GBP withdrawal amount is 5.00');
    expect(checkWithdrawAmount('20000.01', rules)).toBe(FIAT_TEXTS.balanceTooLow);
    expect(checkWithdrawAmount('100', rules)).toBeUndefined();
  });
});
